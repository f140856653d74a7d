// An exception thrown by model code, in any phase of a run, comes back as ModelCallbackError
// naming the phase and the time, with the original nested inside and the rows and events so
// far in partial_result() (docs/troubleshooting.md).
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

enum class Fault {
  kResidual,
  kCrossing,
  kCrossingAtEvent,
  kOutput,
  kJumpSolve,
  kNotStdException,
  kScheduleInPast
};

/// x1' = -x1, x2' = -x2 (x1 = exp(-t)), a crossing "x1 < 0.3", an output "level" = 2 x1 and a
/// time event at 0.5 that switches a mode; one fault is injected:
///   kResidual         the residual throws at every t > 0.5 once the mode is switched
///   kCrossing         the crossing value (a sensor table) throws for x1 < 0.4
///   kCrossingAtEvent  the crossing value throws when evaluated at the event at t = 0.5
///   kOutput           the output (an efficiency table) throws for x1 < 0.5
///   kJumpSolve        every evaluation in the switched mode throws; the first is the jump solve
///   kNotStdException  the event handler throws an int
///   kScheduleInPast   the event handler schedules a time event before the current time
class Thrower final : public Model {
 public:
  explicit Thrower(Fault fault) : Model("thrower"), fault_(fault) {
    x1_ = declare_variable({.name = "x1", .start = 1.0});
    x2_ = declare_variable({.name = "x2", .start = 2.0});
    eq1_ = declare_equation("der(x1) = -x1");
    eq2_ = declare_equation("der(x2) = -x2");
    low_ = declare_crossing("x1 < 0.3");
    level_ = declare_output("level");
    switch_ = declare_time_event("switch");
  }
  void evaluate(Evaluation& e) override {
    if (fault_ == Fault::kResidual && switched_ && e.t() > 0.5) {
      fail_at(e.t(), "friction table ends at t = 0.5");
    }
    if (fault_ == Fault::kJumpSolve && switched_) {
      fail_at(e.t(), "valve characteristic of mode 'open' missing");
    }
    e.set(eq1_, e.der(x1_) + e.x(x1_));
    e.set(eq2_, e.der(x2_) + e.x(x2_));
    if (fault_ == Fault::kCrossing && e.x(x1_) < 0.4) {
      fail_at(e.t(), "level sensor range starts at x1 = 0.4");
    }
    if (fault_ == Fault::kCrossingAtEvent && e.is_event() && !e.is_initial()) {
      fail_at(e.t(), "level sensor cannot be read during events");
    }
    e.negative(low_, e.x(x1_) - 0.3);
    if (e.wants_outputs()) {
      if (fault_ == Fault::kOutput && e.x(x1_) < 0.5) {
        fail_at(e.t(), "efficiency table starts at x1 = 0.5");
      }
      e.set(level_, 2.0 * e.x(x1_));
    }
  }
  void on_event(EventContext& event) override {
    if (event.is_initial()) event.schedule(switch_, 0.5);
    if (!event.fired(switch_)) return;
    if (fault_ == Fault::kNotStdException) throw 42;
    if (fault_ == Fault::kScheduleInPast) event.schedule(switch_, 0.25);
    switched_ = true;
  }
  void reset() override {
    switched_ = false;
    first_throw_t.reset();
  }

  /// Time of the model's first throw: the time the error message must name.
  std::optional<double> first_throw_t;

 private:
  [[noreturn]] void fail_at(double t, const char* what) {
    if (!first_throw_t) first_throw_t = t;
    throw std::runtime_error(what);
  }

  Fault fault_;
  bool switched_ = false;
  Var x1_, x2_;
  Eq eq1_, eq2_;
  Crossing low_;
  Out level_;
  TimeEvent switch_;
};

SimulationOptions thrower_options() {
  SimulationOptions o;
  o.stop_s = 2.0;
  o.output_interval_s = 0.125;  // a binary fraction: grid times are exact (0.75, not 0.75000001)
  o.max_step_s = 0.01;          // bounds where the failing step of integration can start
  o.log_level = LogLevel::kOff;
  return o;
}

/// What a ModelCallbackError carried, read inside its catch block (a copy would lose the
/// nested exception).
struct Caught {
  std::string message = "simulate did not throw ModelCallbackError";
  std::shared_ptr<const SimulationResult> partial;
  std::string nested = "(nothing nested)";
};

Caught run_to_failure(Thrower& model) {
  Caught c;
  try {
    static_cast<void>(simulate(model, thrower_options()));
  } catch (const ModelCallbackError& e) {
    c.message = e.what();
    c.partial = e.partial_result();
    try {
      std::rethrow_if_nested(e);
    } catch (const std::exception& original) {
      c.nested = original.what();
    } catch (const int code) {
      c.nested = fmt::format("int {}", code);
    }
  }
  return c;
}

