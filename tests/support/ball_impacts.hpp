// The bouncing ball's impact times (hdae::models::BouncingBall) from elementary kinematics,
// and the state-event times of a run, for the tests that compare the two.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "hdae/models/bouncing_ball.hpp"
#include "hdae/result.hpp"

namespace hdae::test {

/// t_1 ... t_count. Free fall from h0: t1 = sqrt(2 h0 / g), impact speed v1 = g t1. The rebound
/// after impact k leaves at e^k v1 and lands again after the flight time 2 e^k v1 / g (the
/// time to rise to the apex and fall back), so t_n = t1 + sum_{k=1}^{n-1} 2 e^k v1 / g.
inline std::vector<double> ball_impact_times(const models::BouncingBallParameters& p,
                                             std::size_t count) {
  const double g = p.gravity_mps2;
  const double t1 = std::sqrt(2 * p.h0_m / g);
  const double v1 = g * t1;
  std::vector<double> times;
  double t_n = t1;
  for (std::size_t k = 0; k < count; ++k) {
    if (k > 0) t_n += 2 * std::pow(p.restitution, static_cast<double>(k)) * v1 / g;
    times.push_back(t_n);
  }
  return times;
}

/// The times of a run's state events, in order.
inline std::vector<double> state_event_times(const SimulationResult& result) {
  std::vector<double> times;
  for (const EventRecord& ev : result.events) {
    if (ev.kind == EventKind::kState) times.push_back(ev.t);
  }
  return times;
}

/// |t_n of the run - t_n of the analytic solution| for each state event of the run, in order.
inline std::vector<double> impact_time_errors(const models::BouncingBallParameters& p,
                                              const SimulationResult& result) {
  std::vector<double> errors = state_event_times(result);
  const std::vector<double> exact = ball_impact_times(p, errors.size());
  for (std::size_t k = 0; k < errors.size(); ++k) errors[k] = std::abs(errors[k] - exact[k]);
  return errors;
}

}  // namespace hdae::test
