// The closed-form solution of the simple-state-events model (models/simple_state_events.hpp):
// a damped spring-mass whose force switches between 0 (s > 0) and f_max (s <= 0). Piece by
// piece it is the underdamped oscillation m s'' + d s' + k s = F; each event starts the next
// piece from (0, v). Shared by the reference check (test_references.cpp) and the perturbed
// regression run (test_regression.cpp).
#pragma once

#include <cmath>
#include <vector>

namespace hdae::test {

/// m s'' + d s' + k s = F from (s0, v0) at tau = 0, closed form (underdamped).
struct DampedOscillator {
  double m, d, k, force, s0, v0;

  [[nodiscard]] double s(double tau) const {
    const double alpha = d / (2 * m);
    const double omega = std::sqrt(k / m - alpha * alpha);
    const double a = s0 - force / k;
    const double b = (v0 + alpha * a) / omega;
    return force / k +
           std::exp(-alpha * tau) * (a * std::cos(omega * tau) + b * std::sin(omega * tau));
  }
  [[nodiscard]] double v(double tau) const {
    const double alpha = d / (2 * m);
    const double omega = std::sqrt(k / m - alpha * alpha);
    const double a = s0 - force / k;
    const double b = (v0 + alpha * a) / omega;
    return std::exp(-alpha * tau) * ((b * omega - alpha * a) * std::cos(omega * tau) -
                                     (a * omega + alpha * b) * std::sin(omega * tau));
  }
  /// First tau > 0 where s crosses zero: a scan in steps of 1e-3 s, then bisection.
  [[nodiscard]] double next_zero() const {
    const double sign = s0 != 0.0 ? s0 : v0;  // the sign of s just after tau = 0
    const double step = 1e-3;
    double lo = 0.0;
    while (s(lo + step) * sign > 0) lo += step;
    double hi = lo + step;
    for (int i = 0; i < 100; ++i) {
      const double mid = 0.5 * (lo + hi);
      (s(mid) * sign > 0 ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
  }
};

/// The event times up to stop_s of the simple-state-events model with m = 1 kg, k = 1 N/m,
/// d = 0.1 N s/m, s(0) = 2 m, v(0) = 0 (the model's defaults) and the switched force f_max.
inline std::vector<double> switched_oscillator_events(double force_max_n, double stop_s) {
  std::vector<double> events;
  DampedOscillator piece{1.0, 0.1, 1.0, 0.0, 2.0, 0.0};
  double t0 = 0.0;
  while (true) {
    const double tau = piece.next_zero();
    if (t0 + tau > stop_s) return events;
    events.push_back(t0 + tau);
    const double v = piece.v(tau);
    t0 += tau;
    piece = DampedOscillator{1.0, 0.1, 1.0, v < 0 ? force_max_n : 0.0, 0.0, v};
  }
}

}  // namespace hdae::test
