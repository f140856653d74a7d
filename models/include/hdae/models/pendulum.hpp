// Pendulum as an ODE in phi and w (docs/design.md, "The problem class"):
//   der(phi) = w
//   m L^2 der(w) = -m g L sin(phi) - d w
// Outputs: Cartesian position of the bob (x = L sin(phi), y = -L cos(phi)).
// Parameters (set_parameter): L, m, d, g, phi_start, w_start (the fields of
// PendulumParameters).
#pragma once

#include "hdae/model_builder.hpp"

namespace hdae::models {

struct PendulumParameters {
  double length_m = 0.5;
  double mass_kg = 1.0;
  double damping_nms = 0.1;  ///< N m s / rad
  double gravity_mps2 = 9.81;
  double phi0_rad = 1.0471975511965976;  ///< 60 degrees
  double w0_radps = 0.0;
};

class Pendulum final : public Model {
 public:
  explicit Pendulum(PendulumParameters p = {});
  void evaluate(Evaluation& e) override;
  void parameters_changed() override;

  [[nodiscard]] const PendulumParameters& parameters() const { return p_; }

 private:
  /// The bob's position (x, y) at angle phi, only when outputs are asked for.
  void set_position(Evaluation& e, double phi) const;

  PendulumParameters p_;
  Var phi_, w_;
  Eq kinematics_, dynamics_;
  Out x_, y_;
};

}  // namespace hdae::models
