// Rotation of a free rigid body in 3D with a quaternion (ModiaMath's FreeBodyRotation; the
// ModiaMath overview, paper 004, cites it as the case where an ODE would need dynamic state
// selection). Q = (Q1, Q2, Q3, Q4), Q4 the scalar part, describes the orientation; w is the
// angular velocity in body coordinates, I the principal inertias. The four quaternion
// components are redundant (|Q| = 1), so the kinematics carry a multiplier mue = der(mue_int)
// that keeps Q on the unit sphere and the normalisation is the f_c row (stabilised index-1
// form, as for the GGL pendulum):
//   der(Q) = 1/2 Q (x) (w, 0) - mue Q                       f_d (4 rows; (x) Hamilton product)
//   I der(w) + w x (I w) = u(t)                             f_d (Euler's equations)
//   0 = Q.Q - 1                                             f_c
// with the torque u_i = A_i sin(2 pi f_i t + phase_i). For |Q| = 1, d(Q.Q)/dt = -2 mue, so mue
// stays 0 along the solution; at t0 an unnormalised start Q0 is projected: the jump solve
// gives Q0^+ = Q0/|Q0| (the f_d rows only allow a jump along Q_m). The defaults are
// ModiaMath's case: I = diag(1, 2, 3), A = (3, 4, 5), f = (0.3, 0.2, 0.1) Hz,
// phase = (0, 30, 60) deg, Q0 = (0.1, 0.5, 0, 1) (unnormalised), w0 = 0.
//
// Parameters (set_parameter): I1..I3, A1..A3, f1..f3, phase1..phase3, Q1_start..Q4_start (not
// all zero), w1_start..w3_start (the fields of FreeBodyRotationParameters).
#pragma once

#include <array>

#include "hdae/model_builder.hpp"

namespace hdae::models {

struct FreeBodyRotationParameters {
  std::array<double, 3> inertia_kgm2 = {1.0, 2.0, 3.0};  ///< principal inertias, > 0
  std::array<double, 3> torque_amplitude_nm = {3.0, 4.0, 5.0};
  std::array<double, 3> torque_frequency_hz = {0.3, 0.2, 0.1};
  std::array<double, 3> torque_phase_rad = {0.0, 0.5235987755982988, 1.0471975511965976};
  std::array<double, 4> q_start = {0.1, 0.5, 0.0, 1.0};  ///< need not be normalised; != 0
  std::array<double, 3> w_start_radps = {0.0, 0.0, 0.0};
};

class FreeBodyRotation final : public Model {
 public:
  explicit FreeBodyRotation(FreeBodyRotationParameters p = {});
  void evaluate(Evaluation& e) override;
  void parameters_changed() override;

  [[nodiscard]] const FreeBodyRotationParameters& parameters() const { return p_; }

 private:
  FreeBodyRotationParameters p_;
  std::array<Var, 4> q_;
  std::array<Var, 3> w_;
  Var mue_int_;
  std::array<Eq, 4> kinematics_;
  std::array<Eq, 3> euler_;
  Eq normalisation_;
  Out norm_;
};

}  // namespace hdae::models
