// A model-supplied analytic Jacobian replaces the difference quotients, with dense and KLU.
#include <chrono>
#include <cmath>

#include <doctest/doctest.h>

#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// x1' = -x1, 0 = x2 - sin(t) x1 with dF/dx + cj dF/d(der_x) written by hand:
///   row 1: [1 + cj, 0],  row 2: [-sin(t), 1].
class LinearDaeWithJacobian final : public Model {
 public:
  LinearDaeWithJacobian() : Model("linear_dae_jacobian") {
    x1_ = declare_variable({.name = "x1", .start = 1.0});
    x2_ = declare_variable({.name = "x2"});
    ode_ = declare_equation("der(x1) = -x1");
    alg_ = declare_equation("0 = x2 - sin(t)*x1", RowKind::kConstraint);
    declare_dependency(ode_, x1_);
    declare_dependency(alg_, x1_);
    declare_dependency(alg_, x2_);
  }
  void evaluate(Evaluation& e) override {
    e.set(ode_, e.der(x1_) + e.x(x1_));
    e.set(alg_, e.x(x2_) - std::sin(e.t()) * e.x(x1_));
  }
  bool provides_jacobian() const override { return true; }
  void jacobian(double t, double cj, std::span<const double>, std::span<const double>,
                JacobianEntries& J) override {
    ++jacobian_calls;
    J.add(ode_, x1_, 1.0 + cj);
    J.add(alg_, x1_, -std::sin(t));
    J.add(alg_, x2_, 1.0);
  }
  long jacobian_calls = 0;

 private:
  Var x1_, x2_;
  Eq ode_, alg_;
};

}  // namespace

TEST_CASE("an analytic Jacobian is used instead of difference quotients with dense and KLU") {
  for (const LinearSolverKind solver : {LinearSolverKind::kDense, LinearSolverKind::kKlu}) {
    LinearDaeWithJacobian model;
    SimulationOptions options;
    options.stop_s = 5.0;
    options.rel_tol = 1e-8;
    options.linear_solver = solver;
    const SimulationResult result = simulate(model, options);
    REQUIRE(result.status.ok());
    CHECK(model.jacobian_calls == result.statistics.jacobian_evaluations);
    CHECK(model.jacobian_calls > 0);
    CHECK(result.statistics.jacobian_residual_evaluations == 0);
    // Exact solution x1 = exp(-t), x2 = sin(t) exp(-t); global error bound 100 rel_tol as in
    // the integration tests.
    CHECK(std::abs(result.table.final_value("x1") - std::exp(-5.0)) < 100 * 1e-8);
    CHECK(std::abs(result.table.final_value("x2") - std::sin(5.0) * std::exp(-5.0)) < 100 * 1e-8);
  }
}

namespace {

/// The same model whose Jacobian takes at least 1 ms per call (it waits on the steady clock),
/// so the time the statistics report for Jacobians has a known lower bound.
class SlowJacobian final : public Model {
 public:
  SlowJacobian() : Model("slow_jacobian") {
    x_ = declare_variable({.name = "x", .start = 1.0});
    ode_ = declare_equation("der(x) = -x");
    declare_dependency(ode_, x_);
  }
  void evaluate(Evaluation& e) override { e.set(ode_, e.der(x_) + e.x(x_)); }
  bool provides_jacobian() const override { return true; }
  void jacobian(double, double cj, std::span<const double>, std::span<const double>,
                JacobianEntries& J) override {
    ++jacobian_calls;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(1);
    while (std::chrono::steady_clock::now() < until) {
    }
    J.add(ode_, x_, 1.0 + cj);
  }
  long jacobian_calls = 0;

 private:
  Var x_;
  Eq ode_;
};

}  // namespace

TEST_CASE("the statistics report the time spent in Jacobians, none for IDA's own dense ones") {
  SlowJacobian slow;
  SimulationOptions options;
  options.stop_s = 1.0;
  const SimulationResult timed = simulate(slow, options);
  REQUIRE(timed.status.ok());
  REQUIRE(slow.jacobian_calls > 0);
  // Every call waited at least 1 ms inside the callback, and the callback is part of the run.
  CHECK(timed.statistics.jacobian_time_s >= 1e-3 * static_cast<double>(slow.jacobian_calls));
  CHECK(timed.statistics.jacobian_time_s <= timed.statistics.wall_time_s);

  // Without an analytic Jacobian and with the dense solver, IDA differences the residual
  // itself: hdae's callback is never called.
  struct Plain final : Model {
    Plain() : Model("plain") {
      x = declare_variable({.name = "x", .start = 1.0});
      eq = declare_equation("der(x) = -x");
    }
    void evaluate(Evaluation& e) override { e.set(eq, e.der(x) + e.x(x)); }
    Var x;
    Eq eq;
  } dq_model;
  const SimulationResult dq = simulate(dq_model, options);
  REQUIRE(dq.status.ok());
  CHECK(dq.statistics.jacobian_evaluations > 0);
  CHECK(dq.statistics.jacobian_time_s == 0.0);
}
