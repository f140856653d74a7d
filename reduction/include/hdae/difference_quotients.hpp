// Index reduction for models written for double only (ITI paper, section 2.2): the time
// derivatives of the equations by difference quotients instead of Taylor jets.
//
// hdae::IndexReducedModel needs d^q F_i/dt^q along the curve through (t, x, der_x) that the
// reduced system's slots describe (x_j, x_j', x_j'', ...). A PhysicsModel gives them exactly
// with jets. A model written for double only (any hdae::Model) gives only F itself; this
// adapter evaluates it at the 2M + 1 = 9 points t + m h (m = -4..4) of that curve, Taylor
// polynomials of the slots, and takes the derivatives of the degree-8 polynomial through the
// nine values (central differences of high order):
//
//   d^q F/dt^q (t) = h^-q sum_m w_qm F(t + m h, x(t + m h), der_x(t + m h)),  q <= 3,
//
// exact for equations polynomial of degree <= 8 along the curve (a rod x^2 + y^2 = L^2 is),
// otherwise with a truncation error of order (h / tau)^(9 - q) / 9! for a model whose fastest
// time scale is tau, and a rounding error of order eps |F| / h^q. The default h = 0.05 s keeps
// both small (below 1e-9 relative) for time scales from about 0.1 s up, and IDA's Newton
// iteration free of rounding noise even at a tight nonlinear_convergence_coef; a model with
// faster dynamics needs a smaller step (the constructor's step_s), at the price of more
// rounding in the derivatives of order 2 and 3. The undifferentiated rows (q = 0) are the
// model's own, so the original constraints still hold to the Newton tolerance; only the
// hidden ones carry the difference error.
//
//   hdae::IndexReducedModel reduced(
//       std::make_unique<hdae::DifferenceQuotientModel>(std::make_unique<MyDoubleModel>()));
//
// Models with crossings or time events are refused (as by the index reduction itself).
// Parameters are the wrapped model's, forwarded.
#pragma once

#include <memory>
#include <string_view>

#include "hdae/physics_model.hpp"

namespace hdae {

class DifferenceQuotientModel final : public PhysicsModel {
 public:
  /// ModelError when model is null, declares crossings or time events, or step_s is not
  /// finite and > 0.
  explicit DifferenceQuotientModel(std::unique_ptr<SimulationModel> model, double step_s = 0.05);

  void residuals_of(Equations<double>& e) const override;
  void residuals_of(Equations<Jet1>& e) const override;
  void residuals_of(Equations<Jet2>& e) const override;
  void residuals_of(Equations<Jet3>& e) const override;
  /// ModelError: differences in time give no derivatives in other directions.
  void residuals_of(Equations<DirectedJet1>& e) const override;
  void residuals_of(Equations<DirectedJet2>& e) const override;
  void residuals_of(Equations<DirectedJet3>& e) const override;
  void outputs(Evaluation& e) const override;
  /// The jets are Taylor curves in time here, never other directions.
  [[nodiscard]] bool propagates_jets() const override { return false; }
  void reset() override;
  void parameters_changed() override;

  [[nodiscard]] const SimulationModel& wrapped() const { return *model_; }

 private:
  template <int D>
  void derivatives(Equations<Jet<D>>& e) const;
  [[noreturn]] void refuse_directions() const;

  std::unique_ptr<SimulationModel> model_;
  double step_s_;
};

}  // namespace hdae
