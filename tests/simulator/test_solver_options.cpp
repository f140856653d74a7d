// What the integrator options do to a run, shown by IDA's observable behaviour: error control
// of single variables (ErrorControl::kExcluded, suppress_algebraic), step limits
// (max_steps_per_interval, max_step_s) and the automatic choice of the linear solver.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>

#include <doctest/doctest.h>

#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"
#include "support/test_models.hpp"

using namespace hdae;

namespace {

constexpr double kOmega = 2 * std::numbers::pi * 20.0;  // 20 Hz: 200 periods in 10 s

/// x' = -x/2 beside y' = omega cos(omega t), y(0) = 0, so y = sin(omega t). y does not enter
/// x's row: with y excluded from the error test IDA's steps are those of x alone.
class LagBesideOscillation final : public Model {
 public:
  explicit LagBesideOscillation(ErrorControl y_control) : Model("lag_beside_oscillation") {
    x_ = declare_variable({.name = "x", .start = 1.5});
    y_ = declare_variable({.name = "y", .error_control = y_control});
    lag_ = declare_equation("2*der(x) = -x");
    wave_ = declare_equation("der(y) = omega*cos(omega*t)");
  }
  void evaluate(Evaluation& e) override {
    e.set(lag_, 2.0 * e.der(x_) + e.x(x_));
    e.set(wave_, e.der(y_) - kOmega * std::cos(kOmega * e.t()));
  }

 private:
  Var x_, y_;
  Eq lag_, wave_;
};

/// x' = -x/2 and the algebraic 0 = y - sin(omega t): y is determined at every step by its
/// constraint, whatever the step size.
class LagBesideAlgebraicWave final : public Model {
 public:
  LagBesideAlgebraicWave() : Model("lag_beside_algebraic_wave") {
    x_ = declare_variable({.name = "x", .start = 1.5});
    y_ = declare_variable({.name = "y"});
    lag_ = declare_equation("2*der(x) = -x");
    wave_ = declare_equation("0 = y - sin(omega*t)", RowKind::kConstraint);
  }
  void evaluate(Evaluation& e) override {
    e.set(lag_, 2.0 * e.der(x_) + e.x(x_));
    e.set(wave_, e.x(y_) - std::sin(kOmega * e.t()));
  }

 private:
  Var x_, y_;
  Eq lag_, wave_;
};

/// Largest |y - sin(omega t)| over the rows of a result (column 1 is y).
double worst_sine_error(const SimulationResult& r) {
  double worst = 0.0;
  for (std::size_t i = 0; i < r.table.num_rows(); ++i) {
    worst = std::max(worst, std::abs(r.table.value(i, 1) - std::sin(kOmega * r.table.time(i))));
  }
  return worst;
}

SimulationOptions ten_seconds() {
  SimulationOptions options;
  options.stop_s = 10.0;
  options.output_interval_s = 1.0;
  return options;
}

/// Steps of the lag x' = -x/2 alone over the same interval (test_models.hpp).
std::int64_t lag_alone_steps(const SimulationOptions& options) {
  test::FirstOrderLag lag(2.0, 1.5);
  const SimulationResult r = simulate(lag, options);
  REQUIRE(r.status.ok());
  return r.statistics.steps;
}

}  // namespace

TEST_CASE("a variable excluded from error control does not limit IDA's steps") {
  const SimulationOptions options = ten_seconds();
  LagBesideOscillation included(ErrorControl::kIncluded);
  LagBesideOscillation excluded(ErrorControl::kExcluded);
  const SimulationResult with_y = simulate(included, options);
  const SimulationResult without_y = simulate(excluded, options);
  REQUIRE(with_y.status.ok());
  REQUIRE(without_y.status.ok());
  // Resolving 200 periods of a sine to rel_tol 1e-6 takes BDF (order <= 5) well over 10
  // steps per period; the lag alone needs fewer than 200 over its 5 time constants.
  const std::int64_t alone = lag_alone_steps(options);
  CHECK(with_y.statistics.steps > 10 * 200);
  CHECK(alone < 200);
  // Excluded, y's local error no longer enters the step-size control: IDA takes about the
  // lag's steps. (Not exactly: y still enters the weighted norm of Newton's convergence
  // test, which may cost an iteration and change a step here and there; 10% bounds that.)
  CHECK(without_y.statistics.steps <= alone + alone / 10);
  // x is still controlled in both runs: within the lag test's 100 rel_tol of 1.5 exp(-t/2).
  for (const SimulationResult* r : {&with_y, &without_y}) {
    CHECK(std::abs(r->table.final_value("x") - 1.5 * std::exp(-5.0)) < 100 * 1e-6 * 1.5);
  }
  // ... while y, integrated with the lag's long steps, is not: its error at some output
  // point exceeds 1e-2 (y itself is of size 1); controlled, it stays within the lag test's
  // global error bound of 100 rel_tol.
  CHECK(worst_sine_error(with_y) < 100 * 1e-6);
  CHECK(worst_sine_error(without_y) > 1e-2);
}

