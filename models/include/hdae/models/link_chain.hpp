// A planar chain of N rigid links in Cartesian coordinates, written as the physics reads
// (index 3): the double pendulum (double_pendulum.hpp) continued to any number of links, so
// that the index reduction meets a machine's size rather than a textbook's. N point masses m
// hang from a pivot at the origin on massless rods of length L, gravity g along -y, no damping.
// Link i (i = 1..N, link 0 the pivot: x_0 = y_0 = 0) sits at (x_i, y_i); the rod from link
// i - 1 to link i pulls both its ends together with the force F_i (tension positive):
//   der(x_i) = vx_i,  der(y_i) = vy_i
//   m der(vx_i) = -F_i (x_i - x_(i-1))/L + F_(i+1) (x_(i+1) - x_i)/L
//   m der(vy_i) = -F_i (y_i - y_(i-1))/L + F_(i+1) (y_(i+1) - y_i)/L - m g    (F_(N+1) = 0)
//   0 = (x_i - x_(i-1))^2 + (y_i - y_(i-1))^2 - L^2
// 5N unknowns, declared link by link (x, y, vx, vy, F of link 1, then of link 2, ...); every
// rod is differentiated twice and the forces are algebraic: index 3, N mechanical degrees of
// freedom. The sparsity pattern is declared (a row holds its link's and its neighbours'
// unknowns), so the structure analysis perturbs colour groups, not one column at a time.
//
// Start: released at rest from the horizontal (x_i = i L, y_i = 0). Then every rod force is 0:
// the rods' second derivatives make all horizontal accelerations equal to the pivot's, 0, and
// so F_i = F_(i+1) = ... = F_(N+1) = 0.
// Outputs: the total energy E = sum_i (m |v_i|^2/2 + m g y_i), conserved by the motion and 0 at
// the start, and rod_drift = max_i |(x_i - x_(i-1))^2 + (y_i - y_(i-1))^2 - L^2| / L^2, how far
// the worst rod is off its length (0 on the exact solution).
//
// Parameters (set_parameter): N, L, m, g (the fields of LinkChainParameters). N sets the
// model's size: an integer (an integral value in [1, 2^53], where doubles hold every integer);
// a new N declares the chain anew, so handles and sizes taken before are stale (the
// IndexReducedModel reduces it anew).
#pragma once

#include <cstddef>
#include <memory>

#include "hdae/index_reduction.hpp"
#include "hdae/physics_model.hpp"

namespace hdae::models {

struct LinkChainParameters {
  std::size_t links = 10;      ///< N, the number of links (>= 1)
  double length_m = 0.1;       ///< L, the length of every rod (> 0)
  double mass_kg = 1.0;        ///< m, the mass at the end of every rod (> 0)
  double gravity_mps2 = 9.81;  ///< g, along -y (> 0: from rest, nothing else moves the chain)
};

class LinkChain final : public PhysicsModelOf<LinkChain> {
 public:
  explicit LinkChain(LinkChainParameters p = {});
  void parameters_changed() override;
  void outputs(Evaluation& e) const override;

  template <class S>
  void residuals(Equations<S>& e) const {
    for (std::size_t i = 0; i < x_.size(); ++i) link_residuals(e, i);
  }

  [[nodiscard]] const LinkChainParameters& parameters() const { return p_; }
  [[nodiscard]] const Vars& x() const { return x_; }
  [[nodiscard]] const Vars& y() const { return y_; }

 private:
  /// Declares unknowns, rows, pattern and outputs for p_ (after removing the old ones).
  void declare_chain();
  /// The sparsity pattern of the header's rows.
  void declare_pattern();
  /// Start values (the chain at rest along +x) and nominals from the parameters.
  void set_starts();

  /// c_i - c_(i-1) of coordinate family c, with the pivot's c_0 = 0 (i counted from 0 here).
  template <class S>
  S along_rod(const Equations<S>& e, const Vars& c, std::size_t i) const {
    return i == 0 ? S(e.x(c[0])) : S(e.x(c[i]) - e.x(c[i - 1]));
  }

  /// The five rows of link i (counted from 0): kinematics, momentum in x and y, its rod.
  template <class S>
  void link_residuals(Equations<S>& e, std::size_t i) const {
    const double L = p_.length_m;
    const double m = p_.mass_kg;
    const S dx = along_rod(e, x_, i);
    const S dy = along_rod(e, y_, i);
    // The pull of the link's own rod, towards the link before it, and of the next link's
    // rod, towards that link, if there is one.
    S fx = -e.x(F_[i]) * dx / L;
    S fy = -e.x(F_[i]) * dy / L - m * p_.gravity_mps2;
    if (i + 1 < x_.size()) {
      fx += e.x(F_[i + 1]) * along_rod(e, x_, i + 1) / L;
      fy += e.x(F_[i + 1]) * along_rod(e, y_, i + 1) / L;
    }
    e.set(kinematics_x_[i], e.der(x_[i]) - e.x(vx_[i]));
    e.set(kinematics_y_[i], e.der(y_[i]) - e.x(vy_[i]));
    e.set(momentum_x_[i], m * e.der(vx_[i]) - fx);
    e.set(momentum_y_[i], m * e.der(vy_[i]) - fy);
    e.set(rod_[i], dx * dx + dy * dy - L * L);
  }

  LinkChainParameters p_;
  Param links_;
  Vars x_, y_, vx_, vy_, F_;  ///< position, velocity of link i; force of the rod ending there
  Eqs kinematics_x_, kinematics_y_, momentum_x_, momentum_y_, rod_;
  Out energy_, rod_drift_;
};

/// The chain of links, reduced to index 1 and ready to simulate. ModelError naming the
/// parameter for a field out of its range, and the reduction's for a model of more than 2000
/// unknowns (N > 400; hdae/index_reduction.hpp).
[[nodiscard]] std::unique_ptr<IndexReducedModel> make_link_chain(LinkChainParameters p = {});

}  // namespace hdae::models
