// hdae::Simulator advanced step by step (hdae/simulator.hpp): any slicing of a run into
// advance_to calls gives the rows, events and counters of one simulate() call, bit for bit,
// because IDA is never stopped at a slice boundary (the state there is interpolated from its
// step); row sinks and event observers receive what the result holds.
#include <cmath>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/models/bouncing_ball.hpp"
#include "hdae/models/ideal_clutch.hpp"
#include "hdae/row_sink.hpp"
#include "hdae/simulator.hpp"
#include "support/test_models.hpp"

using namespace hdae;

namespace {

/// Byte-wise equality of two doubles (NaN == NaN, +0 != -0): "bit for bit".
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void check_identical(const SimulationResult& a, const SimulationResult& b) {
  REQUIRE(a.table.num_rows() == b.table.num_rows());
  REQUIRE(a.table.num_columns() == b.table.num_columns());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < a.table.num_rows(); ++i) {
    if (!same_bits(a.table.time(i), b.table.time(i))) ++differing;
    const auto ra = a.table.row(i);
    const auto rb = b.table.row(i);
    for (std::size_t j = 0; j < ra.size(); ++j) {
      if (!same_bits(ra[j], rb[j])) ++differing;
    }
  }
  CHECK(differing == 0);
  REQUIRE(a.events.size() == b.events.size());
  for (std::size_t k = 0; k < a.events.size(); ++k) {
    CHECK(same_bits(a.events[k].t, b.events[k].t));
    CHECK(a.events[k].iterations == b.events[k].iterations);
    REQUIRE(a.events[k].jumps.size() == b.events[k].jumps.size());
    for (std::size_t j = 0; j < a.events[k].jumps.size(); ++j) {
      CHECK(same_bits(a.events[k].jumps[j].after, b.events[k].jumps[j].after));
    }
  }
  CHECK(a.status.outcome == b.status.outcome);
  CHECK(a.statistics.steps == b.statistics.steps);
  CHECK(a.statistics.residual_evaluations == b.statistics.residual_evaluations);
  CHECK(a.statistics.jacobian_evaluations == b.statistics.jacobian_evaluations);
  CHECK(a.statistics.root_function_evaluations == b.statistics.root_function_evaluations);
}

/// The run in `slices` advance_to calls of equal length, with slice ends that are no output
/// points (a third of a grid spacing off), so the state there is interpolated.
SimulationResult run_sliced(SimulationModel& model, const SimulationOptions& options, int slices) {
  Simulator simulator(model, options);
  simulator.initialize();
  const double span = options.stop_s - options.start_s;
  for (int k = 1; k < slices; ++k) {
    const double t = options.start_s + span * (static_cast<double>(k) - 1.0 / 3.0) / slices;
    const SimulationStatus& status = simulator.advance_to(t);
    REQUIRE(status.outcome == Outcome::kRunning);
    CHECK(simulator.time() == t);
  }
  simulator.advance_to(options.stop_s);
  return simulator.take_result();
}

/// One simulate() call of a fresh ModelType(args...) with the options, then the same run in
/// each number of slices, which must give the same result bit for bit; returns the one call.
template <class ModelType, class... Args>
SimulationResult check_slices_with(const SimulationOptions& options,
                                   std::initializer_list<int> slice_counts, Args... args) {
  ModelType reference_model(args...);
  SimulationResult reference = simulate(reference_model, options);
  REQUIRE(reference.status.outcome == Outcome::kReachedStopTime);
  for (const int slices : slice_counts) {
    CAPTURE(slices);
    ModelType model(args...);
    check_identical(reference, run_sliced(model, options, slices));
  }
  return reference;
}

/// check_slices_with to stop_s at rel_tol 1e-8.
template <class ModelType, class... Args>
SimulationResult check_slices(double stop_s, std::initializer_list<int> slice_counts,
                              Args... args) {
  SimulationOptions options;
  options.stop_s = stop_s;
  options.rel_tol = 1e-8;
  return check_slices_with<ModelType>(options, slice_counts, args...);
}

}  // namespace

TEST_CASE("a run advanced in 1, 7 and 100 slices equals one simulate() call bit for bit") {
  // The bouncing ball: 18 state events (restitution 0.7) and its rest rule, over 3 s.
  const SimulationResult reference = check_slices<models::BouncingBall>(3.0, {1, 7, 100});
  CHECK(reference.statistics.state_events >= 10);
}

TEST_CASE("slices through time events and an initial jump give the rows of one call") {
  // The ideal clutch: a jump at t0 (both limits stored), time events at 100 s and 300 s.
  const SimulationResult reference = check_slices<models::IdealClutch>(500.0, {7, 100});
  CHECK(reference.statistics.time_events == 2);
}