TEST_CASE("suppress_algebraic keeps algebraic variables out of the error test, off they count") {
  SimulationOptions options = ten_seconds();
  LagBesideAlgebraicWave model;
  options.suppress_algebraic = true;
  const SimulationResult suppressed = simulate(model, options);
  options.suppress_algebraic = false;  // the default
  const SimulationResult tested = simulate(model, options);
  REQUIRE(suppressed.status.ok());
  REQUIRE(tested.status.ok());
  // Suppressed, only x's error counts: about the lag's steps (10%, as above).
  // Tested, the predictor's error for y = sin(omega t) forces steps that resolve the 200
  // periods.
  const std::int64_t alone = lag_alone_steps(ten_seconds());
  CHECK(suppressed.statistics.steps <= alone + alone / 10);
  CHECK(tested.statistics.steps > 10 * 200);
  // Output points between steps are interpolated from IDA's history, y included: with the
  // error test y is accurate there; suppressed, y is exact only at the (long) steps and its
  // interpolant misses sin(omega t) by more than 1e-2 somewhere.
  CHECK(worst_sine_error(tested) < 100 * 1e-6);  // the lag test's global error bound
  CHECK(worst_sine_error(suppressed) > 1e-2);
}

TEST_CASE("a tiny max_steps_per_interval ends the run with IDA_TOO_MUCH_WORK") {
  test::FirstOrderLag model(2.0, 1.5);
  SimulationOptions options;
  options.stop_s = 10.0;
  options.output_interval_s = 10.0;  // one output interval: the limit applies to the whole run
  options.max_steps_per_interval = 3;
  const SimulationResult result = simulate(model, options);
  // IDA starts with a step of at most 1e-3 of the distance to the output point (10 s) and at
  // most doubles it per step: 3 steps reach no further than 0.01 + 0.02 + 0.04 s.
  REQUIRE(result.status.outcome == Outcome::kSolverFailure);
  CHECK(result.status.t > 0.0);
  CHECK(result.status.t <= 0.07 + 1e-12);
  const std::string prefix = "IDA failed at t = ";
  CHECK(result.status.message.rfind(prefix, 0) == 0);
  CHECK(result.status.message.find("with IDA_TOO_MUCH_WORK") != std::string::npos);
  CHECK(result.statistics.steps == 3);
  // The run keeps its rows: t = 0 and the point where IDA gave up.
  REQUIRE(result.table.num_rows() == 2);
  CHECK(result.table.time(1) == result.status.t);
}

TEST_CASE("max_step_s bounds every step: at least (stop - start) / max_step_s steps") {
  SimulationOptions options = ten_seconds();
  const std::int64_t free = lag_alone_steps(options);
  options.max_step_s = 0.01;
  test::FirstOrderLag model(2.0, 1.5);
  const SimulationResult limited = simulate(model, options);
  REQUIRE(limited.status.ok());
  // Steps of at most 0.01 s cover 10 s in no fewer than 1000 steps; without the limit the
  // lag takes far fewer (see above).
  CHECK(limited.statistics.steps >= 1000);
  CHECK(free < 200);
  CHECK(std::abs(limited.table.final_value("x") - 1.5 * std::exp(-5.0)) < 100 * 1e-6 * 1.5);
}

TEST_CASE("kAuto picks KLU for a declared pattern at or above sparse_min_unknowns, dense below") {
  // The coloured finite-difference Jacobian (statistics.jacobian_colors > 0) exists only on
  // the KLU path. test::LinearDae has 2 unknowns and a declared pattern with 2 colours.
  auto run = [](SimulationModel& model, LinearSolverKind solver, std::size_t klu_min) {
    SimulationOptions options;
    options.stop_s = 2.0;
    options.linear_solver = solver;
    options.sparse_min_unknowns = klu_min;
    const SimulationResult r = simulate(model, options);
    REQUIRE(r.status.ok());
    return r;
  };
  test::LinearDae dae;
  const SimulationResult at = run(dae, LinearSolverKind::kAuto, 2);
  const SimulationResult below = run(dae, LinearSolverKind::kAuto, 3);
  const SimulationResult klu = run(dae, LinearSolverKind::kKlu, 50);
  const SimulationResult dense = run(dae, LinearSolverKind::kDense, 1);
  CHECK(at.statistics.jacobian_colors == 2);
  CHECK(klu.statistics.jacobian_colors == 2);
  CHECK(below.statistics.jacobian_colors == 0);
  CHECK(dense.statistics.jacobian_colors == 0);
  // The same solver makes the same run: identical counters and end values.
  CHECK(at.statistics.residual_evaluations == klu.statistics.residual_evaluations);
  CHECK(below.statistics.residual_evaluations == dense.statistics.residual_evaluations);
  CHECK(at.table.final_value("x2") == klu.table.final_value("x2"));
  CHECK(below.table.final_value("x2") == dense.table.final_value("x2"));
  // Without a declared pattern kAuto stays dense however small the threshold.
  test::FirstOrderLag lag(2.0, 1.5);
  CHECK(run(lag, LinearSolverKind::kAuto, 1).statistics.jacobian_colors == 0);
}
