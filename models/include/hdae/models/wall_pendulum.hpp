// The Cartesian pendulum (cartesian_pendulum.hpp, index 3) striking a vertical wall, written as
// the physics reads: the contact force Fc is an unknown like the rod force F.
//   der(x) = vx,  der(y) = vy
//   m der(vx) = -F x/L + Fc
//   m der(vy) = -F y/L - m g
//   0 = x^2 + y^2 - L^2
//   0 = Fc                  in free flight
//   0 = vx + e vx^-         in the event pass of an impact, Fc marked as impact source
// The bob swings on the side x > x_wall and strikes the wall when x reaches x_wall moving
// towards it. Nothing of the impact is written by hand: the engine finds which quantities the
// contact force's impulse reaches through the rod and its hidden constraints (the rod force
// carries an impulse of its own, so that the velocity stays tangential) and integrates the
// reduced equations over it (docs/design.md, "Impacts in reduced models").
//
// Known answers, in the angle theta = atan2(x, -y) from the downward vertical and omega its
// rate: at an impact the bob stays where it is and omega+ = -e omega- (vx = L omega cos theta),
// so the motion goes on as the angle pendulum restarted with -e omega-. With Δω = omega+ -
// omega-, the wall's impulse is m L Δω / cos(theta) and the rod force's m L Δω tan(theta): zero
// for the wall under the pivot (x_wall = 0), where the impulse is perpendicular to the rod.
// Released at rest from the horizontal (theta = 90 degrees) the bob first reaches the wall
// under the pivot after a quarter period of the 90-degree pendulum, K(sin 45°) sqrt(L/g)
// (K the complete elliptic integral of the first kind), at omega- = -sqrt(2 g/L).
// Parameters (set_parameter): L, m, g, e, x_wall, x_start, y_start.
#pragma once

#include <memory>

#include "hdae/index_reduction.hpp"
#include "hdae/physics_model.hpp"

namespace hdae::models {

struct WallPendulumParameters {
  double length_m = 0.5;
  double mass_kg = 1.0;
  double gravity_mps2 = 9.81;
  double restitution = 0.5;
  double wall_x_m = 0.0;  ///< the wall is the line x = x_wall, the bob swings on x > x_wall
  double x_start_m = 0.5;
  double y_start_m = 0.0;
};

class WallPendulum final : public PhysicsModelOf<WallPendulum> {
 public:
  explicit WallPendulum(WallPendulumParameters p = {});
  void parameters_changed() override;
  void outputs(Evaluation& e) const override;
  void on_event(EventContext& event) override;
  void reset() override;

  template <class S>
  void residuals(Equations<S>& e) const {
    const double L = p_.length_m;
    const double m = p_.mass_kg;
    const S& x = e.x(x_);
    const S& y = e.x(y_);
    const S& vx = e.x(vx_);
    const S& F = e.x(F_);
    const S& Fc = e.x(Fc_);
    e.negative(at_wall_, x - p_.wall_x_m);
    e.set(kinematics_x_, e.der(x_) - vx);
    e.set(kinematics_y_, e.der(y_) - e.x(vy_));
    e.set(momentum_x_, m * e.der(vx_) + F * x / L - Fc);
    e.set(momentum_y_, m * e.der(vy_) + F * y / L + m * p_.gravity_mps2);
    e.set(rod_, x * x + y * y - L * L);
    // The restitution law relates vx+ to vx- (left_limit: vx before the impact's jump).
    e.set(contact_, impact_pass_ ? vx + p_.restitution * e.left_limit(vx_) : Fc);
  }

  [[nodiscard]] const WallPendulumParameters& parameters() const { return p_; }
  [[nodiscard]] Var x() const { return x_; }
  [[nodiscard]] Var vx() const { return vx_; }
  [[nodiscard]] Var rod_force() const { return F_; }
  [[nodiscard]] Var contact_force() const { return Fc_; }
  /// Impacts since the run's start.
  [[nodiscard]] int impacts() const { return impacts_; }

 private:
  WallPendulumParameters p_;
  Var x_, y_, vx_, vy_, F_, Fc_;
  Eq kinematics_x_, kinematics_y_, momentum_x_, momentum_y_, rod_, contact_;
  Crossing at_wall_;
  Out phi_, energy_;
  bool impact_pass_ = false;  ///< the contact row is the restitution law
  int impacts_ = 0;
};

/// The wall pendulum, reduced to index 1 and ready to simulate.
[[nodiscard]] std::unique_ptr<IndexReducedModel> make_wall_pendulum(WallPendulumParameters p = {});

}  // namespace hdae::models
