// Which integrator an explicit ODE should be on under IntegrationMethod::kAuto (docs/design.md,
// "Integrators"), as LSODA chooses between Adams and BDF by what each would cost. Over windows
// of kWindow steps (after kWarmUp steps that let a fresh integrator climb to its step size) the
// check measures the cost per simulated second, in calls of f plus, for BDF, its dense
// factorisations (n^2 / 30 calls each: n^3 / 3 flops against about 10 n for one call of f).
// On the explicit pair stiffness is suspected when a window's mean step h meets, with rho the
// largest |eigenvalue| of df/dx (from power iterations, spectral_radius), h rho >= 0.3 S (S the
// pair's stability interval: the pair's error control settles its steps below the boundary
// itself, docs/design.md), or h rho >= S / 10 while a fifth of its steps fail the error test
// (its step-size control oscillates there). Then BDF is
// tried for a window: it stays when it costs less than half the pair's cost per second, and
// hands back otherwise, the next trial waiting twice as many windows as the last. On BDF the
// pair is taken again when h rho <= S / 2, where it could take twice BDF's step stably.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "sundials/ode_integrator.hpp"

namespace hdae::detail {

class StiffnessCheck {
 public:
  static constexpr long kWarmUp = 20;
  static constexpr long kWindow = 40;

  /// Where the integrator stands after a step: its method, time and running totals.
  struct Step {
    sundials::OdeMethod method;
    double t = 0.0;
    double cost = 0.0;    ///< calls of f, with factorisations counted as calls
    long rejections = 0;  ///< error-test failures
  };

  /// The integrator was restarted or replaced: the windows begin anew after a warm-up.
  void restarted() { steps_ = 0; }
  /// After a step: the method to move to, or empty. rho() estimates the spectral radius; it is
  /// called at the end of a window only. boundary: the pair's S.
  [[nodiscard]] std::optional<sundials::OdeMethod> after_step(const Step& s, double boundary,
                                                              const std::function<double()>& rho);

  /// rho at (t, y), measured in the norm of the error weights w.
  [[nodiscard]] double spectral_radius(sundials::OdeProblem& f, double t, std::span<const double> y,
                                       std::span<const double> w);

 private:
  [[nodiscard]] std::optional<sundials::OdeMethod> on_pair(double h, double rejected,
                                                           double boundary,
                                                           const std::function<double()>& rho);
  [[nodiscard]] std::optional<sundials::OdeMethod> on_bdf(double h, double rate, double boundary,
                                                          const std::function<double()>& rho);

  long steps_ = 0;
  Step window_start_{};
  double pair_rate_ = 0.0;  ///< the pair's cost per second in its last window
  bool trial_ = false;      ///< BDF is on trial
  long wait_ = 0;           ///< windows before the next trial
  long backoff_ = 0;        ///< the wait after the last failed trial
  std::vector<double> v_;   ///< the last power iterate: the next estimate starts from it
  std::vector<double> y_, f0_, f1_;
};

}  // namespace hdae::detail
