// The exact Jacobian of the reduced equations F_i^(q) with respect to the slots x_j^(k)
// (hdae/index_reduction.hpp, step 2), from Taylor jets over directional derivatives.
//
// Along the curve the slots describe, let A_ij(t) = dF_i/dx_j and B_ij(t) = dF_i/d(der(x_j)).
// The q-th time derivative of F_i depends on x_j^(k) through x_j's Taylor coefficients in both
// arguments, which gives
//
//   d F_i^(q) / d x_j^(k) = C(q, k) A_ij^(q-k) + C(q, k-1) B_ij^(q-k+1)
//
// (C the binomial coefficients, zero outside 0 <= k <= q; the derivative of a Taylor coefficient
// of F with respect to one of x is the matching coefficient of its Jacobian, Griewank and
// Walther, "Evaluating Derivatives", ch. 13). A_ij and its first max c time derivatives come out
// of one evaluation of the residual template with jets whose outermost level is the direction
// of x_j (hdae/jet.hpp, DirectedJet); columns that share no equation are differentiated in
// the same direction, and one evaluation carries several directions. The entries with k = d_j,
// q = c_i are Pryce's system Jacobian, which the state selection judges; system() gets them
// alone, from jets of depth 1.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "hdae/physics_model.hpp"
#include "hdae/structure.hpp"
#include "reduced_pattern.hpp"
#include "slot_layout.hpp"
#include "state_selection.hpp"

namespace hdae::reduction {

/// The largest max c_i for which the Jacobian is formed from jets: they need one level more
/// than the equations' derivatives, and jets go to depth 3.
inline constexpr int kMaxJacobianDepth = 2;

class ReducedJacobian {
 public:
  ReducedJacobian() = default;
  /// Groups the columns of dF/dx and of dF/d(der_x) by the signature's pattern so that no two
  /// columns of a group share an equation. layout.max_c must be at most kMaxJacobianDepth.
  ReducedJacobian(const SlotLayout& layout, const SignatureMatrix& signature);

  /// Every entry of the reduced equations' Jacobian at the slots, passed to
  /// entry(row, slot, value) (entries that are zero by structure are not passed).
  template <class Entry>
  void evaluate(const PhysicsModel& model, double t, std::span<const double> slots,
                Entry&& entry) const {
    differentiate(model, t, slots);
    for (const Term& term : terms_) {
      entry(term.row, term.slot, term.ca * a_[term.a] + term.cb * b_[term.b]);
    }
  }

  /// What the state selection judges of Pryce's system Jacobian J_ij = d F_i / d x_j^(d_j -
  /// c_i): its rows differentiated at least once (c_i >= 1), n x n without entries in the
  /// other rows and where d_j - c_i is not sigma_ij; from jets of depth 1 (one directional
  /// derivative each), the columns grouped by those rows alone, at a fraction of the cost of
  /// evaluate().
  void system(const PhysicsModel& model, double t, std::span<const double> slots,
              SystemJacobian& j) const;

  /// system()'s entries as the last evaluate() found them (the direction derivatives at time
  /// order 0 of the judged entries), without evaluating the model again.
  void system_of_last(SystemJacobian& j) const;

  /// Model evaluations per Jacobian: the groups of x columns and of der(x) columns,
  /// kJetDirections of them in one evaluation.
  [[nodiscard]] std::size_t evaluations() const {
    return (groups_.size() + kJetDirections - 1) / kJetDirections;
  }

 private:
  /// Columns differentiated together, in x or in der(x), and for each the entries (indices
  /// into entries_) it owns.
  struct Group {
    std::vector<std::size_t> columns;
    std::vector<std::size_t> entries;
    bool der = false;
  };
  /// Columns grouped so that no two in a group share an equation of a kept entry.
  [[nodiscard]] std::vector<Group> grouped(const std::function<bool(const SignatureEntry&)>& keep,
                                           bool der) const;
  /// The directional derivatives of each group's entries, with their first Depth - 1 time
  /// derivatives, into x_out or der_out (at Depth e + m): one evaluation per kJetDirections
  /// groups.
  template <int Depth>
  void directional(const PhysicsModel& model, double t, std::span<const double> slots,
                   const std::vector<Group>& groups, std::vector<double>& x_out,
                   std::vector<double>& der_out) const;
  /// A_e^(m) and B_e^(m) of every signature entry into a_ and b_.
  void differentiate(const PhysicsModel& model, double t, std::span<const double> slots) const;
  /// C(q, k) for 0 <= k <= q <= 3.
  static double binomial(int q, int k) {
    constexpr std::array<std::array<double, 4>, 4> kTable{
        {{1, 0, 0, 0}, {1, 1, 0, 0}, {1, 2, 1, 0}, {1, 3, 3, 1}}};
    return k < 0 || k > q ? 0.0 : kTable[static_cast<std::size_t>(q)][static_cast<std::size_t>(k)];
  }
  /// system()'s pattern and, per signature entry it holds, the entry's place among its values.
  void lay_out_system();
  /// terms_ from the signature's entries.
  void lay_out_terms();

  /// One entry d F_i^(q) / d x_j^(k) = ca A^(m) + cb B^(m'), its derivatives' places in a_ and
  /// b_ (a place holding zero where the formula has no such term).
  struct Term {
    std::size_t row = 0, slot = 0;
    double ca = 0.0, cb = 0.0;
    std::size_t a = 0, b = 0;
  };

  SlotLayout layout_;
  std::vector<SignatureEntry> entries_;
  /// The groups of x columns, then those of der(x) columns.
  std::vector<Group> groups_;
  /// For system(): the entries the state selection judges, in x and in der(x).
  std::vector<Group> selection_groups_;
  std::vector<Term> terms_;
  /// A_e^(m) and B_e^(m) for entry e and m = 0..max c, at (max c + 1) e + m; the last place
  /// holds zero.
  mutable std::vector<double> a_, b_;
  SystemJacobian system_pattern_;
  std::vector<std::size_t> system_value_;
  /// system()'s derivatives, per signature entry.
  mutable std::vector<double> system_values_;
};

}  // namespace hdae::reduction
