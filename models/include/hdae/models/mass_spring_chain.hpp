// A chain of N point masses joined by linear springs, written as a sparse index-1 DAE with
// algebraic spring forces, to exercise the KLU path at any size. Mass i (1..N) sits at displacement
// s_i; spring i joins mass i-1 and mass i, spring 1 joins mass 1 to a wall (s_0 = 0); the last mass
// is free.
//   der(s_i) = v_i                                  f_d rows
//   m der(v_i) = f_{i+1} - f_i - d v_i    (f_{N+1} = 0)   f_d rows
//   0 = f_i - k (s_i - s_{i-1})                     f_c rows (algebraic forces)
// Unknowns per mass: s_i, v_i, f_i (3N in all); each row touches at most 4 unknowns.
// Start: every mass at rest, the free end pulled out by s0 with the chain uniformly
// stretched (s_i = s0 i / N), forces consistent (f_i = k s0 / N). Energy
// sum(m v^2/2) + sum(f^2/(2k)) decays through the dampers only.
//
// Parameters (set_parameter): N, m, k, d, s_end (the fields of MassSpringChainParameters).
// N is a parameter although it sets the model's size: it must be an integer (an integral
// value in [1, 2^53], where doubles hold every integer), and setting any parameter declares
// the chain's unknowns and equations anew, so handles and sizes taken before are stale.
#pragma once

#include <cstddef>
#include <span>

#include "hdae/model_builder.hpp"

namespace hdae::models {

struct MassSpringChainParameters {
  std::size_t masses = 100;
  double mass_kg = 1.0;
  double stiffness_npm = 100.0;
  double damping_nspm = 0.5;
  double end_displacement_m = 1.0;
};

class MassSpringChain final : public Model {
 public:
  explicit MassSpringChain(MassSpringChainParameters p = {});
  void evaluate(Evaluation& e) override;
  void parameters_changed() override;

  [[nodiscard]] const MassSpringChainParameters& parameters() const { return p_; }
  /// Kinetic plus spring energy of a state x (J).
  [[nodiscard]] double energy(std::span<const double> x) const;

 private:
  /// Declares unknowns, equations, pattern and output for p_ (after removing the old ones).
  void declare_chain();
  /// Start values (the stretched chain at rest) and the forces' nominal from the parameters.
  void set_starts();

  MassSpringChainParameters p_;
  Param masses_;
  Vars s_, v_, f_;                      ///< displacement, velocity and spring force of mass i
  Eqs kinematics_, dynamics_, spring_;  ///< its rows (spring i joins mass i - 1 and mass i)
  Out energy_;
};

}  // namespace hdae::models
