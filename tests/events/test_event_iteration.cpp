// The event iteration loop, time events, root directions and termination.
#include <cmath>
#include <numbers>
#include <string>

#include <doctest/doctest.h>

#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// x' = -x plus two crossings whose values depend on a discrete flag that the event handler
/// toggles whenever a crossing flipped: after the time event at 0.5 they never settle.
class Toggling final : public Model {
 public:
  Toggling() : Model("toggling") {
    x_ = declare_variable({.name = "x", .start = 1.0});
    eq_ = declare_equation("der(x) = -x");
    a_ = declare_crossing("a");
    b_ = declare_crossing("b");
    kick_ = declare_time_event("kick");
  }
  void evaluate(Evaluation& e) override {
    e.set(eq_, e.der(x_) + e.x(x_));
    e.positive(a_, flag_ ? 1.0 : -1.0);
    e.positive(b_, flag_ ? -1.0 : 1.0);
  }
  void on_event(EventContext& event) override {
    if (event.is_initial()) event.schedule(kick_, 0.5);
    if (event.fired(kick_) || event.rose(a_) || event.fell(a_)) flag_ = !flag_;
  }
  void reset() override { flag_ = false; }

 private:
  bool flag_ = false;
  Var x_;
  Eq eq_;
  Crossing a_, b_;
  TimeEvent kick_;
};

/// x' = 1 with a time event scheduled once at t0 for `at` and a state event at x = 0.3.
class Timed final : public Model {
 public:
  explicit Timed(std::vector<double> at) : Model("timed"), at_(std::move(at)) {
    x_ = declare_variable({.name = "x"});
    eq_ = declare_equation("der(x) = 1");
    for (std::size_t i = 0; i < at_.size(); ++i) {
      events_.push_back(declare_time_event("te" + std::to_string(i)));
    }
    level_ = declare_crossing("x > 0.3");
  }
  void evaluate(Evaluation& e) override {
    e.set(eq_, e.der(x_) - 1.0);
    e.positive(level_, e.x(x_) - 0.3);
  }
  void on_event(EventContext& event) override {
    if (event.is_initial() && event.pass() == 1) {
      for (std::size_t i = 0; i < at_.size(); ++i) event.schedule(events_[i], at_[i]);
    }
    for (std::size_t i = 0; i < at_.size(); ++i) {
      if (event.fired(events_[i])) fired_at.push_back(event.t());
    }
  }
  void reset() override { fired_at.clear(); }
  std::vector<double> fired_at;

 private:
  std::vector<double> at_;
  Var x_;
  Eq eq_;
  std::vector<TimeEvent> events_;
  Crossing level_;
};

/// x' = 1 from x = 0.25 with sin(2 pi x) watched by a rising-only crossing and termination
/// at x >= 2.5.
class RisingOnly final : public Model {
 public:
  RisingOnly() : Model("rising_only") {
    x_ = declare_variable({.name = "x", .start = 0.25});
    eq_ = declare_equation("der(x) = 1");
    wave_ = declare_crossing("sin(2 pi x) > 0", CrossingDirection::kRising);
    end_ = declare_crossing("x > 2.5");
  }
  void evaluate(Evaluation& e) override {
    e.set(eq_, e.der(x_) - 1.0);
    e.positive(wave_, std::sin(2 * std::numbers::pi * e.x(x_)));
    e.positive(end_, e.x(x_) - 2.5);
  }
  void on_event(EventContext& event) override {
    if (event.rose(end_)) event.terminate("x reached 2.5");
  }

 private:
  Var x_;
  Eq eq_;
  Crossing wave_, end_;
};

}  // namespace

TEST_CASE("two crossings that keep toggling each other hit the iteration limit, both named") {
  Toggling model;
  SimulationOptions options;
  options.stop_s = 1.0;
  const SimulationResult result = simulate(model, options);
  CHECK(result.status.outcome == Outcome::kEventIterationLimit);
  CHECK(result.status.t == 0.5);
  const std::string& m = result.status.message;
  CHECK(m.find("did not settle after 20 passes") != std::string::npos);
  CHECK(m.find("crossings 'a', 'b' kept flipping") != std::string::npos);
  CHECK(m.find("'a': false true false true") != std::string::npos);
  CHECK(m.find("'b': true false true false") != std::string::npos);
  // Partial result: rows up to the event and a final row at the failure time.
  CHECK(result.table.time().back() == 0.5);
}

TEST_CASE("a time event scheduled once fires once at its exact time, also across state events") {
  Timed model({0.75});
  SimulationOptions options;
  options.stop_s = 1.0;
  options.output_interval_s = 0.1;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.ok());
  REQUIRE(model.fired_at.size() == 1);
  CHECK(model.fired_at[0] == 0.75);  // exact: IDA's stop time is set to it
  CHECK(result.statistics.time_events == 1);
  CHECK(result.statistics.state_events == 1);  // x = 0.3 at t = 0.3, before the time event
  std::size_t rows_at_event = 0;
  for (const double t : result.table.time()) rows_at_event += t == 0.75 ? 1 : 0;
  CHECK(rows_at_event == 2);
}

TEST_CASE("time events at the start time and at the stop time are handled once each") {
  Timed model({0.0, 1.0, 0.5});
  SimulationOptions options;
  options.stop_s = 1.0;
  options.output_interval_s = 0.25;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.ok());
  REQUIRE(model.fired_at.size() == 3);
  CHECK(model.fired_at[0] == 0.0);
  CHECK(model.fired_at[1] == 0.5);
  CHECK(model.fired_at[2] == 1.0);
  // The event at t0 belongs to the initial event iteration: one row at t = 0. The events at
  // 0.5 and 1.0 coincide with grid points: the grid row is the left limit, plus a right row.
  std::vector<double> expected = {0.0, 0.25, 0.3, 0.3, 0.5, 0.5, 0.75, 1.0, 1.0};
  REQUIRE(result.table.num_rows() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CHECK(result.table.time(i) == doctest::Approx(expected[i]).epsilon(1e-9));
  }
}

TEST_CASE("a crossing declared rising-only ignores falling crossings; the model can terminate") {
  RisingOnly model;
  SimulationOptions options;
  options.stop_s = 10.0;
  const SimulationResult result = simulate(model, options);
  CHECK(result.status.outcome == Outcome::kStoppedByModel);
  CHECK(result.status.message == "x reached 2.5");
  // x = t + 0.25: sin(2 pi x) falls through 0 at t = 0.25, 1.25, 2.25 (ignored) and rises at
  // t = 0.75 and 1.75; x reaches 2.5 at t = 2.25 (terminal event).
  std::vector<double> times;
  for (const EventRecord& e : result.events) {
    if (e.kind != EventKind::kInitial) times.push_back(e.t);
  }
  REQUIRE(times.size() == 3);
  // Root location: within hysteresis / slope (1e-10 / 2 pi) plus IDA's time tolerance.
  CHECK(times[0] == doctest::Approx(0.75).epsilon(1e-8));
  CHECK(times[1] == doctest::Approx(1.75).epsilon(1e-8));
  CHECK(times[2] == doctest::Approx(2.25).epsilon(1e-8));
  CHECK(result.events.back().kind == EventKind::kTerminal);
  CHECK(result.table.time().back() == times[2]);
}
