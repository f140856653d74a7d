// A crossing value that is NaN or infinite outside IDA's steps (the event iteration at t0 or at
// a later event) cannot be retried with a smaller step: it ends the run as a model failure
// naming the crossing, the phase and the time (docs/troubleshooting.md), instead of
// leaving its Boolean false (NaN > 0 is false) for the rest of the run.
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// Where the crossing value of SwitchWithBadValue is not finite.
enum class Bad { kNanAtStart, kMinusInfAtStart, kNanAtTimeEvent };

/// x' = on ? 1 : 0, x(0) = 0, on = positive(1) except at one evaluation outside IDA's steps:
/// at t0 (kNanAtStart, kMinusInfAtStart) or at the time event "check" at t = 0.5.
class SwitchWithBadValue final : public Model {
 public:
  explicit SwitchWithBadValue(Bad bad) : Model("bad_switch"), bad_(bad) {
    x_ = declare_variable({.name = "x"});
    ode_ = declare_equation("der(x) = on ? 1 : 0");
    on_ = declare_crossing("on");
    check_ = declare_time_event("check");
  }
  void evaluate(Evaluation& e) override {
    double value = 1.0;
    constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
    if (e.is_initial() && bad_ == Bad::kNanAtStart) value = kNan;
    if (e.is_initial() && bad_ == Bad::kMinusInfAtStart) {
      value = -std::numeric_limits<double>::infinity();
    }
    if (e.is_event() && !e.is_initial() && bad_ == Bad::kNanAtTimeEvent) value = kNan;
    const bool on = e.positive(on_, value);
    e.set(ode_, e.der(x_) - (on ? 1.0 : 0.0));
  }
  void on_event(EventContext& event) override {
    if (event.is_initial()) event.schedule(check_, 0.5);
  }

 private:
  Bad bad_;
  Var x_;
  Eq ode_;
  Crossing on_;
  TimeEvent check_;
};

struct Caught {
  std::string message = "simulate did not throw ModelCallbackError";
  std::shared_ptr<const SimulationResult> partial;
};

Caught run(Bad bad) {
  SwitchWithBadValue model(bad);
  SimulationOptions options;
  options.stop_s = 1.0;
  options.rel_tol = 1e-8;
  options.output_interval_s = 0.125;  // a binary fraction: exact grid times
  options.log_level = LogLevel::kOff;
  Caught c;
  try {
    static_cast<void>(simulate(model, options));
  } catch (const ModelCallbackError& e) {
    c.message = e.what();
    c.partial = e.partial_result();
  }
  return c;
}

}  // namespace

TEST_CASE("a crossing value that is not finite at t0 ends the run naming the crossing") {
  const Caught nan = run(Bad::kNanAtStart);
  CHECK(nan.message ==
        "model 'bad_switch' failed in event evaluation at t = 0: the value of crossing 'on' is "
        "NaN; at an event no step can be retried, so it ends the run");
  REQUIRE(nan.partial != nullptr);
  CHECK(nan.partial->status.outcome == Outcome::kModelFailure);
  CHECK(nan.partial->status.t == 0.0);

  const Caught inf = run(Bad::kMinusInfAtStart);
  CHECK(inf.message ==
        "model 'bad_switch' failed in event evaluation at t = 0: the value of crossing 'on' is "
        "infinite; at an event no step can be retried, so it ends the run");
  REQUIRE(inf.partial != nullptr);
  CHECK(inf.partial->status.outcome == Outcome::kModelFailure);
}

TEST_CASE("a crossing value that is NaN at a time event ends the run there naming the crossing") {
  const Caught c = run(Bad::kNanAtTimeEvent);
  CHECK(c.message ==
        "model 'bad_switch' failed in event evaluation at t = 0.5: the value of crossing 'on' "
        "is NaN; at an event no step can be retried, so it ends the run");
  REQUIRE(c.partial != nullptr);
  CHECK(c.partial->status.outcome == Outcome::kModelFailure);
  CHECK(c.partial->status.t == 0.5);
  // Up to the event `on` was true (value 1 > 0), so x(0.5) = 0.5; BDF integrates x' = 1
  // exactly, leaving round-off: 1e-12.
  CHECK(c.partial->table.time().back() == 0.5);
  CHECK(std::abs(c.partial->table.final_value("x") - 0.5) < 1e-12);
  // The interrupted event stays in the log with the message as its note.
  REQUIRE(c.partial->events.size() == 2);
  CHECK(c.partial->events[1].t == 0.5);
  CHECK(c.partial->events[1].note == c.message);
}
