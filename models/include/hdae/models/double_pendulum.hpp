// The double pendulum in two forms with the same physics: two point masses m1, m2, a massless
// rod of length L1 from the pivot (the origin) to bob 1 and one of length L2 from bob 1 to
// bob 2, gravity g along -y, no damping.
//
// DoubleCartesianPendulum, written as the physics reads (index 3): the bobs at (x1, y1),
// (x2, y2), the rod forces F1, F2 unknowns (tension positive: a rod pulls its ends together):
//   der(x1) = vx1, der(y1) = vy1, der(x2) = vx2, der(y2) = vy2
//   m1 der(vx1) = -F1 x1/L1 + F2 (x2 - x1)/L2
//   m1 der(vy1) = -F1 y1/L1 + F2 (y2 - y1)/L2 - m1 g
//   m2 der(vx2) = -F2 (x2 - x1)/L2
//   m2 der(vy2) = -F2 (y2 - y1)/L2 - m2 g
//   0 = x1^2 + y1^2 - L1^2,  0 = (x2 - x1)^2 + (y2 - y1)^2 - L2^2
// Four coordinates and two constraints: 2 mechanical degrees of freedom, 4 states; both rods
// are differentiated twice and the forces are algebraic: index 3. make_double_cartesian_pendulum
// hands it to the index reduction.
//
// DoublePendulum, the textbook form (Lagrange's equations in the angles phi1, phi2 of the rods
// from the downward vertical), an implicit ODE (index 0) that runs as it is:
//   der(phi1) = w1, der(phi2) = w2
//   (m1 + m2) L1 der(w1) + m2 L2 cos(phi1 - phi2) der(w2) + m2 L2 w2^2 sin(phi1 - phi2)
//       + (m1 + m2) g sin(phi1) = 0
//   m2 L2 der(w2) + m2 L1 cos(phi1 - phi2) der(w1) - m2 L1 w1^2 sin(phi1 - phi2)
//       + m2 g sin(phi2) = 0
// The two forms are tied by x1 = L1 sin(phi1), y1 = -L1 cos(phi1), x2 = x1 + L2 sin(phi2),
// y2 = y1 - L2 cos(phi2). Both have the outputs phi1, phi2 (the Cartesian form's as
// atan2(x1, -y1) and atan2(x2 - x1, y1 - y2), in (-pi, pi]) and the total energy
//   E = m1 |v1|^2/2 + m2 |v2|^2/2 + m1 g y1 + m2 g y2,
// which the motion conserves (no damping): the known answer, beside the agreement of the two
// forms. The angle form's phi1, phi2 are its variables, not wrapped to (-pi, pi].
// Defaults: L1 = L2 = 0.5 m, m1 = m2 = 1 kg, g = 9.81 m/s^2, released at rest from the
// horizontal (phi1 = phi2 = pi/2: both rods along +x), so E = 0.
// Parameters (set_parameter): L1, L2, m1, m2, g, phi1_start, phi2_start, w1_start, w2_start.
#pragma once

#include <memory>
#include <numbers>

#include "hdae/index_reduction.hpp"
#include "hdae/physics_model.hpp"

namespace hdae::models {

struct DoublePendulumParameters {
  double length1_m = 0.5;
  double length2_m = 0.5;
  double mass1_kg = 1.0;
  double mass2_kg = 1.0;
  double gravity_mps2 = 9.81;
  double phi1_start_rad = std::numbers::pi / 2;
  double phi2_start_rad = std::numbers::pi / 2;
  double w1_start_radps = 0.0;
  double w2_start_radps = 0.0;
};

class DoubleCartesianPendulum final : public PhysicsModelOf<DoubleCartesianPendulum> {
 public:
  explicit DoubleCartesianPendulum(DoublePendulumParameters p = {});
  void parameters_changed() override;
  void outputs(Evaluation& e) const override;

  template <class S>
  void residuals(Equations<S>& e) const {
    const double L1 = p_.length1_m;
    const double L2 = p_.length2_m;
    const double m1 = p_.mass1_kg;
    const double m2 = p_.mass2_kg;
    const double g = p_.gravity_mps2;
    const S& x1 = e.x(x1_);
    const S& y1 = e.x(y1_);
    const S& x2 = e.x(x2_);
    const S& y2 = e.x(y2_);
    const S& F1 = e.x(F1_);
    const S& F2 = e.x(F2_);
    e.set(kinematics_[0], e.der(x1_) - e.x(vx1_));
    e.set(kinematics_[1], e.der(y1_) - e.x(vy1_));
    e.set(kinematics_[2], e.der(x2_) - e.x(vx2_));
    e.set(kinematics_[3], e.der(y2_) - e.x(vy2_));
    e.set(momentum_[0], m1 * e.der(vx1_) + F1 * x1 / L1 - F2 * (x2 - x1) / L2);
    e.set(momentum_[1], m1 * e.der(vy1_) + F1 * y1 / L1 - F2 * (y2 - y1) / L2 + m1 * g);
    e.set(momentum_[2], m2 * e.der(vx2_) + F2 * (x2 - x1) / L2);
    e.set(momentum_[3], m2 * e.der(vy2_) + F2 * (y2 - y1) / L2 + m2 * g);
    e.set(rod1_, x1 * x1 + y1 * y1 - L1 * L1);
    e.set(rod2_, (x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1) - L2 * L2);
  }

  [[nodiscard]] const DoublePendulumParameters& parameters() const { return p_; }

 private:
  void set_starts();

  DoublePendulumParameters p_;
  Var x1_, y1_, x2_, y2_, vx1_, vy1_, vx2_, vy2_, F1_, F2_;
  Eq kinematics_[4], momentum_[4], rod1_, rod2_;
  Out phi1_, phi2_, energy_;
};

class DoublePendulum final : public PhysicsModelOf<DoublePendulum> {
 public:
  explicit DoublePendulum(DoublePendulumParameters p = {});
  void parameters_changed() override;
  void outputs(Evaluation& e) const override;

  template <class S>
  void residuals(Equations<S>& e) const {
    using std::cos;
    using std::sin;
    const double L1 = p_.length1_m;
    const double L2 = p_.length2_m;
    const double m1 = p_.mass1_kg;
    const double m2 = p_.mass2_kg;
    const double g = p_.gravity_mps2;
    const S& phi1 = e.x(phi1_);
    const S& phi2 = e.x(phi2_);
    const S& w1 = e.x(w1_);
    const S& w2 = e.x(w2_);
    const S c = cos(phi1 - phi2);
    const S s = sin(phi1 - phi2);
    e.set(kinematics1_, e.der(phi1_) - w1);
    e.set(kinematics2_, e.der(phi2_) - w2);
    e.set(motion1_, (m1 + m2) * L1 * e.der(w1_) + m2 * L2 * c * e.der(w2_) + m2 * L2 * w2 * w2 * s +
                        (m1 + m2) * g * sin(phi1));
    e.set(motion2_, m2 * L2 * e.der(w2_) + m2 * L1 * c * e.der(w1_) - m2 * L1 * w1 * w1 * s +
                        m2 * g * sin(phi2));
  }

  [[nodiscard]] const DoublePendulumParameters& parameters() const { return p_; }

 private:
  DoublePendulumParameters p_;
  Var phi1_, phi2_, w1_, w2_;
  Eq kinematics1_, kinematics2_, motion1_, motion2_;
  Out energy_;
};

/// The Cartesian double pendulum, reduced to index 1 and ready to simulate.
[[nodiscard]] std::unique_ptr<IndexReducedModel> make_double_cartesian_pendulum(
    DoublePendulumParameters p = {});

}  // namespace hdae::models
