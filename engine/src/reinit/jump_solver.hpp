// Re-initialization over Dirac impulses (docs/design.md, "The jump solve"; ITI paper section 3,
// eq. 8).
//
// Given x^- (the state at an event after the model's own event call, or the start values at
// t0) that may violate the current constraints, find x^+ from
//
//   F_d(t, x_m, x^+ - x^-) - F_d(t, x_m, 0) = 0   f_d rows, x_m = (x^- + x^+)/2 (midpoint)
//   f_c(t, x^+)                            = 0   f_c rows
//
// (for f_d rows affine in der_x the difference is M_d(x_m) (x^+ - x^-) without a Jacobian),
// then the consistent derivative der_x^+ from J der_x = rhs with J = [M_d; d f_c/dx] and
// rhs = [-b_d; -d f_c/dt] (consistent_derivatives.hpp). When M_d is singular, hidden
// constraints (HiddenConstraint, hidden_constraints.hpp) replace some f_d rows in both solves.
// Both come back with a status whose message names equations and variables when J or the
// Newton matrix is singular.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "hdae/model.hpp"
#include "hdae/options.hpp"
#include "model/row_sizes.hpp"

namespace hdae::reinit {

/// r = F(t, x, der_x) in the current mode, with crossing Booleans frozen.
using ResidualFunction = std::function<void(double t, std::span<const double> x,
                                            std::span<const double> der_x, std::span<double> r)>;

class Workspace;  // reinit/workspace.hpp

/// f_d rows whose leading derivatives cancel: sum_i u_i F_i(t, x, der_x) holds no der_x (to
/// first order at the point where it was found), so it is a constraint on x that the rows
/// imply without stating it (docs/design.md, "General rows and singular mass matrices"). It
/// takes the place of row replaced_row: in the jump solve as an f_c row, in the consistent
/// derivatives differentiated once.
struct HiddenConstraint {
  std::size_t replaced_row = 0;      ///< one of rows, with a non-zero coefficient
  std::vector<std::size_t> rows;     ///< the f_d rows combined, ascending
  std::vector<double> coefficients;  ///< u_i for rows[i]; largest magnitude 1
};

/// Whether fixed start values are honoured (only in the initial jump solve at t0).
enum class FixedValues { kIgnore, kKeep };

struct JumpProblem {
  const ModelStructure* structure = nullptr;  ///< names, nominal values, fixed flags, sparsity
  std::span<const RowKind> row_kinds;         ///< current kind of each residual row
  ResidualFunction residual;
  /// d f_c/dt at (t, x) into a residual-sized vector (constraint rows); empty: a forward
  /// difference of the residual in t is used.
  std::function<void(double t, std::span<const double> x, std::span<double> dfc_dt)>
      constraint_time_derivative;
  double t = 0.0;
  JumpRule rule = JumpRule::kMidpoint;
  FixedValues fixed_values = FixedValues::kIgnore;
  double tolerance = 1e-9;  ///< Newton stops when the nominal-scaled max-norm is below this
  int max_iterations = 50;
  /// Pattern, ordering and pivot order shared by the solves of one run (reinit/workspace.hpp);
  /// nullptr: each call derives its own. Must outlive the call; not shared between threads.
  Workspace* workspace = nullptr;
  /// Hidden constraints replacing f_d rows (none unless M_d is singular); distinct
  /// replaced rows, and no two constraints use each other's replaced row.
  std::span<const HiddenConstraint> hidden;
  /// Where the f_d rows' jump equations are taken: F(t, x_m, base + D) - F(t, x_m, base)
  /// (empty: base = 0). The same M_d D for rows affine in der_x; for a row nonlinear in der_x
  /// (where no impulse can pass, so D = 0 in its directions) the left-limit derivative as base
  /// keeps its Newton matrix regular, where base 0 may make it vanish (D^3 = 0).
  std::span<const double> jump_base;
  /// Per variable (empty: none): the variable carries a Dirac impulse at this instant; its
  /// unknown in the jump solve is the impulse's integral, and x^+ keeps x^- for it (the pass
  /// after the impact determines it). See impulse_plan.hpp.
  std::span<const char> impulsive;
  /// Per row (empty: none): an f_c row integrated over the impulse like an f_d row.
  std::span<const char> integrated;
  /// The model's word on the sizes of its rows' terms (model/row_sizes.hpp); nullptr: each
  /// row's own. Must outlive the call.
  const detail::RowSizes* row_sizes = nullptr;
};

enum class SolveStatus {
  kOk,
  kSingular,      ///< J (or the Newton matrix) is singular: message names rows/columns
  kNotConverged,  ///< Newton did not converge within max_iterations
};

struct JumpOutcome {
  SolveStatus status = SolveStatus::kOk;
  std::vector<double> x_plus;
  int iterations = 0;
  std::string message;                ///< why it failed, naming equations and variables
  std::vector<std::string> warnings;  ///< e.g. under-/over-determined with fixed values
  /// Per variable: the impulse integral of an impulsive variable (JumpProblem::impulsive),
  /// 0 elsewhere; empty when no variable is impulsive.
  std::vector<double> impulse_integrals;
};

struct DerivativeOutcome {
  SolveStatus status = SolveStatus::kOk;
  std::vector<double> der_x;
  std::string message;
};

/// x^+ from x^- (see the file comment). On success x_plus satisfies all f_c rows.
[[nodiscard]] JumpOutcome solve_jump(const JumpProblem& problem, std::span<const double> x_minus);

}  // namespace hdae::reinit
