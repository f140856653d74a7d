// The event iteration loop, time events, root directions and termination.
#include <cmath>
#include <numbers>
#include <string>

#include <doctest/doctest.h>

#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// x' = -x plus two crossings that drive each other: crossing a watches the level qa, b the
/// level qb; when a flips, the handler flips qb (b's condition), and when b flips it flips qa
/// (a's condition). A time event at 0.5 flips qa once, and from then on they never settle.
class MutualToggle final : public Model {
 public:
  MutualToggle() : Model("mutual_toggle") {
    x_ = declare_variable({.name = "x", .start = 1.0});
    eq_ = declare_equation("der(x) = -x");
    a_ = declare_crossing("a");
    b_ = declare_crossing("b");
    kick_ = declare_time_event("kick");
  }
  void evaluate(Evaluation& e) override {
    e.set(eq_, e.der(x_) + e.x(x_));
    e.positive(a_, qa_);
    e.positive(b_, qb_);
  }
  void on_event(EventContext& event) override {
    if (event.is_initial()) event.schedule(kick_, 0.5);
    if (event.fired(kick_)) qa_ = -qa_;
    if (event.rose(a_) || event.fell(a_)) qb_ = -qb_;
    if (event.rose(b_) || event.fell(b_)) qa_ = -qa_;
  }
  void reset() override { qa_ = qb_ = -1.0; }

 private:
  double qa_ = -1.0, qb_ = -1.0;
  Var x_;
  Eq eq_;
  Crossing a_, b_;
  TimeEvent kick_;
};

/// Free-running clock s' = 1 and y' = 0 from y = -1 until s = 1 (crossing "s > 1"), where the
/// handler turns y's row into the constraint y = s + 1. The handler never touches y; the
/// jump solve moves it from -1 to 2, across the zero of crossing "y > 0". When the handler
/// learns of that crossing (rose) it starts z' = 1, so z(t) = t - 1 only if the crossings
/// were re-checked after the jump at t = 1.
class JumpAcrossCrossing final : public Model {
 public:
  JumpAcrossCrossing() : Model("jump_across_crossing") {
    s_ = declare_variable({.name = "s"});
    y_ = declare_variable({.name = "y", .start = -1.0});
    z_ = declare_variable({.name = "z"});
    clock_ = declare_equation("der(s) = 1");
    y_row_ = declare_equation("der(y) = 0 (before s = 1) or y = s + 1 (after)");
    z_row_ = declare_equation("der(z) = y_seen_positive ? 1 : 0");
    switch_ = declare_crossing("s > 1");
    positive_ = declare_crossing("y > 0");
  }
  void evaluate(Evaluation& e) override {
    e.positive(switch_, e.x(s_) - 1.0);
    e.positive(positive_, e.x(y_));
    e.set(clock_, e.der(s_) - 1.0);
    e.set(y_row_, constrained_ ? e.x(y_) - (e.x(s_) + 1.0) : e.der(y_));
    e.set(z_row_, e.der(z_) - (y_seen_positive_ ? 1.0 : 0.0));
  }
  void on_event(EventContext& event) override {
    if (event.rose(switch_)) {
      constrained_ = true;
      event.set_row_kind(y_row_, RowKind::kConstraint);
    }
    if (event.rose(positive_)) {
      y_seen_positive_ = true;
      seen_in_pass = event.pass();
    }
  }
  void reset() override {
    constrained_ = y_seen_positive_ = false;
    seen_in_pass = 0;
  }
  int seen_in_pass = 0;

 private:
  bool constrained_ = false, y_seen_positive_ = false;
  Var s_, y_, z_;
  Eq clock_, y_row_, z_row_;
  Crossing switch_, positive_;
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

/// x' = 1 with time events "late" (0.5) and "cancel late" (0.3) scheduled at t0; the second
/// cancels the first.
class Cancelling final : public Model {
 public:
  Cancelling() : Model("cancelling") {
    x_ = declare_variable({.name = "x"});
    eq_ = declare_equation("der(x) = 1");
    late_ = declare_time_event("late");
    canceller_ = declare_time_event("cancel late");
  }
  void evaluate(Evaluation& e) override { e.set(eq_, e.der(x_) - 1.0); }
  void on_event(EventContext& event) override {
    if (event.is_initial() && event.pass() == 1) {
      event.schedule(late_, 0.5);
      event.schedule(canceller_, 0.3);
    }
    if (event.fired(canceller_)) event.cancel(late_);
    if (event.fired(late_)) late_fired = true;
  }
  void reset() override { late_fired = false; }
  bool late_fired = false;

