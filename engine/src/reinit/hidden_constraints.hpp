// Hidden constraints of f_d rows whose derivatives cancel (docs/design.md, "General rows and
// singular mass matrices").
//
// A model M der_x = f(t, x) whose mass matrix (dF/d(der_x) of the f_d rows) is singular can
// still be of index 1: a left null vector u of M (u^T M = 0) combines the rows into
// sum_i u_i F_i = -u^T f(t, x), which holds no derivative. It is a constraint the rows state
// only implicitly: like an f_c row it must hold at x^+, and differentiated once it supplies
// the equation of der_x that M lacks. The transistor amplifier of the IVP test set is such a
// model (rank 5 of 8: each of three pairs of rows sums to the current balance of a node that
// has no capacitor to ground).
//
// find_hidden_constraints takes a basis of the left null space of the equilibrated M_d (f_c
// rows left out) from an SVD and brings it to reduced row-echelon form with partial pivoting,
// so that each vector has a 1 in a row (its pivot) where the others have 0 and combines few
// rows. Each vector becomes one HiddenConstraint replacing its pivot row. The replacement is
// an invertible transformation of the rows (the identity on the pivots), so the transformed
// system has the solutions of the original one. This is the linear-combination correction of
// analyze_index (hdae/structure.hpp) for rows of one offset, made where the consistent state
// is computed.
#pragma once

#include <span>
#include <vector>

#include "reinit/jump_solver.hpp"

namespace hdae::reinit {

/// Largest model for which hidden constraints are looked for (a dense SVD of M_d); larger
/// models and the sparse path keep the plain singular-J diagnosis.
inline constexpr std::size_t kHiddenConstraintMaxUnknowns = 500;

/// The hidden constraints of the f_d rows at (t, x): empty when M_d (from unit steps of
/// der_x at der_x = 0, exact for rows affine in der_x) has full row rank on the f_d rows, on
/// the sparse path (problem.workspace with a pattern) and beyond kHiddenConstraintMaxUnknowns.
[[nodiscard]] std::vector<HiddenConstraint> find_hidden_constraints(const JumpProblem& problem,
                                                                    std::span<const double> x);

}  // namespace hdae::reinit
