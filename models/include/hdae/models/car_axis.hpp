// The car axis of the IVP test set (problem "caraxis"; Mazzia and Magherini, Test Set for IVP
// Solvers, release 2.4; from Hairer and Wanner, Solving ODEs II): a simple multibody system, a
// car axis on a bumpy road, index 3, in two forms.
//
// The axis is a rigid bar of length L whose ends (xl, yl) and (xr, yr) carry equal masses
// m = eps^2 M / 2 (the mass matrix K = eps^2 M / 2 times the identity). Each end hangs on a
// spring of stiffness 1 and rest length L0 from its wheel: the left wheel stays at the origin,
// the right wheel rides over the bump (xb, yb) = (sqrt(L^2 - yb^2), r sin(w t)). With
// Ll = |(xl, yl)| and Lr = |(xr - xb, yr - yb)|:
//   der(xl) = ul, der(yl) = vl, der(xr) = ur, der(yr) = vr
//   K der(ul) = (L0 - Ll) xl/Ll + lambda1 xb + 2 lambda2 (xl - xr)
//   K der(vl) = (L0 - Ll) yl/Ll + lambda1 yb + 2 lambda2 (yl - yr) - K g
//   K der(ur) = (L0 - Lr) (xr - xb)/Lr - 2 lambda2 (xl - xr)
//   K der(vr) = (L0 - Lr) (yr - yb)/Lr - 2 lambda2 (yl - yr) - K g
//   0 = xl xb + yl yb                  (the left end moves perpendicular to the wheel axis)
//   0 = (xl - xr)^2 + (yl - yr)^2 - L^2   (the bar keeps its length)
// Data: eps = 1e-2, M = 10, L = 1, L0 = 1/2, r = 0.1, w = 10, g = 1 (the gravity term
// M eps^2 g / 2 of the test set). Start at t = 0: xl = 0, yl = 1/2, xr = 1, yr = 1/2,
// ul = ur = -L0/L = -1/2, vl = vr = 0 (consistent with both constraints and, since r w = 1,
// with their first derivatives);
// lambda1 = lambda2 = 0 as guesses (the hidden constraints fix them). Stop time 3 s.
//
// CarAxis is that system as published, index 3 (both constraints differentiated twice, the
// multipliers algebraic): make_car_axis() hands it to the index reduction. CarAxisIndex1 is
// the same mechanics reduced by hand: the position constraints replaced by their second time
// derivatives, which hold the accelerations der(ul), ..., der(vr), so that with the equations
// of motion they determine the accelerations and the multipliers (index 1, it runs as it is):
//   0 = xb'' xl + 2 xb' ul + xb der(ul) + yb'' yl + 2 yb' vl + yb der(vl)
//   0 = (ul - ur)^2 + (vl - vr)^2 + (xl - xr)(der(ul) - der(ur)) + (yl - yr)(der(vl) - der(vr))
// with yb' = r w cos(w t), yb'' = -r w^2 sin(w t), xb' = -yb yb'/xb and
// xb'' = -(xb'^2 + yb'^2 + yb yb'')/xb (from xb^2 + yb^2 = L^2). Its start values are the same;
// the constraints on positions and velocities then hold by the start values, no longer by
// the equations, so they may drift by the integration error.
//
// Known answer: the test set's reference solution at t = 3 (obtained there with RADAU5 at
// tight tolerances), y = (xl, yl, xr, yr, ul, vl, ur, vr, lambda1, lambda2) =
//   ( 0.4934557842755629e-1,  0.4969894602303324,     0.1041742524885400e1,
//     0.3739110272652214,    -0.7705836840321485e-1,  0.7446866596327776e-2,
//     0.1755681574942899e-1,  0.7703410437794031,    -0.4736886750784630e-2,
//    -0.1104680411345730e-2).
// Parameters (set_parameter): eps, M, L, L0, r, w, g.
#pragma once

#include <array>
#include <cmath>
#include <memory>

#include "hdae/index_reduction.hpp"
#include "hdae/physics_model.hpp"

namespace hdae::models {

struct CarAxisParameters {
  double eps = 1e-2;  ///< the small parameter: the masses are eps^2 M / 2
  double M = 10.0;    ///< mass scale of the axis
  double L = 1.0;     ///< length of the axis
  double L0 = 0.5;    ///< rest length of the springs
  double r = 0.1;     ///< amplitude of the bump
  double w = 10.0;    ///< angular frequency of the bump
  double g = 1.0;     ///< gravity
};

/// The test set's values at t = 3 in the order xl, yl, xr, yr, ul, vl, ur, vr, lambda1,
/// lambda2 (header).
inline constexpr std::array<double, 10> kCarAxisReference = {
    0.4934557842755629e-1,  0.4969894602303324,    0.1041742524885400e1,  0.3739110272652214,
    -0.7705836840321485e-1, 0.7446866596327776e-2, 0.1755681574942899e-1, 0.7703410437794031,
    -0.4736886750784630e-2, -0.1104680411345730e-2};

/// K = eps^2 M / 2, the mass of each end of the axis.
[[nodiscard]] inline double car_axis_mass(const CarAxisParameters& p) {
  return p.eps * p.eps * p.M / 2;
}

/// The right sides of K der(ul), K der(vl), K der(ur), K der(vr) (header), for both forms.
template <class S>
[[nodiscard]] std::array<S, 4> car_axis_forces(const CarAxisParameters& p, const S& t, const S& xl,
                                               const S& yl, const S& xr, const S& yr,
                                               const S& lambda1, const S& lambda2) {
  using std::sin;
  using std::sqrt;
  const S yb = p.r * sin(p.w * t);
  const S xb = sqrt(p.L * p.L - yb * yb);
  const S Ll = sqrt(xl * xl + yl * yl);
  const S Lr = sqrt((xr - xb) * (xr - xb) + (yr - yb) * (yr - yb));
  const double weight = car_axis_mass(p) * p.g;
  return {(p.L0 - Ll) * xl / Ll + lambda1 * xb + 2.0 * lambda2 * (xl - xr),
          (p.L0 - Ll) * yl / Ll + lambda1 * yb + 2.0 * lambda2 * (yl - yr) - weight,
          (p.L0 - Lr) * (xr - xb) / Lr - 2.0 * lambda2 * (xl - xr),
          (p.L0 - Lr) * (yr - yb) / Lr - 2.0 * lambda2 * (yl - yr) - weight};
}

/// What both forms share: the ten unknowns, the kinematic rows der(x) = u and the equations of
/// motion K der(u) = f (header).
struct CarAxisMotion {
  enum : std::size_t { kXl, kYl, kXr, kYr, kUl, kVl, kUr, kVr, kLambda1, kLambda2 };
  std::array<Var, 10> v;
  std::array<Eq, 4> kinematics, motion;

