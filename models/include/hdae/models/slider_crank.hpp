// A rigid slider crank written as the physics reads, in natural (Cartesian) coordinates
// (index 3). A crank of length r turns about the origin, a motor holding its speed at omega;
// a uniform connecting rod of length l joins the crank pin A = (xA, yA) to the slider
// B = (xB, yB), which runs on the x axis. The rod is described by its two end points (the
// natural coordinates of Garcia de Jalon and Bayo): with |B - A| = l its kinetic energy
//   T_rod = m2 |(vA + vB)/2|^2 / 2 + J2 |vB - vA|^2 / (2 l^2)
// gives the constant mass matrix [a b; b a] per axis, a = m2/4 + J2/l^2, b = m2/4 - J2/l^2
// (m2/3 and m2/6 for J2 = m2 l^2/12), and its weight m2 g acts half at each end.
//
// Unknowns: theta, w (crank angle and speed); xA, yA, uA, vA (crank pin); xB, yB, uB, vB
// (slider); FAx, FAy (force of the crank on the rod at A), lambda (the multiplier of the rod's
// length, in N: it pulls A towards B and B towards A), N (guide force on the slider), tau
// (motor torque). Equations:
//   der(theta) = w,  der(xA) = uA,  der(yA) = vA,  der(xB) = uB,  der(yB) = vB
//   J1 der(w) = tau - m1 g (r/2) cos(theta) - (xA FAy - yA FAx)          crank about O
//   a der(uA) + b der(uB)        = FAx + lambda (xB - xA)/l                rod end A, x
//   a der(vA) + b der(vB)        = FAy + lambda (yB - yA)/l - m2 g/2       rod end A, y
//   b der(uA) + (a + m3) der(uB) = lambda (xA - xB)/l                      rod end B and slider
//   b der(vA) + (a + m3) der(vB) = lambda (yA - yB)/l - (m2/2 + m3) g + N
//   0 = xA - r cos(theta),  0 = yA - r sin(theta)                          crank pin
//   0 = ((xB - xA)^2 + (yB - yA)^2 - l^2) / (2 l)                          rigid rod
//   0 = yB                                                                 guide
//   0 = w - omega                                                          motor
// Five coordinates (theta, xA, yA, xB, yB) and four position constraints leave one
// mechanical degree of freedom, whose speed the motor prescribes: one state (theta, or a
// coordinate the state selection prefers). The position constraints are differentiated twice,
// the motor once; the forces are algebraic: index 3.
//
// Known answer: theta(t) = theta0 + omega t, and the slider sits where the rod reaches the
// axis, x_B(t) = r cos(theta) + sqrt(l^2 - r^2 sin^2(theta)), y_B = 0.
// Defaults: r = 0.1 m, l = 0.3 m, omega = 2 pi rad/s (one turn per second), theta0 = 0 (the
// outer dead centre); rod 1 kg with J2 = m2 l^2/12, slider 0.5 kg, crank 0.5 kg with
// J1 = 0.01 kg m^2; g = 9.81 m/s^2. The start values follow from theta0 and omega by the closed
// form (positions and velocities), so the start is consistent as given.
// Parameters (set_parameter): r, l, m_crank, J_crank, m_rod, J_rod, m_slider, g, omega, theta0.
#pragma once

#include <cmath>
#include <memory>

#include "hdae/index_reduction.hpp"
#include "hdae/physics_model.hpp"

namespace hdae::models {

struct SliderCrankParameters {
  double crank_length_m = 0.1;       ///< r
  double rod_length_m = 0.3;         ///< l, > r
  double crank_mass_kg = 0.5;        ///< m1, centre of mass at r/2 (only its weight counts)
  double crank_inertia_kgm2 = 0.01;  ///< J1, about the pivot
  double rod_mass_kg = 1.0;          ///< m2
  double rod_inertia_kgm2 = 0.0075;  ///< J2, about the rod's centre: m2 l^2 / 12, a uniform rod
  double slider_mass_kg = 0.5;       ///< m3
  double gravity_mps2 = 9.81;
  double omega_radps = 6.283185307179586;  ///< the motor's speed, 2 pi: one turn per second
  double theta0_rad = 0.0;                 ///< crank angle at t0
};

/// The slider position of the closed form, x_B = r cos(theta) + sqrt(l^2 - r^2 sin^2(theta)).
[[nodiscard]] inline double slider_crank_slider_x(double r, double l, double theta) {
  const double s = r * std::sin(theta);
  return r * std::cos(theta) + std::sqrt(l * l - s * s);
}

class SliderCrank final : public PhysicsModelOf<SliderCrank> {
 public:
  explicit SliderCrank(SliderCrankParameters p = {});
  void parameters_changed() override;
  void outputs(Evaluation& e) const override;

