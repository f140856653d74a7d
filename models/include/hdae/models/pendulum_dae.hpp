// Pendulum as a DAE in the stabilised index-1 form of Gear, Gupta and Leimkuhler (GGL), as in
// ModiaMath's PendulumDAE (Cellier's lecture, paper 001, explains why the Cartesian index-3
// form needs this treatment). A point mass m on a massless rod of length L, Cartesian
// position (x, y), velocity (vx, vy); the rod force lambda and the GGL multiplier mue are the
// derivatives of the integral states lambda_int and mue_int (docs/design.md, "The problem class"),
// so the projection of an inconsistent start onto the constraints is an ordinary jump solve:
//   der(x) = vx - x mue,  der(y) = vy - y mue                     f_d
//   m der(vx) = -x lambda - d vx,  m der(vy) = -y lambda - m g - d vy   f_d
//   0 = (x^2 + y^2 - L^2)/2                                      f_c (position)
//   0 = x vx + y vy                                              f_c (velocity)
// The published case (ModiaMath's PendulumDAE and its test) starts off the circle at
// x = L/2, y = -0.5, vx = vy = 1 with L = m = 1, g = 9.81, no damping. With fix_x_and_vx the
// start values of x and vx are fixed (ITI paper section 4) and y, vy are moved instead:
// y = -sqrt(3)/2, vy = 1/sqrt(3) at t0^+.
//
// Parameters (set_parameter): L, m, g, d, x_start, y_start, vx_start, vy_start (the numeric
// fields of PendulumDaeParameters). fix_x_and_vx is a constructor argument: it says how the
// start is projected, not a physical quantity.
#pragma once

#include "hdae/model_builder.hpp"

namespace hdae::models {

struct PendulumDaeParameters {
  double length_m = 1.0;
  double mass_kg = 1.0;
  double gravity_mps2 = 9.81;
  double damping_nspm = 0.0;  ///< d, N s / m, >= 0
  double x_start_m = 0.5;
  double y_start_m = -0.5;
  double vx_start_mps = 1.0;
  double vy_start_mps = 1.0;
  bool fix_x_and_vx = false;  ///< keep x and vx at their start values at t0
};

class PendulumDae final : public Model {
 public:
  explicit PendulumDae(PendulumDaeParameters p = {});
  void evaluate(Evaluation& e) override;
  void parameters_changed() override;

  [[nodiscard]] const PendulumDaeParameters& parameters() const { return p_; }

 private:
  PendulumDaeParameters p_;
  Var x_, y_, vx_, vy_, lambda_int_, mue_int_;
  Eq kinematics_x_, kinematics_y_, momentum_x_, momentum_y_, position_, velocity_;
  Out energy_;
};

}  // namespace hdae::models
