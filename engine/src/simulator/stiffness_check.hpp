// Whether an explicit ODE is stiff where it stands, for IntegrationMethod::kAuto (docs/design.md,
// "Integrators"): as LSODA does, the method follows the problem. An explicit pair whose steps
// h meet h rho >= its stability boundary S (rho the largest |eigenvalue| of df/dx) is held by
// stability, not accuracy, and BDF's steps are not; BDF whose steps are short enough that the
// pair could take twice them stably costs more per step than the pair would. rho comes from a
// few power iterations of directional differences of f at the step's end, every kCheckEvery
// steps, each iteration one call of f.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "sundials/ode_integrator.hpp"

namespace hdae::detail {

class StiffnessCheck {
 public:
  /// Steps between two estimates: a few calls of f every so many steps cost a few percent.
  static constexpr long kCheckEvery = 40;

  /// Counts a step; true every kCheckEvery-th.
  [[nodiscard]] bool count_step() {
    if (++steps_ < kCheckEvery) return false;
    steps_ = 0;
    return true;
  }
  /// A new problem or mode: the count and the warm start begin anew.
  void reset() {
    steps_ = 0;
    v_.clear();
  }

  /// rho at (t, y), measured in the norm of the error weights w.
  [[nodiscard]] double spectral_radius(sundials::OdeProblem& f, double t, std::span<const double> y,
                                       std::span<const double> w);

  /// The method for the next steps: kBdf when the pair's last step h meets h rho >= 0.7 S
  /// (the pair runs into its boundary only when stability holds it), kErk when BDF's meets
  /// h rho <= S / 2; the current one otherwise (the gap keeps the choice from flapping).
  [[nodiscard]] static sundials::OdeMethod choose(sundials::OdeMethod current, double h, double rho,
                                                  double boundary);

 private:
  long steps_ = 0;
  std::vector<double> v_;  ///< the last iterate: the next estimate starts from it
  std::vector<double> y_, f0_, f1_;
};

}  // namespace hdae::detail
