// A slider crank with an elastic connecting rod, written as the physics reads (index 3): a
// rigid crank turning freely about the origin under a given torque, a slender rod whose
// deformation is described by three modal coordinates in a frame that moves with it (the
// floating frame of reference), and a slider on the x axis.
//
// Coordinates (8): the crank angle theta; the rod frame's origin A = (xA, yA), which is the
// crank pin, and its angle phi; the modal coordinates qa (axial), q1, q2 (bending); the slider
// position xB. A point at arc length s in [0, l] of the rod sits, in the rod frame, at
//   p(s) = (s + qa s/l,  q1 sin(pi s/l) + q2 sin(2 pi s/l))
// so the bending shapes vanish at both ends and the rod's far end is at distance l + qa from A
// along the frame's axis. Its global position is r(s) = A + R(phi) p(s).
// Constraints (4, independent as long as the rod is not perpendicular to the guide):
//   0 = xA - r cos(theta),  0 = yA - r sin(theta)                    crank pin
//   0 = xB - xA - (l + qa) cos(phi),  0 = yA + (l + qa) sin(phi)     rod end on the slider
// Mechanical degrees of freedom f = 8 - 4 = 4 (theta, qa, q1, q2); in first-order form the
// analysis must find index 3 and 2 f = 8 degrees of freedom (sum d - sum c: 8 positions of
// order 2, 8 velocities of order 1, 4 forces of order 0; the 8 kinematic rows differentiated
// once, the 4 constraints twice).
//
// Equations of motion: d'Alembert's principle, int mu a(s) . dr(s) ds = dW, with the
// acceleration of a rod point a(s) = A'' + R [phi'' J p - phi'^2 p + 2 phi' J p' + p''] (J the
// rotation by +90 degrees) and dr = dA + R J p dphi + R (s/l, 0) dqa + R (0, sin(k pi s/l)) dqk.
// For a uniform rod of mass m (mu = m/l) the integrals are constants:
//   S0 = int mu s = m l/2,  I0 = int mu s^2 = m l^2/3,  int mu sin(k pi s/l)^2 = m/2,
//   c_k = int mu sin(k pi s/l) = m (1 - (-1)^k)/(k pi),
//   d_k = int mu s sin(k pi s/l) = m l (-1)^(k+1)/(k pi).
// With L = 1 + qa/l, Qc = sum c_k q_k, Qd = sum d_k q_k and a_A = R^T A'' (local):
//   rod x, y:  m A'' + R [loc_x; loc_y] = F_A + F_B - (0, m g), where
//              loc_x = -phi'' Qc - phi'^2 S0 L - 2 phi' Qc' + S0 qa''/l
//              loc_y =  phi'' S0 L - phi'^2 Qc + 2 phi' S0 qa'/l + Qc''
//   rod phi:   -Qc a_Ax + S0 L a_Ay + phi'' (L^2 I0 + m/2 sum q_k^2)
//              + 2 phi' (L I0 qa'/l + m/2 sum q_k q_k') + L Qd'' - Qd qa''/l
//              = (l + qa) (-sin(phi) FBx + cos(phi) FBy) - g (cos(phi) S0 L - sin(phi) Qc)
//   axial:     S0/l a_Ax + (-phi'' Qd - phi'^2 L I0 - 2 phi' Qd' + I0 qa''/l)/l + EA/l qa
//              = cos(phi) FBx + sin(phi) FBy - g sin(phi) S0/l
//   bending k: c_k a_Ay + phi'' L d_k - phi'^2 m/2 q_k + 2 phi' d_k qa'/l + m/2 qk''
//              + EI (k pi/l)^4 l/2 qk = -g cos(phi) c_k
//   crank:     J1 theta'' = tau - m1 g (r/2) cos(theta) - (xA FAy - yA FAx)
//   slider:    m3 xB'' = -FBx
// F_A = (FAx, FAy) is the force of the crank on the rod at A, F_B = (FBx, FBy) that of the
// slider on the rod's end (FBy passes on to the guide). The inertia couples the modal
// accelerations to the rigid ones (c_k a_Ay, d_k phi'', S0/l a_Ax), and the velocity terms
// carry the centrifugal and Coriolis forces; the elastic forces are EA/l qa and
// EI (k pi/l)^4 l/2 qk, without the stiffening by the axial force.
//
// Defaults: r = 0.15 m, l = 0.3 m; a steel-like rod of 0.1 kg with EA = 1.2e7 N and
// EI = 30 N m^2 (stiffness entries 4e7 N/m axial, 5.4e4 and 8.7e5 N/m in bending, beside modal
// masses of 0.03 to 0.1 kg); crank 0.2 kg (its centre at r/2) with J1 = 0.01 kg m^2 about the
// pivot; slider 0.1 kg; no torque, g = 9.81 m/s^2. Started undeformed at theta = 0 turning at
// 50 rad/s, with the rigid mechanism's positions and velocities (consistent as given).
// Known answer: the structure above (index 3, 2 f = 8 degrees of freedom); with tau = 0 the
// total energy (kinetic, potential, elastic), the output `energy`, is conserved.
// The variables keep the default nominal 1, although the modal coordinates are deformations of
// some 1e-6 m (axial) to 1e-4 m (bending) at the defaults: their rows then weigh stiffness
// entries of 4e7 N/m against inertial terms of 1e-2 kg, a test for the structure analysis.
// Parameters (set_parameter): r, l, m_crank, J_crank, m_rod, EA, EI, m_slider, tau, g, omega0,
// theta0.
#pragma once

