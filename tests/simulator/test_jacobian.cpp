// A model-supplied analytic Jacobian replaces the difference quotients, with dense and KLU.
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
