// IDA's controls as hdae passes them on: per-variable absolute tolerances (read back as IDA's
// error weights), der_x start values, a list of output times, the highest BDF order, the
// first step size, IDA's own counters and RecoverableError.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"
#include "simulator/simulation_run.hpp"
#include "support/test_models.hpp"

using namespace hdae;

namespace {

/// x1' = -x1 and x2' = -x2 with chosen start values, nominal and absolute tolerance.
class TwoLags final : public Model {
 public:
  explicit TwoLags(std::optional<double> abs_tol_x1) : Model("two_lags") {
    x1_ = declare_variable({.name = "x1", .start = 2.0, .abs_tol = abs_tol_x1});
    x2_ = declare_variable({.name = "x2", .start = -3.0, .nominal = 10.0});
    e1_ = declare_equation("der(x1) = -x1");
    e2_ = declare_equation("der(x2) = -x2");
  }
  void evaluate(Evaluation& e) override {
    e.set(e1_, e.der(x1_) + e.x(x1_));
    e.set(e2_, e.der(x2_) + e.x(x2_));
  }

 private:
  Var x1_, x2_;
  Eq e1_, e2_;
};

/// x' = -x/2 from 1.5 (x = 1.5 exp(-t/2)); records what the first pass at t0 sees of der(x)
/// and the earliest time of an evaluation after t0 (IDA's first step ends there).
class ObservedLag final : public Model {
 public:
  explicit ObservedLag(std::optional<double> der_start) : Model("observed_lag") {
    x_ = declare_variable({.name = "x", .start = 1.5, .der_start = der_start});
    eq_ = declare_equation("2*der(x) = -x");
  }
  void evaluate(Evaluation& e) override {
    if (e.t() > 0.0) first_t_after_t0 = std::min(first_t_after_t0, e.t());
    e.set(eq_, 2.0 * e.der(x_) + e.x(x_));
  }
  void on_event(EventContext& ev) override {
    if (ev.is_initial() && ev.pass() == 1) der_seen_at_t0 = ev.der(x_);
  }
  double der_seen_at_t0 = std::numeric_limits<double>::quiet_NaN();
  double first_t_after_t0 = std::numeric_limits<double>::infinity();

 private:
  Var x_;
  Eq eq_;
};

/// A tank draining through an orifice (Torricelli): h' = -sqrt(h), h(0) = 1, so
/// h = (1 - t/2)^2 until it runs empty at t = 2. The model cannot take the square root of a
/// negative level, which a step reaching too far predicts; it throws RecoverableError there
/// instead of returning NaN.
class DrainingTank final : public Model {
 public:
  DrainingTank() : Model("draining_tank") {
    h_ = declare_variable({.name = "h", .start = 1.0});
    eq_ = declare_equation("der(h) = -sqrt(h)");
  }
  void evaluate(Evaluation& e) override {
    if (e.x(h_) < 0.0) {
      ++refusals;
      throw RecoverableError("level below zero");
    }
    e.set(eq_, e.der(h_) + std::sqrt(e.x(h_)));
  }
  int refusals = 0;

 private:
  Var h_;
  Eq eq_;
};

/// The lag with its Jacobian dF/dx + cj dF/d(der_x) = 2 cj + 1, counting the calls.
class LagWithJacobian final : public Model {
 public:
  LagWithJacobian() : Model("lag_with_jacobian") {
    x_ = declare_variable({.name = "x", .start = 1.5});
    eq_ = declare_equation("2*der(x) = -x");
  }
  void evaluate(Evaluation& e) override { e.set(eq_, 2.0 * e.der(x_) + e.x(x_)); }
  [[nodiscard]] bool provides_jacobian() const override { return true; }
  void jacobian(double, double cj, std::span<const double>, std::span<const double>,
                JacobianEntries& entries) override {
    ++calls;
    entries.add(eq_, x_, 2.0 * cj + 1.0);
  }
  std::int64_t calls = 0;

 private:
  Var x_;
  Eq eq_;
};

}  // namespace

