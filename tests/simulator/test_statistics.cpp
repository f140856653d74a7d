// Statistics of real runs (statistics.hpp): event counters, passes, restarts, root-function
// calls, and IDA's counters kept as totals across restarts (IDAReInit zeroes IDA's own).
#include <cmath>

#include <doctest/doctest.h>

#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// An oscillator x' = v, v' = -x (x = cos t from x = 1, v = 0) beside a clock s' = 1. At
/// s = 6 (crossing "s > 6") the handler moves the clock on by 10, across crossing "s > 12",
/// which flips in the next pass of the same event. A time event "tick" fires at 6.5.
class CountedEvents final : public Model {
 public:
  CountedEvents() : Model("counted_events") {
    x_ = declare_variable({.name = "x", .start = 1.0});
    v_ = declare_variable({.name = "v"});
    s_ = declare_variable({.name = "s"});
    kinematics_ = declare_equation("der(x) = v");
    dynamics_ = declare_equation("der(v) = -x");
    clock_ = declare_equation("der(s) = 1");
    six_ = declare_crossing("s > 6");
    twelve_ = declare_crossing("s > 12");
    tick_ = declare_time_event("tick");
  }
  void evaluate(Evaluation& e) override {
    e.positive(six_, e.x(s_) - 6.0);
    e.positive(twelve_, e.x(s_) - 12.0);
    e.set(kinematics_, e.der(x_) - e.x(v_));
    e.set(dynamics_, e.der(v_) + e.x(x_));
    e.set(clock_, e.der(s_) - 1.0);
  }
  void on_event(EventContext& event) override {
    if (event.is_initial() && event.pass() == 1) event.schedule(tick_, 6.5);
    if (event.rose(six_)) event.set(s_, event.x(s_) + 10.0);
  }

 private:
  Var x_, v_, s_;
  Eq kinematics_, dynamics_, clock_;
  Crossing six_, twelve_;
  TimeEvent tick_;
};

SimulationOptions options_until(double stop_s) {
  SimulationOptions options;
  options.stop_s = stop_s;
  options.output_interval_s = 0.1;
  options.rel_tol = 1e-8;
  return options;
}

}  // namespace

TEST_CASE("a run's statistics count its events, passes, restarts and all of IDA's steps") {
  CountedEvents model;
  const SimulationResult result = simulate(model, options_until(6.6));
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  const Statistics& s = result.statistics;
  CHECK(s.state_events == 1);  // s = 6 at t = 6
  CHECK(s.time_events == 1);   // tick at 6.5
  // Handler passes: 1 at t0, 2 at t = 6 ("s > 6" rose, then "s > 12" after the handler's
  // jump), 1 at 6.5. The jump solve runs after every handler pass.
  CHECK(s.event_iterations == 4);
  CHECK(s.max_event_iterations == 2);
  CHECK(s.jump_solves == 4);
  REQUIRE(result.events.size() == 3);
  CHECK(result.events[0].iterations == 1);
  CHECK(result.events[1].iterations == 2);
  CHECK(result.events[2].iterations == 1);
  // IDA starts at t0 and restarts after the state event at 6, which moved s; the tick at 6.5
  // changes nothing IDA sees, so IDA goes on through it without a restart.
  CHECK(s.restarts == 2);
  CHECK(s.root_function_evaluations > 0);
  CHECK(s.residual_evaluations > s.steps);  // at least one Newton iteration per step
  // Counters survive the restarts: the same run stopped at 5.9 (before the first event, same
  // output grid, hence the same steps up to 5.9) takes fewer steps than this one, which
  // needs at least one more step in each of [5.9, 6], [6, 6.5] and [6.5, 6.6].
  CountedEvents first_segment;
  const SimulationResult alone = simulate(first_segment, options_until(5.9));
  REQUIRE(alone.status.ok());
  CHECK(alone.statistics.restarts == 1);
  CHECK(s.steps >= alone.statistics.steps + 3);
  CHECK(s.residual_evaluations > alone.statistics.residual_evaluations);
  CHECK(s.root_function_evaluations > alone.statistics.root_function_evaluations);
  // The restarts did not disturb the oscillator: x = cos t within the lag test's global
  // error bound of 100 rel_tol (scale 1).
  CHECK(std::abs(result.table.final_value("x") - std::cos(6.6)) < 100 * 1e-8);
  CHECK(result.table.final_value("s") == doctest::Approx(16.6).epsilon(1e-9));
}
