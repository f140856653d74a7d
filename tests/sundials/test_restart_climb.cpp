// The quick climb after a restart (engine/src/sundials/restart_climb.hpp): an oscillator whose
// constant force is switched at t = 1, restarted from the state IDA reached there with the
// step from history, climbs back in fewer steps with the quick climb than without, and both
// runs follow the exact solution from that state. The step from history is the last step IDA
// chose by its error estimates, not the one it cut short to end on a stop time.
#include <cmath>
#include <numbers>
#include <span>
#include <vector>

#include <doctest/doctest.h>

#include "sundials/ida_integrator.hpp"

using namespace hdae::sundials;

namespace {

constexpr double kOmega = 2.0 * std::numbers::pi;  // one period per second
constexpr double kRelTol = 1e-8;

/// der(x) = v, der(v) = -omega^2 x + force.
class Oscillator final : public IdaProblem {
 public:
  double force = 0.0;
  int residual(double, std::span<const double> y, std::span<const double> yp,
               std::span<double> r) override {
    r[0] = yp[0] - y[1];
    r[1] = yp[1] + kOmega * kOmega * y[0] - force;
    return 0;
  }
  int roots(double, std::span<const double>, std::span<const double>, std::span<double>) override {
    return 0;
  }
  int jacobian(double, double, std::span<const double>, std::span<const double>,
               MatrixEntries&) override {
    return 0;
  }
};

void step_to(IdaIntegrator& ida, double t_stop) {
  while (ida.step(t_stop, t_stop) == StepResult::kStepped) {
  }
  REQUIRE(ida.t() == t_stop);
}

struct ClimbRun {
  long steps_after_restart = 0;
  double error_at_end = 0.0;
};

ClimbRun run(bool quick_climb) {
  Oscillator problem;
  IdaIntegrator ida(
      problem,
      {.n = 2, .rel_tol = kRelTol, .abs_tol = {1e-10, 1e-10}, .restarts_from_history = true});
  const std::vector<bool> none_algebraic = {false, false};
  const std::vector<double> y0 = {1.0, 0.0};
  const std::vector<double> yp0 = {0.0, -kOmega * kOmega};
  ida.restart(0.0, y0, yp0, none_algebraic);
  step_to(ida, 1.0);
  // The force switches to -omega^2 (rest position x = -1); x and v go on, der(v) jumps.
  const double x1 = ida.y()[0];
  const double v1 = ida.y()[1];
  problem.force = -kOmega * kOmega;
  const std::vector<double> y = {x1, v1};
  const std::vector<double> yp = {v1, -kOmega * kOmega * x1 + problem.force};
  const double first_step = ida.step_from_history(1.0, 0.05);
  REQUIRE(first_step > 0.0);
  const long steps_before = ida.counters().steps;
  ida.restart(1.0, y, yp, none_algebraic, first_step, quick_climb);
  step_to(ida, 3.0);
  // Exact from (x1, v1) at t = 1: x = -1 + (x1 + 1) cos(w (t - 1)) + v1 / w sin(w (t - 1)).
  const double exact =
      -1.0 + (x1 + 1.0) * std::cos(2.0 * kOmega) + v1 / kOmega * std::sin(2.0 * kOmega);
  return {ida.counters().steps - steps_before, std::abs(ida.y()[0] - exact)};
}

}  // namespace

TEST_CASE("the quick climb after a restart takes fewer steps, as accurate as the tolerance asks") {
  const ClimbRun plain = run(false);
  const ClimbRun quick = run(true);
  CAPTURE(plain.steps_after_restart);
  CAPTURE(quick.steps_after_restart);
  CHECK(quick.steps_after_restart < plain.steps_after_restart);
  // The oscillator's flow keeps the size of an error in (w x, v), so the error at the end is
  // at most the sum of the local errors IDA accepted, each below rel_tol |x| + atol with
  // |x| <= 3 (x swings between 1 and -3): steps * 3 rel_tol (plus atol) bounds it.
  for (const ClimbRun* r : {&plain, &quick}) {
    CHECK(r->error_at_end <= static_cast<double>(r->steps_after_restart) * (3.0 * kRelTol + 1e-10));
  }
}

TEST_CASE("the step from history is the last one IDA chose freely, not the one cut short") {
  // IDA shortens the step that ends on a stop time; what the solution allows before an event
  // is the step before that one.
  Oscillator problem;
  IdaIntegrator ida(
      problem,
      {.n = 2, .rel_tol = kRelTol, .abs_tol = {1e-10, 1e-10}, .restarts_from_history = true});
  const std::vector<bool> none_algebraic = {false, false};
  ida.restart(0.0, std::vector<double>{1.0, 0.0}, std::vector<double>{0.0, -kOmega * kOmega},
              none_algebraic);
  while (ida.t() < 0.5) REQUIRE(ida.step(10.0, 10.0) == StepResult::kStepped);
  const double free = ida.last_step();
  const double t_stop = ida.t() + 0.3 * free;  // IDA must cut its next step to 0.3 of this one
  REQUIRE(ida.step(t_stop, t_stop) == StepResult::kReachedStop);
  // IDA ends the shortened step within a few unit roundoffs of t_stop; 1e-6 only absorbs that.
  CHECK(ida.last_step() == doctest::Approx(0.3 * free).epsilon(1e-6));
  CHECK(ida.free_step() == free);
  // With the order-1 bound out of reach, the first step after a restart is that step.
  CHECK(ida.step_from_history(t_stop, 1e12) == free);
}
