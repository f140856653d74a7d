// Simulator::advance_to_event (hdae/simulator.hpp): it returns at each event instant with the
// right limits there, and a run advanced from event to event is the run of one simulate() call,
// bit for bit.
#include <cmath>
#include <cstring>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/models/bouncing_ball.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

SimulationOptions ball_run() {
  SimulationOptions options;
  options.stop_s = 2.0;
  options.rel_tol = 1e-8;
  return options;
}

}  // namespace

TEST_CASE("advance_to_event stops at each impact of the ball with the rebound velocity") {
  models::BouncingBall ball;
  Simulator simulator(ball, ball_run());
  simulator.initialize();
  std::vector<double> stops;
  while (simulator.status().outcome == Outcome::kRunning) {
    simulator.advance_to_event(2.0);
    stops.push_back(simulator.time());
    if (stops.size() == 1) {
      // Free fall from h0 = 1 m: the impact at t1 = sqrt(2 h0 / g), where v = -g t1 becomes
      // e g t1 (e = 0.7, g = 9.81 m/s^2: models/include/hdae/models/bouncing_ball.hpp). At
      // rel_tol 1e-8 on a time of 0.45 s and speeds of 3 m/s, 1e-7 s and 1e-6 m/s leave room
      // for the global error.
      const double t1 = std::sqrt(2.0 / 9.81);
      CHECK(std::abs(simulator.time() - t1) < 1e-7);
      CHECK(std::abs(simulator.state()[1] - 0.7 * 9.81 * t1) < 1e-6);
      CHECK(std::abs(simulator.state()[0]) < 1e-7);
    }
  }
  // Each impact's flight lasts e times the one before: t_(k+1) - t_k = 2 e^k g t1 / g.
  REQUIRE(stops.size() >= 4);
  const double t1 = std::sqrt(2.0 / 9.81);
  CHECK(std::abs(stops[1] - t1 * (1.0 + 2.0 * 0.7)) < 1e-6);
  CHECK(stops.back() == 2.0);
  const SimulationResult sliced = simulator.take_result();
  models::BouncingBall reference_ball;
  const SimulationResult reference = simulate(reference_ball, ball_run());
  // One stop per event after t0, and the run as one call gives, bit for bit.
  REQUIRE(reference.events.size() == sliced.events.size());
  CHECK(stops.size() == reference.events.size());  // the events after t0, and the stop time
  REQUIRE(reference.table.num_rows() == sliced.table.num_rows());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < reference.table.num_rows(); ++i) {
    if (!same_bits(reference.table.time(i), sliced.table.time(i))) ++differing;
    for (std::size_t j = 0; j < reference.table.num_columns(); ++j) {
      if (!same_bits(reference.table.value(i, j), sliced.table.value(i, j))) ++differing;
    }
  }
  CHECK(differing == 0);
  for (std::size_t k = 1; k < reference.events.size(); ++k) {
    CHECK(same_bits(reference.events[k].t, stops[k - 1]));
  }
}