  template <class S>
  void residuals(Equations<S>& e) const {
    using std::cos;
    using std::sin;
    const double r = p_.crank_length_m;
    const double l = p_.rod_length_m;
    const double g = p_.gravity_mps2;
    const double m2 = p_.rod_mass_kg;
    const double m3 = p_.slider_mass_kg;
    // The rod's mass matrix per axis in the coordinates of its ends (header).
    const double a = m2 / 4 + p_.rod_inertia_kgm2 / (l * l);
    const double b = m2 / 4 - p_.rod_inertia_kgm2 / (l * l);
    const S& theta = e.x(theta_);
    const S& xA = e.x(xA_);
    const S& yA = e.x(yA_);
    const S& xB = e.x(xB_);
    const S& yB = e.x(yB_);
    const S& FAx = e.x(FAx_);
    const S& FAy = e.x(FAy_);
    const S& lambda = e.x(lambda_);
    e.set(crank_kinematics_, e.der(theta_) - e.x(w_));
    e.set(kinematics_xA_, e.der(xA_) - e.x(uA_));
    e.set(kinematics_yA_, e.der(yA_) - e.x(vA_));
    e.set(kinematics_xB_, e.der(xB_) - e.x(uB_));
    e.set(kinematics_yB_, e.der(yB_) - e.x(vB_));
    e.set(crank_, p_.crank_inertia_kgm2 * e.der(w_) - e.x(tau_) +
                      p_.crank_mass_kg * g * (r / 2) * cos(theta) + (xA * FAy - yA * FAx));
    e.set(rod_ax_, a * e.der(uA_) + b * e.der(uB_) - FAx - lambda * (xB - xA) / l);
    e.set(rod_ay_, a * e.der(vA_) + b * e.der(vB_) - FAy - lambda * (yB - yA) / l + m2 * g / 2);
    e.set(rod_bx_, b * e.der(uA_) + (a + m3) * e.der(uB_) - lambda * (xA - xB) / l);
    e.set(rod_by_, b * e.der(vA_) + (a + m3) * e.der(vB_) - lambda * (yA - yB) / l +
                       (m2 / 2 + m3) * g - e.x(N_));
    e.set(pin_x_, xA - r * cos(theta));
    e.set(pin_y_, yA - r * sin(theta));
    e.set(rod_, ((xB - xA) * (xB - xA) + (yB - yA) * (yB - yA) - l * l) / (2 * l));
    e.set(guide_, yB);
    e.set(motor_, e.x(w_) - p_.omega_radps);
  }

  [[nodiscard]] const SliderCrankParameters& parameters() const { return p_; }
  [[nodiscard]] Var theta() const { return theta_; }
  [[nodiscard]] Var xA() const { return xA_; }
  [[nodiscard]] Var yA() const { return yA_; }
  [[nodiscard]] Var xB() const { return xB_; }
  [[nodiscard]] Var yB() const { return yB_; }

 private:
  void set_starts();

  SliderCrankParameters p_;
  Var theta_, w_, xA_, yA_, uA_, vA_, xB_, yB_, uB_, vB_, FAx_, FAy_, lambda_, N_, tau_;
  Eq crank_kinematics_, kinematics_xA_, kinematics_yA_, kinematics_xB_, kinematics_yB_;
  Eq crank_, rod_ax_, rod_ay_, rod_bx_, rod_by_, pin_x_, pin_y_, rod_, guide_, motor_;
  Out energy_, power_;
};

/// The slider crank, reduced to index 1 and ready to simulate.
[[nodiscard]] std::unique_ptr<IndexReducedModel> make_slider_crank(SliderCrankParameters p = {});

}  // namespace hdae::models