 private:
  Var x_;
  Eq eq_;
  TimeEvent late_, canceller_;
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

TEST_CASE("two crossings whose handlers flip each other's condition hit the iteration limit") {
  MutualToggle model;
  SimulationOptions options;
  options.stop_s = 1.0;
  const SimulationResult result = simulate(model, options);
  CHECK(result.status.outcome == Outcome::kEventIterationLimit);
  CHECK(result.status.t == 0.5);
  // Passes at t = 0.5 (qa, qb start at -1): pass 1 sees a, b false and the kick flips qa;
  // pass 2: a rose, the handler flips qb; pass 3: b rose, it flips qa; pass 4: a fell, qb
  // flips; pass 5: b fell, qa flips; pass 6 is pass 2 again. So a is true in passes
  // 2, 3 (mod 4) and b in passes 3, 0 (mod 4): a cycle of 4 passes. The limit of 20 passes
  // is noticed when pass 21 still shows a flip.
  const std::string& m = result.status.message;
  CHECK(m.find("did not settle after 20 passes: crossings 'a', 'b' kept flipping in a cycle of 4 "
               "passes") != std::string::npos);
  std::string a = "'a':", b = "'b':";
  for (int pass = 1; pass <= 21; ++pass) {
    a += pass % 4 == 2 || pass % 4 == 3 ? " true" : " false";
    b += pass % 4 == 3 || pass % 4 == 0 ? " true" : " false";
  }
  CHECK(m.find("values per pass: " + a + "; " + b) != std::string::npos);
  // The event log holds the event with the passes run (the model was called 20 times).
  REQUIRE(!result.events.empty());
  CHECK(result.events.back().iterations == 20);
  // Partial result: rows up to the event and a final row at the failure time.
  CHECK(result.table.time().back() == 0.5);
}

TEST_CASE("a model that asks for another pass forever is named as the cause, not a crossing") {
  // x' = -x whose handler calls request_iteration() in every pass; no crossing is involved.
  class Restless final : public Model {
   public:
    Restless() : Model("restless") {
      x_ = declare_variable({.name = "x", .start = 1.0});
      eq_ = declare_equation("der(x) = -x");
    }
    void evaluate(Evaluation& e) override { e.set(eq_, e.der(x_) + e.x(x_)); }
    void on_event(EventContext& event) override { event.request_iteration(); }

   private:
    Var x_;
    Eq eq_;
  };
  Restless model;
  const SimulationResult result = simulate(model, SimulationOptions{});
  CHECK(result.status.outcome == Outcome::kEventIterationLimit);
  CHECK(result.status.t == 0.0);
  CHECK(result.status.message ==
        "event iteration at t = 0 did not settle after 20 passes: no crossing flipped in the last "
        "passes; the model kept asking for another pass (request_iteration) or scheduling time "
        "events for this instant");
}

TEST_CASE("a crossing moved across zero by the jump solve alone is caught by the re-check") {
  JumpAcrossCrossing model;
  SimulationOptions options;
  options.stop_s = 3.0;
  options.output_interval_s = 0.5;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  // One state event (s = 1 at t = 1) with two handler passes: the first switches the row,
  // the jump moves y from -1 to s + 1 = 2, and the re-check pass finds "y > 0" rose.
  CHECK(result.statistics.state_events == 1);
  CHECK(model.seen_in_pass == 2);
  const EventRecord* event = nullptr;
  for (const EventRecord& e : result.events) {
    if (e.kind == EventKind::kState) event = &e;
  }
  REQUIRE(event != nullptr);
  CHECK(event->t == doctest::Approx(1.0).epsilon(1e-9));  // s = t, root to IDA's tolerance
  CHECK(event->iterations == 2);
  REQUIRE(event->crossings.size() == 2);
  CHECK(event->crossings[0].crossing == "s > 1");
  CHECK(event->crossings[1].crossing == "y > 0");
  CHECK(event->crossings[1].direction == CrossingDirection::kRising);
  REQUIRE(event->jumps.size() == 1);
  CHECK(event->jumps[0].variable == "y");
  CHECK(event->jumps[0].before == -1.0);
  CHECK(event->jumps[0].after == doctest::Approx(2.0).epsilon(1e-9));
  // z' = 1 from t = 1 on: z(3) = 2, exact for BDF on a linear solution up to the Newton
  // tolerance (1e-6 relative is IDA's rel_tol).
  CHECK(result.table.final_value("z") == doctest::Approx(2.0).epsilon(1e-6));
  CHECK(result.table.final_value("y") == doctest::Approx(4.0).epsilon(1e-6));
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

TEST_CASE("a cancelled time event never fires") {
  Cancelling model;
  SimulationOptions options;
  options.stop_s = 1.0;
  options.output_interval_s = 0.25;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.ok());
  CHECK_FALSE(model.late_fired);
  CHECK(result.statistics.time_events == 1);  // only "cancel late", at 0.3
  REQUIRE(result.events.size() == 2);         // the initial event and the one at 0.3
  CHECK(result.events[1].t == 0.3);
  REQUIRE(result.events[1].time_events.size() == 1);
  CHECK(result.events[1].time_events[0] == "cancel late");
  // No event rows at 0.5: it is an ordinary grid point, stored once.
  std::size_t rows_at_half = 0;
  for (const double t : result.table.time()) rows_at_half += t == 0.5 ? 1 : 0;
  CHECK(rows_at_half == 1);
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

TEST_CASE("a crossing declared rising-only ignores falling crossings and the model can terminate") {
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
  // Root location: IDA's time tolerance plus the trajectory's error over the slope.
  CHECK(times[0] == doctest::Approx(0.75).epsilon(1e-8));
  CHECK(times[1] == doctest::Approx(1.75).epsilon(1e-8));
  CHECK(times[2] == doctest::Approx(2.25).epsilon(1e-8));
  CHECK(result.events.back().kind == EventKind::kTerminal);
  CHECK(result.table.time().back() == times[2]);
}
