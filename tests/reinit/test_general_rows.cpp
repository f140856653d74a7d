// General residual rows (docs/design.md, "General rows and singular mass matrices"): a row
// nonlinear in der_x, a singular mass matrix of index 1 (hidden constraints), and one of
// higher index that is refused with the rows named.
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"
#include "reinit/jump_solver.hpp"
#include "reinit_test_models.hpp"

using namespace hdae;

namespace {

/// der(x)^3 = 27 x^2 (f_d, nonlinear in der(x)) and y = 2 x (f_c), x(0) = 1. The cubic has one
/// real root, der(x) = 3 x^(2/3), so x = (t + 1)^3, der(x) = 3 (t + 1)^2, y = 2 (t + 1)^3. A
/// time event at t = 0.5 changes nothing but makes the engine find der_x again there.
class CubicDerivative final : public Model {
 public:
  CubicDerivative() : Model("cubic_derivative") {
    x_ = declare_variable({.name = "x", .start = 1.0});
    y_ = declare_variable({.name = "y", .start = 2.0});
    rate_ = declare_equation("der(x)^3 = 27*x^2");
    link_ = declare_equation("y = 2*x", RowKind::kConstraint);
    tick_ = declare_time_event("tick");
  }
  void evaluate(Evaluation& e) override {
    const double d = e.der(x_), x = e.x(x_);
    e.set(rate_, d * d * d - 27.0 * x * x);
    e.set(link_, e.x(y_) - 2.0 * e.x(x_));
  }
  void on_event(EventContext& c) override {
    if (c.is_initial()) c.schedule(tick_, 0.5);
  }

 private:
  Var x_, y_;
  Eq rate_, link_;
  TimeEvent tick_;
};

/// Singular mass matrix of index 2: der(x) - der(y) = y and der(y) - der(x) = sin(t) - x. The
/// rows' sum x - y - sin(t) = 0 is a hidden constraint; differentiated, der(x) - der(y) =
/// cos(t), which repeats the first row's derivatives: y = cos(t) is a second hidden
/// constraint, so der_x is not determined by one differentiation.
class HigherIndexPair final : public Model {
 public:
  HigherIndexPair() : Model("higher_index_pair") {
    x_ = declare_variable({.name = "x"});
    y_ = declare_variable({.name = "y"});
    a_ = declare_equation("der(x) - der(y) = y");
    b_ = declare_equation("der(y) - der(x) = sin(t) - x");
  }
  void evaluate(Evaluation& e) override {
    e.set(a_, e.der(x_) - e.der(y_) - e.x(y_));
    e.set(b_, e.der(y_) - e.der(x_) - std::sin(e.t()) + e.x(x_));
  }

 private:
  Var x_, y_;
  Eq a_, b_;
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a row nonlinear in der_x simulates to its analytic solution") {
  CubicDerivative model;
  SimulationOptions options;
  options.stop_s = 1.0;
  options.rel_tol = 1e-8;
  Simulator sim(model, options);
  sim.initialize();
  REQUIRE(sim.status().outcome == Outcome::kRunning);
  // der(x)(0) = 3 (the cubic's real root), found from der_x = 0 without der_start.
  CHECK(sim.derivatives()[0] == doctest::Approx(3.0).epsilon(1e-9));
  CHECK(sim.derivatives()[1] == doctest::Approx(6.0).epsilon(1e-7));  // y' = 2 x'
  sim.advance_to(0.5);
  // After the time event the consistent derivative is 3 * 1.5^2 = 6.75 again.
  CHECK(sim.derivatives()[0] == doctest::Approx(6.75).epsilon(1e-6));
  static_cast<void>(sim.take_result());  // ends that run: a model serves one run at a time
  const SimulationResult r = simulate(model, options);
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  REQUIRE(r.events.size() == 2);  // t0 and the tick
  for (std::size_t i = 0; i < r.table.num_rows(); ++i) {
    const double t = r.table.time(i), exact = std::pow(t + 1.0, 3);
    CAPTURE(t);
    // IDA's global error at rel_tol 1e-8 on a growing solution: 100 rel_tol of x.
    CHECK(std::abs(r.table.value(i, r.table.column_index("x")) - exact) < 1e-6 * exact);
    CHECK(std::abs(r.table.value(i, r.table.column_index("y")) - 2.0 * exact) < 2e-6 * exact);
  }
  CHECK(r.table.final_value("x") == doctest::Approx(8.0).epsilon(1e-6));
}

TEST_CASE("a singular mass matrix of higher index is refused with its equations named") {
  HigherIndexPair model;
  SimulationOptions options;
  options.stop_s = 1.0;
  const SimulationResult r = simulate(model, options);
  CHECK(r.status.outcome == Outcome::kSingularJacobian);
  CAPTURE(r.status.message);
  CHECK(contains(r.status.message, "der(x) - der(y) = y"));
  CHECK(contains(r.status.message, "der(y) - der(x) = sin(t) - x"));
  CHECK(contains(r.status.message, "hidden constraint"));
}

TEST_CASE("a jump through a row nonlinear in der_x is solved at the left-limit derivative") {
  // der(x)^3 = 27 x^2 and y = 2 x, from x^- = (1, 2.5), which violates y = 2 x. No impulse
  // passes the cubic row, so x keeps 1 and y moves to 2. At base 0 its jump equation is D^3 = 0,
  // whose derivative vanishes at D = 0: the Newton matrix is singular there.
  const reinit::testing::TestModel model = reinit::testing::make_model(
      {"x", "y"},
      {{"der(x)^3 = 27*x^2", RowKind::kDifferential}, {"y = 2*x", RowKind::kConstraint}},
      [](double, std::span<const double> s, std::span<const double> ds, std::span<double> r) {
        r[0] = ds[0] * ds[0] * ds[0] - 27.0 * s[0] * s[0];
        r[1] = s[1] - 2.0 * s[0];
      });
  const std::vector<double> x_minus{1.0, 2.5};
  reinit::JumpProblem p = model.problem();
  CHECK(reinit::solve_jump(p, x_minus).status == reinit::SolveStatus::kSingular);
  // Taken at the left-limit derivative der(x) = 3 (the row's root at x = 1), its derivative is
  // 3 der(x)^2 = 27.
  const std::vector<double> der_minus{3.0, 6.0};
  p.jump_base = der_minus;
  const reinit::JumpOutcome jump = reinit::solve_jump(p, x_minus);
  REQUIRE(jump.status == reinit::SolveStatus::kOk);
  CHECK(jump.x_plus[0] == doctest::Approx(1.0).epsilon(1e-9));
  CHECK(jump.x_plus[1] == doctest::Approx(2.0).epsilon(1e-9));
}
