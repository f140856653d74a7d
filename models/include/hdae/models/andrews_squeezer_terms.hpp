// The terms of Andrews' squeezing mechanism (andrews_squeezer.hpp), written once over the
// scalar type S for both forms: the loops' links and closure g(q), its Jacobian G(q) and
// second derivative, the mass matrix M(q) and the applied torques f(q, w).
#pragma once

#include <array>
#include <cmath>
#include <cstddef>

#include "hdae/models/andrews_squeezer_data.hpp"

namespace hdae::models {

/// The mechanism's terms, written once over the scalar type S for both forms. q and the
/// velocities w, accelerations a are ordered (beta, Theta, gamma, Phi, delta, Omega, epsilon);
/// the loop rows (and lambda) as g1..g6 of andrews_squeezer.hpp.
namespace andrews_squeezer {

template <class S>
using Angles = std::array<S, 7>;
template <class S>
using Loops = std::array<S, 6>;

/// A vector in the plane of the mechanism.
template <class S>
struct Vec {
  S x, y;
};

/// The links of the loops as vectors in the frame (m), and the sines and cosines the masses
/// and forces need, computed once per evaluation: with Taylor jets (the engine's exact
/// derivatives of the equations) every operation counts. The rod's end is F = crank - rod
/// (from the crank's pivot O at the origin), and the loops close at F:
///   F = B + body3 = A + body5 + body4 = A + body7 + body6.
template <class S>
struct Configuration {
  Vec<S> crank;  ///< O to the crank's joint with the rod: rr (cos beta, sin beta)
  Vec<S> rod;    ///< F to that joint: d (cos(beta + Theta), sin(beta + Theta))
  Vec<S> body3;  ///< B to F: ss (sin gamma, -cos gamma)
  Vec<S> body4;  ///< joint of bodies 4 and 5 to F: e (sin(Phi + delta), -cos(Phi + delta))
  Vec<S> body5;  ///< A to that joint: zt (cos delta, sin delta)
  Vec<S> body6;  ///< joint of bodies 6 and 7 to F: zf (cos(Omega + epsilon), sin(...))
  Vec<S> body7;  ///< A to that joint: u (sin epsilon, -cos epsilon)
  S cos_theta, sin_theta;  ///< the rod relative to the crank
  S cos_gamma, sin_gamma;  ///< body 3 (the spring's end D)
  S cos_phi, sin_phi;      ///< body 4 relative to body 5
  S cos_omega, sin_omega;  ///< body 6 relative to body 7
};

template <class S>
Configuration<S> configuration(const AndrewsSqueezerParameters& p, const Angles<S>& q) {
  using std::cos;
  using std::sin;
  Configuration<S> c{};
  const S rod = q[0] + q[1];
  const S body4 = q[3] + q[4];
  const S body6 = q[5] + q[6];
  c.cos_theta = cos(q[1]);
  c.sin_theta = sin(q[1]);
  c.cos_gamma = cos(q[2]);
  c.sin_gamma = sin(q[2]);
  c.cos_phi = cos(q[3]);
  c.sin_phi = sin(q[3]);
  c.cos_omega = cos(q[5]);
  c.sin_omega = sin(q[5]);
  c.crank = {p.rr_m * cos(q[0]), p.rr_m * sin(q[0])};
  c.rod = {p.d_m * cos(rod), p.d_m * sin(rod)};
  c.body3 = {p.ss_m * c.sin_gamma, -p.ss_m * c.cos_gamma};
  c.body4 = {p.e_m * sin(body4), -p.e_m * cos(body4)};
  c.body5 = {p.zt_m * cos(q[4]), p.zt_m * sin(q[4])};
  c.body6 = {p.zf_m * cos(body6), p.zf_m * sin(body6)};
  c.body7 = {p.u_m * sin(q[6]), -p.u_m * cos(q[6])};
  return c;
}

/// g(q): F from the crank and rod minus F as reached through each loop's bodies, in x and y
/// (m); written out, the published loop rows (the equations' names).
template <class S>
Loops<S> loop_closure(const AndrewsSqueezerParameters& p, const Configuration<S>& c) {
  const S fx = c.crank.x - c.rod.x;
  const S fy = c.crank.y - c.rod.y;
  return {fx - c.body3.x - p.xb_m,
          fy - c.body3.y - p.yb_m,
          fx - c.body4.x - c.body5.x - p.xa_m,
          fy - c.body4.y - c.body5.y - p.ya_m,
          fx - c.body6.x - c.body7.x - p.xa_m,
          fy - c.body6.y - c.body7.y - p.ya_m};
}

/// The derivative of a link at angle phi with respect to phi: the link turned by 90 degrees.
template <class S>
Vec<S> turned(const Vec<S>& v) {
  return {-v.y, v.x};
}

/// G(q) = dg/dq (m/rad) by columns: every loop starts at F, so all of them share dF/dbeta
/// and dF/dTheta; each loop's own bodies enter its two rows only.
template <class S>
struct LoopJacobian {
  Vec<S> beta, theta;     ///< dF/dbeta, dF/dTheta: in the rows of every loop
  Vec<S> gamma;           ///< rows g1, g2
  Vec<S> phi, delta;      ///< rows g3, g4
  Vec<S> omega, epsilon;  ///< rows g5, g6
};

template <class S>
LoopJacobian<S> loop_jacobian(const Configuration<S>& c) {
  const Vec<S> rod = turned(c.rod);
  const Vec<S> crank = turned(c.crank);
  const Vec<S> body4 = turned(c.body4);
  const Vec<S> body6 = turned(c.body6);
  const Vec<S> body5 = turned(c.body5);
  const Vec<S> body7 = turned(c.body7);
  return {{crank.x - rod.x, crank.y - rod.y},
          {-rod.x, -rod.y},
          {c.body3.y, -c.body3.x},
          {-body4.x, -body4.y},
          {-body4.x - body5.x, -body4.y - body5.y},
          {-body6.x, -body6.y},
          {-body6.x - body7.x, -body6.y - body7.y}};
}

/// G(q)^T lambda: the torques (N m) of the joint forces on each angle.
template <class S>
Angles<S> joint_torques(const LoopJacobian<S>& j, const Loops<S>& lambda) {
  // The x rows (g1, g3, g5) and the y rows (g2, g4, g6) all pull on F.
  const S on_fx = lambda[0] + lambda[2] + lambda[4];
  const S on_fy = lambda[1] + lambda[3] + lambda[5];
  return {j.beta.x * on_fx + j.beta.y * on_fy,
          j.theta.x * on_fx + j.theta.y * on_fy,
          j.gamma.x * lambda[0] + j.gamma.y * lambda[1],
          j.phi.x * lambda[2] + j.phi.y * lambda[3],
          j.delta.x * lambda[2] + j.delta.y * lambda[3],
          j.omega.x * lambda[4] + j.omega.y * lambda[5],
          j.epsilon.x * lambda[4] + j.epsilon.y * lambda[5]};
}

/// G(q) a (m/s^2 for accelerations a).
template <class S>
Loops<S> loop_rates(const LoopJacobian<S>& j, const Angles<S>& a) {
  const S fx = j.beta.x * a[0] + j.theta.x * a[1];
  const S fy = j.beta.y * a[0] + j.theta.y * a[1];
  return {fx + j.gamma.x * a[2],
          fy + j.gamma.y * a[2],
          fx + j.phi.x * a[3] + j.delta.x * a[4],
          fy + j.phi.y * a[3] + j.delta.y * a[4],
          fx + j.omega.x * a[5] + j.epsilon.x * a[6],
          fy + j.omega.y * a[5] + j.epsilon.y * a[6]};
}

/// g''(q, w) = sum_jk d2g/(dq_j dq_k) w_j w_k (m/s^2): the part of d2g/dt2 without the
/// accelerations. A link L at angle phi has L'' = turned(L) phi'' - L phi'^2; the first term
/// is G a, the second is this one, with each link's sign in g.
template <class S>
Loops<S> loop_curvature(const Configuration<S>& c, const Angles<S>& w) {
  const S rod_rate = w[0] + w[1];
  const S body4_rate = w[3] + w[4];
  const S body6_rate = w[5] + w[6];
  const S crank2 = w[0] * w[0];
  const S rod2 = rod_rate * rod_rate;
  const S gamma2 = w[2] * w[2];
  const S body42 = body4_rate * body4_rate;
  const S delta2 = w[4] * w[4];
  const S body62 = body6_rate * body6_rate;
  const S epsilon2 = w[6] * w[6];
  const S fx = c.rod.x * rod2 - c.crank.x * crank2;
  const S fy = c.rod.y * rod2 - c.crank.y * crank2;
  return {fx + c.body3.x * gamma2,
          fy + c.body3.y * gamma2,
          fx + c.body4.x * body42 + c.body5.x * delta2,
          fy + c.body4.y * body42 + c.body5.y * delta2,
          fx + c.body6.x * body62 + c.body7.x * epsilon2,
          fy + c.body6.y * body62 + c.body7.y * epsilon2};
}

/// M(q) a (N m): the inertia of the bodies about their joints times the accelerations a. The
/// couplings (1, 2), (4, 5), (6, 7) depend on the relative angle of each pair.
template <class S>
Angles<S> inertia_torques(const AndrewsSqueezerParameters& p, const Configuration<S>& c,
                          const Angles<S>& a) {
  const auto& m = p.mass_kg;
  const auto& i = p.inertia_kgm2;
  const double e4 = p.e_m - p.ea_m;   // body 4: from its centre of mass to its joint with 5
  const double f6 = p.zf_m - p.fa_m;  // body 6: from its centre of mass to its joint with 7
  const S c2 = m[1] * p.da_m * p.rr_m * c.cos_theta;
  const S c4 = m[3] * p.zt_m * e4 * c.sin_phi;
  const S c6 = m[5] * p.u_m * f6 * c.sin_omega;
  const double m22 = m[1] * p.da_m * p.da_m + i[1];
  const double m33 = m[2] * (p.sa_m * p.sa_m + p.sb_m * p.sb_m) + i[2];
  const double m44 = m[3] * e4 * e4 + i[3];
  const double m66 = m[5] * f6 * f6 + i[5];
  const S m11 = (m[0] * p.ra_m * p.ra_m + m[1] * p.rr_m * p.rr_m + i[0] + m22) - 2.0 * c2;
  const S m12 = m22 - c2;
  const S m45 = m44 + c4;
  const S m55 =
      (m[3] * p.zt_m * p.zt_m + m44 + m[4] * (p.ta_m * p.ta_m + p.tb_m * p.tb_m) + i[4]) + 2.0 * c4;
  const S m67 = m66 - c6;
  const S m77 =
      (m[5] * p.u_m * p.u_m + m66 + m[6] * (p.ua_m * p.ua_m + p.ub_m * p.ub_m) + i[6]) - 2.0 * c6;
  return {m11 * a[0] + m12 * a[1], m12 * a[0] + m22 * a[1], m33 * a[2],
          m44 * a[3] + m45 * a[4], m45 * a[3] + m55 * a[4], m66 * a[5] + m67 * a[6],
          m67 * a[5] + m77 * a[6]};
}

/// f(q, w) (N m): the driving torque on the crank, the spring's torque on body 3, and the
/// velocity terms dT/dq - d/dt(M) w of the three pairs whose inertia depends on their
/// relative angle (T the kinetic energy).
template <class S>
Angles<S> applied_torques(const AndrewsSqueezerParameters& p, const Configuration<S>& c,
                          const Angles<S>& w) {
  using std::sqrt;
  const auto& m = p.mass_kg;
  const S k2 = m[1] * p.da_m * p.rr_m * c.sin_theta;
  const S k4 = m[3] * p.zt_m * (p.e_m - p.ea_m) * c.cos_phi;
  const S k6 = m[5] * p.u_m * (p.zf_m - p.fa_m) * c.cos_omega;
  // The spring from D on body 3 to the fixed point C pushes D along D - C with the force
  // -c0 (L - l0) / L (D - C); its torque on gamma is that force times dD/dgamma. With
  // D - B = (bd_x, bd_y), dD/dgamma = (-bd_y, bd_x).
  const S bd_x = p.sd_m * c.cos_gamma + p.sc_m * c.sin_gamma;
  const S bd_y = p.sd_m * c.sin_gamma - p.sc_m * c.cos_gamma;
  const S dx = bd_x + (p.xb_m - p.xc_m);
  const S dy = bd_y + (p.yb_m - p.yc_m);
  const S length = sqrt(dx * dx + dy * dy);
  const S pull = p.spring_stiffness_npm * (p.spring_length_m / length - 1.0);
  const S spring = pull * (dy * bd_x - dx * bd_y);
  return {p.torque_nm - k2 * w[1] * (w[1] + 2.0 * w[0]),
          k2 * w[0] * w[0],
          spring,
          k4 * w[4] * w[4],
          -k4 * w[3] * (w[3] + 2.0 * w[4]),
          -k6 * w[6] * w[6],
          k6 * w[5] * (w[5] + 2.0 * w[6])};
}

/// The spring's stretch energy c0 (L - l0)^2 / 2 (J).
double spring_energy(const AndrewsSqueezerParameters& p, const Angles<double>& q);
/// The kinetic energy w^T M(q) w / 2 (J).
double kinetic_energy(const AndrewsSqueezerParameters& p, const Angles<double>& q,
                      const Angles<double>& w);

}  // namespace andrews_squeezer

}  // namespace hdae::models
