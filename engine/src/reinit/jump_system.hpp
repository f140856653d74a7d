// The jump equations as a vector function of n unknowns (docs/design.md, "The jump solve";
// ITI paper section 3, eq. 8, and section 4).
//
// The unknowns z have one entry per variable. For a free variable z_j is x^+_j. For a
// variable whose start value is kept (FixedValues::kKeep at t0), x^+_j = x^-_j and z_j - x^-_j
// is a free slack that stands in for its jump in the f_d rows: the impulse that holds the
// variable at its start value. Either way the jump vector is D = z - x^-, and
//
//   G_i(z) = F_i(t, x_m, D) - F_i(t, x_m, 0)   f_d rows (linear in der_x: M_d(x_m) D)
//   G_i(z) = F_i(t, x^+, 0)                    f_c rows
//   G_p(z) = sum_i u_i F_i(t, x^+, 0)          row p replaced by a HiddenConstraint
//
// At an impact (JumpProblem::impulsive, impulse_plan.hpp) z_j of an impulsive variable is its
// impulse integral v_hat_j: in F_i(t, x_m, D) it stands where x_m_j stood, in F_i(t, x_m, 0)
// a zero does, so that each integrated row gains the impulse's share (ITI eq. 8 with v_I
// the impulsive unknowns); the f_c rows JumpProblem::integrated names read like f_d rows.
//
// (with JumpProblem::jump_base set, the f_d rows read F_i(t, x_m, base + D) - F_i(t, x_m, base))
//
// with x_m = (x^- + x^+)/2 (JumpRule::kMidpoint, ITI eq. 8) or x^+ (kEndPoint). The system
// stays square; when fixed values leave it under- or over-determined, its Newton matrix is
// rank-deficient and jump_solver.cpp solves it in the least-squares sense (ITI section 5).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <Eigen/Dense>

#include "linalg/fd_jacobian.hpp"
#include "reinit/jump_solver.hpp"
#include "sparsity/sparsity_pattern.hpp"

namespace hdae::reinit {

/// Throws std::invalid_argument when the problem does not fit x (sizes, missing parts).
void validate_problem(const JumpProblem& problem, std::size_t n, const char* caller);

class JumpSystem {
 public:
  JumpSystem(const JumpProblem& problem, std::span<const double> x_minus);

  [[nodiscard]] Eigen::Index size() const { return x_minus_.size(); }
  [[nodiscard]] bool is_fixed(std::size_t j) const { return fixed_[j] != 0; }
  [[nodiscard]] bool any_fixed() const;
  [[nodiscard]] const Eigen::VectorXd& nominal() const { return nominal_; }
  /// Sizes the impulse integrals by what they do, from dG/dz at x^-: the scale of integral j
  /// becomes the largest, over the rows it enters, of that row's other terms at nominal-sized
  /// changes over its own coefficient. A variable's nominal is that of the force, not of the
  /// force over an instant; two masses of 1e-10 kg colliding at 1 m/s exchange an impulse of
  /// 1e-10 N s, and scaled by a nominal of 1 its column would make the matrix look singular.
  void scale_impulses(const linalg::JacobianMatrix& jac);
  [[nodiscard]] const Eigen::VectorXd& x_minus() const { return x_minus_; }
  [[nodiscard]] bool is_impulsive(std::size_t j) const {
    return !problem_.impulsive.empty() && problem_.impulsive[j] != 0;
  }
  /// Feasible region of each unknown (VariableInfo::min/max; -inf/+inf where unbounded, and
  /// for fixed values and impulse integrals).
  [[nodiscard]] const Eigen::VectorXd& lower() const { return lower_; }
  [[nodiscard]] const Eigen::VectorXd& upper() const { return upper_; }
  /// Where Newton starts: x^-, with impulse integrals 0.
  [[nodiscard]] Eigen::VectorXd initial_iterate() const;
  /// The impulse integrals in z (0 for the other variables); empty without impulses.
  [[nodiscard]] std::vector<double> impulse_integrals(const Eigen::VectorXd& z) const;

  /// g = G(z) (see the file comment).
  void residual(const Eigen::VectorXd& z, Eigen::VectorXd& g);
  /// r = F(t, x^+, 0) for the x^+ of z: G on the f_c rows, as residual() finds it there when
  /// no variable is impulsive and no jump base is set.
  void plus_residual(const Eigen::VectorXd& z, Eigen::VectorXd& r);
  /// x^+ that belongs to the unknowns z (fixed components are x^- bit for bit).
  [[nodiscard]] std::vector<double> x_plus(const Eigen::VectorXd& z) const;
  /// The forward-difference increments of z (linalg::difference_increment), kept until the next
  /// call.
  const Eigen::VectorXd& increments(const Eigen::VectorXd& z);
  /// dG/dz by forward differences into jac, coloured when a pattern is given; g = G(z). jac
  /// keeps its storage when it holds the matrix of an earlier call.
  void jacobian(const Eigen::VectorXd& z, const Eigen::VectorXd& g,
                const linalg::ColouredPattern* pattern, linalg::JacobianMatrix& jac);
  /// dG/dx_j for a fixed variable j: its start value moved on both sides of the jump (its
  /// slack unchanged). Says which equations a fixed value enters; g = G(z).
  [[nodiscard]] Eigen::VectorXd fixed_value_sensitivity(const Eigen::VectorXd& z,
                                                        const Eigen::VectorXd& g, std::size_t j);

 private:
  const JumpProblem& problem_;
  Eigen::VectorXd x_minus_;
  Eigen::VectorXd nominal_;
  Eigen::VectorXd lower_, upper_;
  std::vector<char> fixed_;
  bool has_constraints_ = false;
  // Work space of residual(): arguments and results of the model calls; the last two only
  // where they differ from x_mid_ and r_without_jump_ (impulses; constraint rows at the
  // midpoint).
  std::vector<double> x_plus_;
  std::vector<double> x_mid_;
  std::vector<double> jump_;
  std::vector<double> zeros_;
  std::vector<double> r_with_jump_;
  std::vector<double> r_without_jump_;
  std::vector<double> x_mid_without_impulse_;
  std::vector<double> r_plus_;
  // Work space of jacobian(): the increments and z with one colour's columns stepped.
  Eigen::VectorXd increments_;
  Eigen::VectorXd stepped_z_;
};

}  // namespace hdae::reinit