TEST_CASE("a variable's abs_tol reaches IDA: its error weight is 1/(rtol |x| + abs_tol)") {
  TwoLags model(1e-3);
  SimulationOptions options;
  options.rel_tol = 1e-6;
  detail::SimulationRun run(model, options);
  run.initialize();
  run.advance_to(1e-12);  // IDA's first step, which ends beyond this target
  REQUIRE(run.statistics().steps == 1);
  // IDA sets its weights from the state at the start of a step (IDA guide, "Error weight
  // function"), here the start values: x1 = 2 with abs_tol 1e-3, x2 = -3 with the default
  // abs_tol_factor (0.01) * rel_tol * nominal (10) = 1e-7.
  const std::vector<double> w = run.error_weights();
  REQUIRE(w.size() == 2);
  CHECK(w[0] == doctest::Approx(1.0 / (1e-6 * 2.0 + 1e-3)).epsilon(1e-14));
  CHECK(w[1] == doctest::Approx(1.0 / (1e-6 * 3.0 + 1e-7)).epsilon(1e-14));
}

TEST_CASE("abs_tol and der_start are validated with the variable's name") {
  TwoLags negative(-1.0);
  CHECK_THROWS_WITH_AS(
      (void)simulate(negative, {}),
      "model 'two_lags': abs_tol of variable 'x1' must be finite and > 0 when set, got -1",
      ModelError);
  ObservedLag nan_start(std::numeric_limits<double>::quiet_NaN());
  CHECK_THROWS_WITH_AS((void)simulate(nan_start, {}),
                       "model 'observed_lag': der_start of variable 'x' is not finite (nan)",
                       ModelError);
}

TEST_CASE("der_start is der_x at t0^-: the first pass sees it, the consistent value replaces it") {
  ObservedLag with_start(3.0);
  Simulator sim(with_start, {});
  sim.initialize();
  CHECK(with_start.der_seen_at_t0 == 3.0);
  // Then der_x solves 2 der(x) = -x at x = 1.5: -0.75 (an exact binary fraction).
  CHECK(sim.derivatives()[0] == -0.75);

  ObservedLag without(std::nullopt);
  Simulator plain(without, {});
  plain.initialize();
  CHECK(without.der_seen_at_t0 == 0.0);
}

TEST_CASE("output_times give rows at exactly the listed times, interpolated to IDA's accuracy") {
  test::FirstOrderLag lag(2.0, 1.5);  // x = 1.5 exp(-t/2)
  SimulationOptions options;
  options.stop_s = 2.0;
  options.rel_tol = 1e-8;
  options.output_times = {0.0, 0.25, 0.3, 1.5, 2.0};
  const SimulationResult result = simulate(lag, options);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  // t0 and stop_s have their own rows, which stand for the listed 0 and 2.
  const std::vector<double> expected = {0.0, 0.25, 0.3, 1.5, 2.0};
  CHECK(result.table.time() == expected);
  for (std::size_t i = 0; i < result.table.num_rows(); ++i) {
    const double t = result.table.time(i);
    CHECK(result.table.value(i, 0) == doctest::Approx(1.5 * std::exp(-t / 2)).epsilon(1e-6));
  }
}

TEST_CASE("max_order 1 makes IDA take backward Euler steps: many more for the same tolerance") {
  // Backward Euler's local error is about h^2 |x''| / 2. For x = 1.5 exp(-t/2) over 2 s at
  // rel_tol 1e-8 (|x''| <= 0.375, |x| >= 0.55) that allows h of about 2e-4, i.e. thousands of
  // steps; BDF up to order 5 needs a few hundred at most.
  SimulationOptions options;
  options.stop_s = 2.0;
  options.rel_tol = 1e-8;
  test::FirstOrderLag lag(2.0, 1.5);
  const SimulationResult bdf5 = simulate(lag, options);
  options.max_order = 1;
  const SimulationResult euler = simulate(lag, options);
  REQUIRE(euler.status.outcome == Outcome::kReachedStopTime);
  CHECK(bdf5.statistics.steps < 500);
  CHECK(euler.statistics.steps > 2000);
  CHECK(euler.table.final_value("x") == doctest::Approx(1.5 * std::exp(-1.0)).epsilon(1e-4));
}