#include <cmath>

#include "hdae/physics_model.hpp"

namespace hdae::models {

struct ElasticSliderCrankParameters {
  double crank_length_m = 0.15;         ///< r
  double rod_length_m = 0.3;            ///< l, > r
  double crank_mass_kg = 0.2;           ///< m1, centre of mass at r/2 (only its weight counts)
  double crank_inertia_kgm2 = 0.01;     ///< J1, about the pivot
  double rod_mass_kg = 0.1;             ///< m, uniform along the rod
  double axial_stiffness_n = 1.2e7;     ///< EA
  double bending_stiffness_nm2 = 30.0;  ///< EI
  double slider_mass_kg = 0.1;          ///< m3
  double torque_nm = 0.0;               ///< tau on the crank
  double gravity_mps2 = 9.81;
  double omega0_radps = 50.0;  ///< crank speed at t0
  double theta0_rad = 0.0;     ///< crank angle at t0
};

class ElasticSliderCrank final : public PhysicsModelOf<ElasticSliderCrank> {
 public:
  static constexpr int kBendingModes = 2;

  explicit ElasticSliderCrank(ElasticSliderCrankParameters p = {});
  void parameters_changed() override;
  void outputs(Evaluation& e) const override;

  template <class S>
  void residuals(Equations<S>& e) const {
    const Shape k = shape();
    const RodMotion<S> rod = rod_motion(e, k);
    set_kinematics(e);
    set_rigid_body_balances(e, k, rod);
    set_elastic_rod_balances(e, k, rod);
    set_constraints(e, rod);
  }

  [[nodiscard]] const ElasticSliderCrankParameters& parameters() const { return p_; }

 private:
  /// The rod's shape integrals and modal stiffnesses (header), from the parameters.
  struct Shape {
    double S0 = 0.0, I0 = 0.0;
    double c[kBendingModes] = {}, d[kBendingModes] = {}, bending[kBendingModes] = {};
    double axial = 0.0;
  };
  [[nodiscard]] Shape shape() const;
  void set_starts();

  /// The sums over the bending modes: Qc, Qd and their rates and accelerations, sum q_k^2 and
  /// sum q_k q_k'.
  template <class S>
  struct ModalSums {
    S Qc = 0.0, Qc_rate = 0.0, Qc_acc = 0.0, Qd = 0.0, Qd_rate = 0.0, Qd_acc = 0.0;
    S q_squares = 0.0, q_rates = 0.0;
  };

  /// What the rod's balances share, formed once per evaluation since every operation counts
  /// with Taylor jets: the frame's direction, its stretch L, A'' in the rod frame, the modal
  /// sums, and the rod's acceleration terms loc_x, loc_y (header).
  template <class S>
  struct RodMotion {
    S c, s;  // cos(phi), sin(phi)
    S stretch;
    S aAx, aAy;
    ModalSums<S> sums;
    S loc_x, loc_y;
  };