TEST_CASE("slices through time events that IDA goes on through give the rows of one call") {
  // Pulses of an input 0 every 0.25 s: time events that change nothing IDA sees, after which
  // IDA goes on without a restart; with 100 slices, slice ends fall inside the steps after them.
  const SimulationResult reference = check_slices<test::PulsedLag>(3.0, {7, 100}, 0.0);
  CHECK(reference.statistics.time_events == 12);
  CHECK(reference.statistics.restarts == 1);
  // The same pulses with an input of 1 restart IDA at each event.
  const SimulationResult switched = check_slices<test::PulsedLag>(3.0, {7, 100}, 1.0);
  CHECK(switched.statistics.restarts == 12);
}

TEST_CASE("slices of a run that keeps IDA's order across events give the rows of one call") {
  // RestartStep::kKeepOrder rewrites IDA's history at every impact of the ball
  // (sundials/history_shift.hpp) instead of restarting it.
  SimulationOptions options;
  options.stop_s = 3.0;
  options.rel_tol = 1e-8;
  options.restart_step = RestartStep::kKeepOrder;
  const SimulationResult reference = check_slices_with<models::BouncingBall>(options, {7, 100});
  CHECK(reference.statistics.state_events >= 10);
}

TEST_CASE("the state between output points is IDA's interpolant: the ball's free fall") {
  // Before the first impact the ball falls freely from h0 = 1 m: h = 1 - g t^2 / 2 with
  // g = 9.81; IDA's interpolant matches the closed form to the integration tolerance (100
  // rel_tol covers the accumulated local errors of a few dozen steps).
  models::BouncingBall model;
  SimulationOptions options;
  options.stop_s = 3.0;
  options.rel_tol = 1e-8;
  Simulator simulator(model, options);
  REQUIRE(simulator.initialize().outcome == Outcome::kRunning);
  const double t = 0.123456;
  REQUIRE(simulator.advance_to(t).outcome == Outcome::kRunning);
  CHECK(simulator.time() == t);
  const double h = simulator.state()[0];
  CHECK(std::abs(h - (1.0 - 9.81 * t * t / 2.0)) < 100 * 1e-8);
  CHECK(std::abs(simulator.derivatives()[0] - (-9.81 * t)) < 100 * 1e-8);
}

TEST_CASE("row sinks and event observers receive the rows and events of the result") {
  struct Counter final : RowSink {
    std::size_t columns = 0;
    std::vector<double> times;
    bool ended = false;
    void begin(const std::vector<ColumnInfo>& c) override { columns = c.size(); }
    void append(double t, std::span<const double> values) override {
      CHECK(values.size() == columns);
      times.push_back(t);
    }
    void end() override { ended = true; }
  } sink;
  struct Log final : EventObserver {
    std::vector<double> times;
    void on_event(const EventRecord& e) override { times.push_back(e.t); }
  } log;
  models::BouncingBall model;
  SimulationOptions options;
  options.stop_s = 3.0;
  Simulator simulator(model, options);
  simulator.add_row_sink(sink);
  simulator.add_event_observer(log);
  simulator.advance_to(1.5);
  CHECK_FALSE(sink.ended);
  simulator.advance_to(3.0);
  CHECK(sink.ended);
  const SimulationResult result = simulator.take_result();
  CHECK(sink.times == result.table.time());
  REQUIRE(log.times.size() == result.events.size());
  for (std::size_t k = 0; k < log.times.size(); ++k) CHECK(log.times[k] == result.events[k].t);
  // Sinks are fixed once the run has started.
  CHECK_THROWS_AS(simulator.add_row_sink(sink), std::logic_error);
}

TEST_CASE("advance_to rejects times outside [time(), stop_s] and a default status reads not run") {
  models::BouncingBall model;
  SimulationOptions options;
  options.stop_s = 3.0;
  Simulator simulator(model, options);
  CHECK(simulator.status().outcome == Outcome::kNotRun);
  CHECK(SimulationStatus{}.outcome == Outcome::kNotRun);
  CHECK_FALSE(SimulationStatus{}.ok());
  simulator.advance_to(1.0);
  CHECK_THROWS_WITH_AS(simulator.advance_to(0.5),
                       "Simulator::advance_to: t = 0.5 is outside [1, 3] (the time reached and "
                       "stop_s)",
                       std::invalid_argument);
  CHECK_THROWS_AS(simulator.advance_to(3.5), std::invalid_argument);
  CHECK(simulator.advance_to(3.0).outcome == Outcome::kReachedStopTime);
  // Once ended, further advances return the same status.
  CHECK(simulator.advance_to(3.0).outcome == Outcome::kReachedStopTime);
}
