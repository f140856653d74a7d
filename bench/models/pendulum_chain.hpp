// A planar chain of N rigid links in Cartesian coordinates, hanging from a pivot at the origin
// (bench/reduction_main.cpp): index reduction at the size of a machine, written as the physics
// reads. Bob k (k = 1..N, bob 0 the pivot) at (x_k, y_k), the rod from bob k-1 to bob k
// pulling with the force F_k:
//   der(x_k) = vx_k,  der(y_k) = vy_k
//   m der(vx_k) = -F_k (x_k - x_(k-1))/L + F_(k+1) (x_(k+1) - x_k)/L
//   m der(vy_k) = -F_k (y_k - y_(k-1))/L + F_(k+1) (y_(k+1) - y_k)/L - m g   (F_(N+1) = 0)
//   0 = (x_k - x_(k-1))^2 + (y_k - y_(k-1))^2 - L^2
// 5N unknowns, index 3, N degrees of freedom. Released at rest from the horizontal.
#pragma once

#include <cstddef>

#include "hdae/physics_model.hpp"

namespace hdae::bench {

class PendulumChain final : public PhysicsModelOf<PendulumChain> {
 public:
  static constexpr double kLength = 0.1;
  static constexpr double kMass = 1.0;
  static constexpr double kGravity = 9.81;

  explicit PendulumChain(std::size_t links);

  template <class S>
  void residuals(Equations<S>& e) const {
    const std::size_t n = x_.size();
    for (std::size_t k = 0; k < n; ++k) {
      const S dx = k == 0 ? S(e.x(x_[k])) : S(e.x(x_[k]) - e.x(x_[k - 1]));
      const S dy = k == 0 ? S(e.x(y_[k])) : S(e.x(y_[k]) - e.x(y_[k - 1]));
      S fx = -e.x(F_[k]) * dx / kLength;
      S fy = -e.x(F_[k]) * dy / kLength - kMass * kGravity;
      if (k + 1 < n) {
        fx += e.x(F_[k + 1]) * (e.x(x_[k + 1]) - e.x(x_[k])) / kLength;
        fy += e.x(F_[k + 1]) * (e.x(y_[k + 1]) - e.x(y_[k])) / kLength;
      }
      e.set(kinematics_x_[k], e.der(x_[k]) - e.x(vx_[k]));
      e.set(kinematics_y_[k], e.der(y_[k]) - e.x(vy_[k]));
      e.set(momentum_x_[k], kMass * e.der(vx_[k]) - fx);
      e.set(momentum_y_[k], kMass * e.der(vy_[k]) - fy);
      e.set(rods_[k], dx * dx + dy * dy - kLength * kLength);
    }
  }

  [[nodiscard]] const Vars& x() const { return x_; }
  [[nodiscard]] const Vars& y() const { return y_; }

 private:
  Vars x_, y_, vx_, vy_, F_;
  Eqs kinematics_x_, kinematics_y_, momentum_x_, momentum_y_, rods_;
};

}  // namespace hdae::bench