/// The checks every case shares: message, nested original and a partial result whose status
/// is the failure at t_fail and whose log holds the initial event and the one at t = 0.5.
const SimulationResult& check_caught(const Caught& c, const std::string& message,
                                     const std::string& original, double t_fail) {
  CHECK(c.message == message);
  CHECK(c.nested == original);
  REQUIRE(c.partial != nullptr);
  CHECK(c.partial->status.t == t_fail);
  CHECK(c.partial->status.message == message);
  REQUIRE(c.partial->events.size() == 2);
  CHECK(c.partial->events[1].t == 0.5);
  return *c.partial;
}

/// Row count and last row of a partial result. Rows come from the grid 0, 0.125, ... plus
/// the right limit at the time event t = 0.5 (two rows at 0.5); x1 = exp(-t) is checked to
/// 100 rel_tol, as in the integration tests.
void check_last_row(const SimulationResult& partial, std::size_t rows, double t_last) {
  CHECK(partial.table.num_rows() == rows);
  CHECK(partial.table.time().back() == t_last);
  CHECK(std::abs(partial.table.final_value("x1") - std::exp(-t_last)) < 100 * 1e-6);
}

}  // namespace

TEST_CASE("an exception from the residual during integration names integration and its time") {
  Thrower model(Fault::kResidual);
  const Caught c = run_to_failure(model);
  REQUIRE(model.first_throw_t.has_value());
  const double t_fail = *model.first_throw_t;
  const SimulationResult& partial = check_caught(
      c,
      fmt::format("model 'thrower' failed in integration at t = {}: friction table ends at t = "
                  "0.5",
                  t_fail),
      "friction table ends at t = 0.5", t_fail);
  // The first residual after the restart at 0.5 is IDA's first Newton iterate, at 0.5 + h
  // with h <= max_step_s.
  CHECK(t_fail > 0.5);
  CHECK(t_fail <= 0.5 + 0.01);
  // IDA completed no step after the restart: the right limit at 0.5 stays the last row (an
  // iterate at the failure time is no solution, so no row is made up there).
  check_last_row(partial, 6, 0.5);
  CHECK(partial.events[1].note.empty());  // the event at 0.5 settled before the failure
}

TEST_CASE("an exception from a crossing value during integration keeps IDA's last step as a row") {
  Thrower model(Fault::kCrossing);
  const Caught c = run_to_failure(model);
  REQUIRE(model.first_throw_t.has_value());
  const double t_fail = *model.first_throw_t;
  const SimulationResult& partial = check_caught(
      c,
      fmt::format("model 'thrower' failed in integration at t = {}: level sensor range starts "
                  "at x1 = 0.4",
                  t_fail),
      "level sensor range starts at x1 = 0.4", t_fail);
  // x1 = exp(-t) falls below 0.4 at t = ln 2.5 = 0.91629; the failing step starts before that
  // and is at most max_step_s = 0.01 long. The Newton iterates differ from exp(-t) by about
  // the tolerance, hence the 1e-4 margin.
  const double t_cross = std::log(2.5);
  CHECK(t_fail > t_cross - 1e-4);
  CHECK(t_fail < t_cross + 0.01 + 1e-4);
  // Grid rows 0 .. 0.875 (8), the right limit at 0.5, and the last step IDA completed, which
  // lies after the grid point 0.875 (IDA had passed it) and before the failure.
  const double t_last = partial.table.time().back();
  CHECK(t_last > 0.875);
  CHECK(t_last < t_fail);
  // That row is the solution there, not a stale state: x1 = exp(-t), der(x1) = -x1.
  check_last_row(partial, 10, t_last);
  CHECK(std::abs(partial.table.final_value("der(x1)") + std::exp(-t_last)) < 100 * 1e-6);
  CHECK(partial.table.final_value("level") == 2.0 * partial.table.final_value("x1"));
}

TEST_CASE("an exception from a crossing value at an event names the event evaluation") {
  Thrower model(Fault::kCrossingAtEvent);
  const Caught c = run_to_failure(model);
  const std::string message =
      "model 'thrower' failed in event evaluation at t = 0.5: level sensor cannot be read "
      "during events";
  const SimulationResult& partial =
      check_caught(c, message, "level sensor cannot be read during events", 0.5);
  // Grid rows 0 .. 0.5 (the left limit) and the last row at the failure time 0.5.
  check_last_row(partial, 6, 0.5);
  // The interrupted event stays in the log, saying why; the handler never ran.
  CHECK(partial.events[1].time_events == std::vector<std::string>{"switch"});
  CHECK(partial.events[1].iterations == 0);
  CHECK(partial.events[1].note == message);
}

