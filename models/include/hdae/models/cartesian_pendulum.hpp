// The pendulum written as the physics reads, in Cartesian coordinates (index 3): a point mass m
// at (x, y) on a massless rod of length L, the rod force F an unknown, a damping force
// -(d/L^2) v equivalent to the angle pendulum's torque -d w (pendulum.hpp):
//   der(x) = vx,  der(y) = vy
//   m der(vx) = -F x/L - (d/L^2) vx
//   m der(vy) = -F y/L - m g - (d/L^2) vy
//   0 = x^2 + y^2 - L^2
// Nothing is reduced by hand: make_cartesian_pendulum hands the model to the index reduction
// (hdae/index_reduction.hpp), which differentiates the rod constraint twice, the kinematic rows
// once, and selects two states among x, y and their derivatives, switching between them as
// the bob passes where one coordinate stops determining the other.
// Defaults: the angle pendulum's parameters, released at rest from the horizontal (x = L,
// y = 0), so that the state selection must switch on the way down.
// Parameters (set_parameter): L, m, d, g, x_start, y_start, vx_start, vy_start.
#pragma once

#include <memory>

#include "hdae/index_reduction.hpp"
#include "hdae/physics_model.hpp"

namespace hdae::models {

struct CartesianPendulumParameters {
  double length_m = 0.5;
  double mass_kg = 1.0;
  double damping_nms = 0.1;  ///< d, N m s / rad: the damping force is -(d/L^2) v
  double gravity_mps2 = 9.81;
  double x_start_m = 0.5;
  double y_start_m = 0.0;
  double vx_start_mps = 0.0;
  double vy_start_mps = 0.0;
};

class CartesianPendulum final : public PhysicsModelOf<CartesianPendulum> {
 public:
  explicit CartesianPendulum(CartesianPendulumParameters p = {});
  void parameters_changed() override;
  void outputs(Evaluation& e) const override;

  template <class S>
  void residuals(Equations<S>& e) const {
    const double L = p_.length_m;
    const double m = p_.mass_kg;
    const double damping = p_.damping_nms / (L * L);
    const S& x = e.x(x_);
    const S& y = e.x(y_);
    const S& vx = e.x(vx_);
    const S& vy = e.x(vy_);
    const S& F = e.x(F_);
    e.set(kinematics_x_, e.der(x_) - vx);
    e.set(kinematics_y_, e.der(y_) - vy);
    e.set(momentum_x_, m * e.der(vx_) + F * x / L + damping * vx);
    e.set(momentum_y_, m * e.der(vy_) + F * y / L + m * p_.gravity_mps2 + damping * vy);
    e.set(rod_, x * x + y * y - L * L);
  }

  [[nodiscard]] const CartesianPendulumParameters& parameters() const { return p_; }
  [[nodiscard]] Var x() const { return x_; }
  [[nodiscard]] Var y() const { return y_; }
  [[nodiscard]] Var vx() const { return vx_; }
  [[nodiscard]] Var vy() const { return vy_; }
  [[nodiscard]] Var rod_force() const { return F_; }

 private:
  CartesianPendulumParameters p_;
  Var x_, y_, vx_, vy_, F_;
  Eq kinematics_x_, kinematics_y_, momentum_x_, momentum_y_, rod_;
  Out phi_, energy_;
};

/// The Cartesian pendulum, reduced to index 1 and ready to simulate.
[[nodiscard]] std::unique_ptr<IndexReducedModel> make_cartesian_pendulum(
    CartesianPendulumParameters p = {});

}  // namespace hdae::models