  template <class S>
  ModalSums<S> modal_sums(const Equations<S>& e, const Shape& k) const {
    ModalSums<S> sums;
    for (int i = 0; i < kBendingModes; ++i) {
      const S& q = e.x(q_[i]);
      const S& qr = e.x(p_rate_[i]);
      const S& qacc = e.der(p_rate_[i]);
      sums.Qc += k.c[i] * q;
      sums.Qc_rate += k.c[i] * qr;
      sums.Qc_acc += k.c[i] * qacc;
      sums.Qd += k.d[i] * q;
      sums.Qd_rate += k.d[i] * qr;
      sums.Qd_acc += k.d[i] * qacc;
      sums.q_squares += q * q;
      sums.q_rates += q * qr;
    }
    return sums;
  }

  template <class S>
  RodMotion<S> rod_motion(const Equations<S>& e, const Shape& k) const {
    using std::cos;
    using std::sin;
    const double l = p_.rod_length_m;
    const S& phi = e.x(phi_);
    const S& om = e.x(om_);
    const S& qa = e.x(qa_);
    const S& pa = e.x(pa_);
    const S c = cos(phi);
    const S s = sin(phi);
    const S stretch = 1.0 + qa / l;  // L of the header
    const S& alpha = e.der(om_);     // phi''
    const S& qa_acc = e.der(pa_);    // qa''
    const ModalSums<S> sums = modal_sums(e, k);
    const S& Qc = sums.Qc;
    const S& axA = e.der(uA_);
    const S& ayA = e.der(vA_);
    const S aAx = c * axA + s * ayA;  // A'' in the rod frame
    const S aAy = -s * axA + c * ayA;
    const S loc_x =
        -alpha * Qc - om * om * k.S0 * stretch - 2.0 * om * sums.Qc_rate + k.S0 * qa_acc / l;
    const S loc_y = alpha * k.S0 * stretch - om * om * Qc + 2.0 * om * k.S0 * pa / l + sums.Qc_acc;
    return RodMotion<S>{c, s, stretch, aAx, aAy, sums, loc_x, loc_y};
  }

  /// The first-order rows: each position's derivative is its velocity.
  template <class S>
  void set_kinematics(Equations<S>& e) const {
    e.set(crank_kinematics_, e.der(theta_) - e.x(w_));
    e.set(kinematics_xA_, e.der(xA_) - e.x(uA_));
    e.set(kinematics_yA_, e.der(yA_) - e.x(vA_));
    e.set(rod_kinematics_, e.der(phi_) - e.x(om_));
    e.set(axial_kinematics_, e.der(qa_) - e.x(pa_));
    for (int i = 0; i < kBendingModes; ++i) {
      e.set(bending_kinematics_[i], e.der(q_[i]) - e.x(p_rate_[i]));
    }
    e.set(kinematics_xB_, e.der(xB_) - e.x(uB_));
  }