TEST_CASE("initial_step_s is IDA's first step: its first evaluation after t0 is at t0 + h0") {
  // IDA's Newton iteration for the step from t0 evaluates the residual at t0 + h0 first.
  ObservedLag lag(std::nullopt);
  SimulationOptions options;
  options.initial_step_s = 1e-3;
  const SimulationResult result = simulate(lag, options);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  CHECK(lag.first_t_after_t0 == 1e-3);
}

TEST_CASE("IDA's own counters: nreLS is n residuals per dense Jacobian, nje the model's calls") {
  SimulationOptions options;
  options.stop_s = 5.0;
  options.rel_tol = 1e-8;
  TwoLags dense(std::nullopt);
  const Statistics s = simulate(dense, options).statistics;
  // IDA's dense difference quotient takes one residual per column (n = 2) per Jacobian.
  CHECK(s.ida_nje > 0);
  CHECK(s.ida_nre_ls == 2 * s.ida_nje);
  CHECK(s.residual_evaluations == s.ida_nre + s.ida_nre_ls);
  CHECK(s.ida_nje == s.jacobian_evaluations);
  // Every step takes at least one Newton iteration; every Jacobian comes with a setup.
  CHECK(s.ida_nni >= s.steps);
  CHECK(s.ida_nsetups >= s.ida_nje);
  CHECK(s.ida_netf == s.error_test_failures);
  CHECK(s.ida_nncf == s.convergence_failures);
  CHECK(s.full_report().find("ida_nre_ls: " + std::to_string(s.ida_nre_ls) + "\n") !=
        std::string::npos);

  LagWithJacobian analytic;
  const Statistics a = simulate(analytic, options).statistics;
  CHECK(a.ida_nje == analytic.calls);  // IDA asked the model for every Jacobian
  CHECK(a.ida_nre_ls == 0);
}

TEST_CASE(
    "RecoverableError in evaluate() makes IDA retry and the run reaches the analytic answer") {
  DrainingTank model;
  SimulationOptions options;
  options.stop_s = 1.5;
  options.rel_tol = 1e-8;
  // A first step over the whole interval: IDA's order-1 predictor h(0) + 1.5 h'(0) = -0.5
  // lies below zero, the model refuses it, and IDA retries with a quarter of the step.
  options.initial_step_s = 1.5;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  CHECK(model.refusals > 0);
  CHECK(result.statistics.convergence_failures >= model.refusals);
  // h(1.5) = (1 - 0.75)^2 = 0.0625.
  CHECK(result.table.final_value("h") == doctest::Approx(0.0625).epsilon(1e-6));
}

TEST_CASE("RecoverableError outside IDA's steps ends the run as a model failure saying so") {
  // x starts negative: the initial event iteration cannot shorten any step.
  class NegativeStart final : public Model {
   public:
    NegativeStart() : Model("negative_start") {
      x_ = declare_variable({.name = "x", .start = -1.0});
      eq_ = declare_equation("der(x) = -sqrt(x)");
    }
    void evaluate(Evaluation& e) override {
      if (e.x(x_) < 0.0) throw RecoverableError("sqrt of negative x");
      e.set(eq_, e.der(x_) + std::sqrt(e.x(x_)));
    }

   private:
    Var x_;
    Eq eq_;
  } model;
  try {
    (void)simulate(model, {});
    FAIL("no exception");
  } catch (const ModelCallbackError& e) {
    const std::string m = e.what();
    CHECK(
        m.starts_with("model 'negative_start' failed in event evaluation at t = 0: sqrt of "
                      "negative x"));
    CHECK(m.find("no step can be retried") != std::string::npos);
    CHECK(e.partial_result()->status.outcome == Outcome::kModelFailure);
  }
}
