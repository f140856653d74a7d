// Crossing values that reach exactly zero and stay there (a value clamped by max or min): IDA
// reports such a root wherever its search lands on the flat part, and the engine moves it back
// to the first instant at which the crossing's Boolean flips by its own rule (positive(): the
// value > 0; negative(): the value < 0), docs/design.md "The event loop".
#include <algorithm>
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// How the crossing value of ClampedSwitch reaches zero.
enum class Clamp {
  kFallsToZero,     ///< positive(max(0, 0.3 - t)): true for t < 0.3, false from 0.3 on
  kRisesToZero,     ///< negative(min(0, t - 0.3)): true for t < 0.3, false from 0.3 on
  kRestsAtZero,     ///< positive(min(0, t - 0.3) + max(0, t - 0.6)): false until 0.6, then true
  kFallsAfterEvent  ///< kFallsToZero with a time event at 0.1 (an IDA restart before the root)
};

/// x' = on ? 1 : 0, x(0) = 0, where `on` is the Boolean of one crossing whose value is clamped
/// at zero (Clamp). x(t) is the time `on` has been true.
class ClampedSwitch final : public Model {
 public:
  explicit ClampedSwitch(Clamp clamp) : Model("clamped_switch"), clamp_(clamp) {
    x_ = declare_variable({.name = "x"});
    ode_ = declare_equation("der(x) = on ? 1 : 0");
    on_ = declare_crossing("on");
    tick_ = declare_time_event("tick");
  }
  void evaluate(Evaluation& e) override {
    const double t = e.t();
    bool on = false;
    switch (clamp_) {
      case Clamp::kFallsToZero:
      case Clamp::kFallsAfterEvent:
        on = e.positive(on_, std::max(0.0, 0.3 - t));
        break;
      case Clamp::kRisesToZero:
        on = e.negative(on_, std::min(0.0, t - 0.3));
        break;
      case Clamp::kRestsAtZero:
        on = e.positive(on_, std::min(0.0, t - 0.3) + std::max(0.0, t - 0.6));
        break;
    }
    e.set(ode_, e.der(x_) - (on ? 1.0 : 0.0));
  }
  void on_event(EventContext& event) override {
    if (event.is_initial() && clamp_ == Clamp::kFallsAfterEvent) event.schedule(tick_, 0.1);
  }

 private:
  Clamp clamp_;
  Var x_;
  Eq ode_;
  Crossing on_;
  TimeEvent tick_;
};

SimulationResult run(Clamp clamp) {
  ClampedSwitch model(clamp);
  SimulationOptions options;
  options.stop_s = 1.0;
  options.rel_tol = 1e-8;
  options.output_interval_s = 0.125;  // a binary fraction: exact grid times
  options.log_level = LogLevel::kOff;
  return simulate(model, options);
}

/// The state events of a result (the log without the initial event and time events).
std::vector<EventRecord> state_events(const SimulationResult& result) {
  std::vector<EventRecord> events;
  for (const EventRecord& e : result.events) {
    if (e.kind == EventKind::kState) events.push_back(e);
  }
  return events;
}

// Tolerances: BDF integrates x' = 0 or 1 exactly (a polynomial of degree one), so x is
// the time `on` was true up to round-off and the event time. The root is located to IDA's
// root tolerance, 100 u (|t| + |h|) < 1e-13 s for t, h <= 1; 1e-12 leaves room for round-off.
constexpr double kTimeTolerance = 1e-12;

/// x on the output grid is min(t, t_off) for a switch that turns off at t_off.
void check_grid(const SimulationResult& result, double t_off, double t_on) {
  const auto t = result.table.time();
  const auto x = result.table.column("x");
  for (std::size_t i = 0; i < t.size(); ++i) {
    const double expected = std::min(t[i], t_off) + std::max(0.0, t[i] - t_on);
    CHECK(std::abs(x[i] - expected) < kTimeTolerance);
  }
}

}  // namespace

TEST_CASE(
    "a crossing value that falls to zero and stays there flips its Boolean where it got there") {
  for (const Clamp clamp : {Clamp::kFallsToZero, Clamp::kRisesToZero, Clamp::kFallsAfterEvent}) {
    CAPTURE(static_cast<int>(clamp));
    const SimulationResult result = run(clamp);
    REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
    // `on` is true exactly while the value is positive (negative for kRisesToZero), t < 0.3.
    const auto events = state_events(result);
    REQUIRE(events.size() == 1);
    CHECK(std::abs(events[0].t - 0.3) < kTimeTolerance);
    REQUIRE(events[0].crossings.size() == 1);
    CHECK(events[0].crossings[0].crossing == "on");
    CHECK(events[0].crossings[0].direction == CrossingDirection::kFalling);
    // x(1) = the time `on` was true = 0.3.
    CHECK(std::abs(result.table.final_value("x") - 0.3) < kTimeTolerance);
    check_grid(result, 0.3, 1.0);
  }
}

TEST_CASE("a crossing value that rises to zero leaves positive() false until it turns positive") {
  const SimulationResult result = run(Clamp::kRestsAtZero);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  // The value is negative before 0.3, zero on [0.3, 0.6] and positive after: positive() is
  // false until 0.6 and true after, so x(1) = 1 - 0.6 = 0.4. Reaching zero at 0.3 may stop
  // IDA, but flips nothing.
  const auto events = state_events(result);
  REQUIRE(!events.empty());
  const EventRecord& rise = events.back();
  CHECK(std::abs(rise.t - 0.6) < kTimeTolerance);
  REQUIRE(rise.crossings.size() == 1);
  CHECK(rise.crossings[0].direction == CrossingDirection::kRising);
  for (std::size_t k = 0; k + 1 < events.size(); ++k) CHECK(events[k].crossings.empty());
  CHECK(std::abs(result.table.final_value("x") - 0.4) < kTimeTolerance);
  check_grid(result, 0.0, 0.6);
}