  template <class S>
  void set(Equations<S>& e, const CarAxisParameters& p) const {
    const std::array<S, 4> f = car_axis_forces(p, e.t(), e.x(v[kXl]), e.x(v[kYl]), e.x(v[kXr]),
                                               e.x(v[kYr]), e.x(v[kLambda1]), e.x(v[kLambda2]));
    for (std::size_t k = 0; k < 4; ++k) {
      e.set(kinematics[k], e.der(v[kXl + k]) - e.x(v[kUl + k]));
      e.set(motion[k], car_axis_mass(p) * e.der(v[kUl + k]) - f[k]);
    }
  }
};

/// The car axis as published: index 3, for the index reduction (make_car_axis).
class CarAxis final : public PhysicsModelOf<CarAxis> {
 public:
  explicit CarAxis(CarAxisParameters p = {});
  void parameters_changed() override;
  [[nodiscard]] const CarAxisParameters& parameters() const { return p_; }

  template <class S>
  void residuals(Equations<S>& e) const {
    using std::sin;
    using std::sqrt;
    using M = CarAxisMotion;
    m_.set(e, p_);
    const S& xl = e.x(m_.v[M::kXl]);
    const S& yl = e.x(m_.v[M::kYl]);
    const S& xr = e.x(m_.v[M::kXr]);
    const S& yr = e.x(m_.v[M::kYr]);
    const S yb = p_.r * sin(p_.w * e.t());
    const S xb = sqrt(p_.L * p_.L - yb * yb);
    e.set(wheel_axis_, xl * xb + yl * yb);
    e.set(bar_, (xl - xr) * (xl - xr) + (yl - yr) * (yl - yr) - p_.L * p_.L);
  }

 private:
  CarAxisParameters p_;
  CarAxisMotion m_;
  Eq wheel_axis_, bar_;
};

/// The car axis reduced by hand to index 1: the constraints differentiated twice (header).
class CarAxisIndex1 final : public PhysicsModelOf<CarAxisIndex1> {
 public:
  explicit CarAxisIndex1(CarAxisParameters p = {});
  void parameters_changed() override;
  [[nodiscard]] const CarAxisParameters& parameters() const { return p_; }

  template <class S>
  void residuals(Equations<S>& e) const {
    using std::cos;
    using std::sin;
    using std::sqrt;
    using M = CarAxisMotion;
    m_.set(e, p_);
    const S& xl = e.x(m_.v[M::kXl]);
    const S& yl = e.x(m_.v[M::kYl]);
    const S& xr = e.x(m_.v[M::kXr]);
    const S& yr = e.x(m_.v[M::kYr]);
    const S& ul = e.x(m_.v[M::kUl]);
    const S& vl = e.x(m_.v[M::kVl]);
    const S& ur = e.x(m_.v[M::kUr]);
    const S& vr = e.x(m_.v[M::kVr]);
    const S& dul = e.der(m_.v[M::kUl]);
    const S& dvl = e.der(m_.v[M::kVl]);
    const S& dur = e.der(m_.v[M::kUr]);
    const S& dvr = e.der(m_.v[M::kVr]);
    // The bump and its time derivatives in closed form (header).
    const S phase = p_.w * e.t();
    const S yb = p_.r * sin(phase);
    const S yb1 = p_.r * p_.w * cos(phase);
    const S yb2 = -p_.r * p_.w * p_.w * sin(phase);
    const S xb = sqrt(p_.L * p_.L - yb * yb);
    const S xb1 = -yb * yb1 / xb;
    const S xb2 = -(xb1 * xb1 + yb1 * yb1 + yb * yb2) / xb;
    e.set(wheel_axis_acceleration_,
          xb2 * xl + 2.0 * xb1 * ul + xb * dul + yb2 * yl + 2.0 * yb1 * vl + yb * dvl);
    e.set(bar_acceleration_, (ul - ur) * (ul - ur) + (vl - vr) * (vl - vr) +
                                 (xl - xr) * (dul - dur) + (yl - yr) * (dvl - dvr));
  }

 private:
  CarAxisParameters p_;
  CarAxisMotion m_;
  Eq wheel_axis_acceleration_, bar_acceleration_;
};

/// The car axis of index 3, reduced by the engine and ready to simulate.
[[nodiscard]] std::unique_ptr<IndexReducedModel> make_car_axis(CarAxisParameters p = {});

}  // namespace hdae::models
