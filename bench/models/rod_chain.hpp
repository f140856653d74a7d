// A chain of N masses on a line joined by rigid rods (bench/reduction_main.cpp): the
// structure analysis' benchmark at scale, written as the physics reads.
//   der(x_k) = v_k                                   k = 1..N
//   m der(v_k) = F_k - F_(k-1)                       k = 1..N, F_0 = c x_1 (the wall's
//                                                    spring), F_N = 0 (the free end)
//   0 = x_(k+1) - x_k - L                            k = 1..N-1 (rod forces F_k)
// 3N - 1 unknowns, index 3, two degrees of freedom (the whole chain on its spring). Declared in
// families (x and v element by element, then F); the sparsity pattern is declared, so the
// signature detection perturbs colour groups.
#pragma once

#include <cstddef>

#include "hdae/physics_model.hpp"

namespace hdae::bench {

class RodChain final : public PhysicsModelOf<RodChain> {
 public:
  explicit RodChain(std::size_t masses);

  template <class S>
  void residuals(Equations<S>& e) const {
    const std::size_t n = x_.size();
    for (std::size_t k = 0; k < n; ++k) {
      e.set(kinematics_[k], e.der(x_[k]) - e.x(v_[k]));
      S force = k + 1 < n ? S(e.x(F_[k])) : S(0.0);
      if (k > 0) force -= e.x(F_[k - 1]);
      if (k == 0) force -= kSpring * e.x(x_[0]);
      e.set(momentum_[k], kMass * e.der(v_[k]) - force);
    }
    for (std::size_t k = 0; k + 1 < n; ++k) {
      e.set(rods_[k], e.x(x_[k + 1]) - e.x(x_[k]) - kLength);
    }
  }

 private:
  static constexpr double kMass = 1.0;
  static constexpr double kSpring = 100.0;
  static constexpr double kLength = 0.1;
  Vars x_, v_, F_;
  Eqs kinematics_, momentum_, rods_;
};

}  // namespace hdae::bench