  /// The balances of the crank, of the rod's floating frame (x, y, phi) and of the slider.
  template <class S>
  void set_rigid_body_balances(Equations<S>& e, const Shape& k, const RodMotion<S>& rod) const {
    using std::cos;
    const double r = p_.crank_length_m;
    const double l = p_.rod_length_m;
    const double m = p_.rod_mass_kg;
    const double g = p_.gravity_mps2;
    const S& theta = e.x(theta_);
    const S& xA = e.x(xA_);
    const S& yA = e.x(yA_);
    const S& om = e.x(om_);
    const S& qa = e.x(qa_);
    const S& pa = e.x(pa_);
    const S& FAx = e.x(FAx_);
    const S& FAy = e.x(FAy_);
    const S& FBx = e.x(FBx_);
    const S& FBy = e.x(FBy_);
    const S& alpha = e.der(om_);
    const S& qa_acc = e.der(pa_);
    const S& axA = e.der(uA_);
    const S& ayA = e.der(vA_);
    const S& c = rod.c;
    const S& s = rod.s;
    const S& stretch = rod.stretch;
    const S& Qc = rod.sums.Qc;
    const S& Qd = rod.sums.Qd;
    e.set(crank_, p_.crank_inertia_kgm2 * e.der(w_) - p_.torque_nm +
                      p_.crank_mass_kg * g * (r / 2) * cos(theta) + (xA * FAy - yA * FAx));
    e.set(rod_x_, m * axA + c * rod.loc_x - s * rod.loc_y - FAx - FBx);
    e.set(rod_y_, m * ayA + s * rod.loc_x + c * rod.loc_y - FAy - FBy + m * g);
    e.set(rod_phi_, -Qc * rod.aAx + k.S0 * stretch * rod.aAy +
                        alpha * (stretch * stretch * k.I0 + m / 2 * rod.sums.q_squares) +
                        2.0 * om * (stretch * k.I0 * pa / l + m / 2 * rod.sums.q_rates) +
                        stretch * rod.sums.Qd_acc - Qd * qa_acc / l -
                        (l + qa) * (-s * FBx + c * FBy) + g * (c * k.S0 * stretch - s * Qc));
    e.set(slider_, p_.slider_mass_kg * e.der(uB_) + FBx);
  }

  /// The balances of the rod's deformation: axial, and each bending mode.
  template <class S>
  void set_elastic_rod_balances(Equations<S>& e, const Shape& k, const RodMotion<S>& rod) const {
    const double l = p_.rod_length_m;
    const double m = p_.rod_mass_kg;
    const double g = p_.gravity_mps2;
    const S& om = e.x(om_);
    const S& qa = e.x(qa_);
    const S& pa = e.x(pa_);
    const S& FBx = e.x(FBx_);
    const S& FBy = e.x(FBy_);
    const S& alpha = e.der(om_);
    const S& qa_acc = e.der(pa_);
    const S& c = rod.c;
    const S& s = rod.s;
    const S& stretch = rod.stretch;
    e.set(axial_, k.S0 / l * rod.aAx +
                      (-alpha * rod.sums.Qd - om * om * stretch * k.I0 -
                       2.0 * om * rod.sums.Qd_rate + k.I0 * qa_acc / l) /
                          l +
                      k.axial * qa - (c * FBx + s * FBy) + g * s * k.S0 / l);
    for (int i = 0; i < kBendingModes; ++i) {
      const S& q = e.x(q_[i]);
      e.set(bending_[i], k.c[i] * rod.aAy + alpha * stretch * k.d[i] - om * om * (m / 2) * q +
                             2.0 * om * k.d[i] * pa / l + (m / 2) * e.der(p_rate_[i]) +
                             k.bending[i] * q + g * c * k.c[i]);
    }
  }

  /// The crank pin and the rod's end on the slider's guide.
  template <class S>
  void set_constraints(Equations<S>& e, const RodMotion<S>& rod) const {
    using std::cos;
    using std::sin;
    const double r = p_.crank_length_m;
    const double l = p_.rod_length_m;
    const S& theta = e.x(theta_);
    const S& xA = e.x(xA_);
    const S& yA = e.x(yA_);
    const S& qa = e.x(qa_);
    e.set(pin_x_, xA - r * cos(theta));
    e.set(pin_y_, yA - r * sin(theta));
    e.set(end_x_, e.x(xB_) - xA - (l + qa) * rod.c);
    e.set(end_y_, yA + (l + qa) * rod.s);
  }

  ElasticSliderCrankParameters p_;
  Var theta_, w_, xA_, yA_, uA_, vA_, phi_, om_, qa_, pa_, xB_, uB_;
  Var q_[kBendingModes], p_rate_[kBendingModes];
  Var FAx_, FAy_, FBx_, FBy_;
  Eq crank_kinematics_, kinematics_xA_, kinematics_yA_, rod_kinematics_, axial_kinematics_;
  Eq bending_kinematics_[kBendingModes], kinematics_xB_;
  Eq crank_, rod_x_, rod_y_, rod_phi_, axial_, bending_[kBendingModes], slider_;
  Eq pin_x_, pin_y_, end_x_, end_y_;
  Out energy_;
};

}  // namespace hdae::models