TEST_CASE("an exception from an output names output and keeps the state with NaN outputs") {
  Thrower model(Fault::kOutput);
  const Caught c = run_to_failure(model);
  // Outputs are evaluated only for stored rows; x1 = exp(-t) < 0.5 from t = ln 2 = 0.693 on,
  // so the first row that fails is the grid point 0.75.
  const SimulationResult& partial = check_caught(
      c, "model 'thrower' failed in output at t = 0.75: efficiency table starts at x1 = 0.5",
      "efficiency table starts at x1 = 0.5", 0.75);
  // Grid rows 0 .. 0.625 (6), the right limit at 0.5, and the row at 0.75 whose state is
  // known but whose output the model could not compute.
  check_last_row(partial, 8, 0.75);
  CHECK(std::isnan(partial.table.final_value("level")));
  const std::size_t before_last = partial.table.num_rows() - 2;
  CHECK(partial.table.value(before_last, partial.table.column_index("level")) ==
        2.0 * partial.table.value(before_last, partial.table.column_index("x1")));
}

TEST_CASE("an exception during the jump solve names the jump solve and the event time") {
  Thrower model(Fault::kJumpSolve);
  const Caught c = run_to_failure(model);
  const std::string message =
      "model 'thrower' failed in jump solve at t = 0.5: valve characteristic of mode 'open' "
      "missing";
  const SimulationResult& partial =
      check_caught(c, message, "valve characteristic of mode 'open' missing", 0.5);
  REQUIRE(model.first_throw_t.has_value());
  CHECK(*model.first_throw_t == 0.5);
  // Grid rows 0 .. 0.5 (the left limit) and the last row at 0.5: the state x^- (no x^+ was
  // found) with NaN outputs, since the model throws in the switched mode.
  check_last_row(partial, 6, 0.5);
  CHECK(std::isnan(partial.table.final_value("level")));
  CHECK(partial.events[1].iterations == 1);  // the handler ran, its jump solve did not finish
  CHECK(partial.events[1].note == message);
}

TEST_CASE("an exception not derived from std::exception is nested and named as such") {
  Thrower model(Fault::kNotStdException);
  const Caught c = run_to_failure(model);
  const SimulationResult& partial = check_caught(
      c,
      "model 'thrower' failed in event handler at t = 0.5: an exception not derived from "
      "std::exception",
      "int 42", 0.5);
  check_last_row(partial, 6, 0.5);
}

TEST_CASE("misuse of the event context during a run keeps the partial result too") {
  // EventContext::schedule rejects a time before the current one with a ModelError; thrown
  // in the middle of a run it is a failure of model code like any other, so the rows so far
  // are not lost.
  Thrower model(Fault::kScheduleInPast);
  const Caught c = run_to_failure(model);
  const SimulationResult& partial = check_caught(
      c,
      "model 'thrower' failed in event handler at t = 0.5: time event 'switch' scheduled at "
      "t = 0.25 which is before the current time 0.5 or not finite",
      "time event 'switch' scheduled at t = 0.25 which is before the current time 0.5 or not "
      "finite",
      0.5);
  check_last_row(partial, 6, 0.5);
}

TEST_CASE("a stream file that cannot be completed does not hide the model's failure") {
  // /dev/full accepts the open and fails every write with ENOSPC: the rows kept for the
  // stream cannot reach it when it is closed after the model failed. The model's failure
  // stays the message's subject; the incomplete stream is added to it.
  if (!std::filesystem::exists("/dev/full")) return;  // Linux only
  Thrower model(Fault::kScheduleInPast);
  SimulationOptions options = thrower_options();
  options.sinks = {SinkSpec::memory(), SinkSpec::csv("/dev/full")};
  std::string message;
  std::shared_ptr<const SimulationResult> partial;
  try {
    static_cast<void>(simulate(model, options));
  } catch (const ModelCallbackError& e) {
    message = e.what();
    partial = e.partial_result();
  }
  CHECK(message ==
        "model 'thrower' failed in event handler at t = 0.5: time event 'switch' scheduled at "
        "t = 0.25 which is before the current time 0.5 or not finite; a row sink failed at the "
        "end of the run: /dev/full: write failed: No space left on device");
  REQUIRE(partial != nullptr);
  CHECK(partial->status.message == message);
  check_last_row(*partial, 6, 0.5);  // the rows in memory are all there
}
