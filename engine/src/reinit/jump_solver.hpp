// Re-initialization over Dirac impulses (docs/design.md, "The jump solve"; ITI paper section 3,
// eq. 8).
//
// Given x^- (the state at an event after the model's own event call, or the start values at
// t0) that may violate the current constraints, find x^+ from
//
//   F_d(t, x_m, x^+ - x^-) - F_d(t, x_m, 0) = 0   f_d rows, x_m = (x^- + x^+)/2 (midpoint)
//   f_c(t, x^+)                            = 0   f_c rows
//
// (the f_d rows are linear in der_x, so the difference is M_d(x_m) (x^+ - x^-) without a
// Jacobian), then the consistent derivative der_x^+ from J der_x = rhs with
// J = [M_d; d f_c/dx] and rhs = [-b_d; -d f_c/dt] (consistent_derivatives.hpp). Both come back
// with a status whose message names equations and variables when J or the Newton matrix is
// singular.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "hdae/model.hpp"
#include "hdae/options.hpp"

namespace hdae::reinit {

/// r = F(t, x, der_x) in the current mode, with crossing Booleans frozen.
using ResidualFunction = std::function<void(double t, std::span<const double> x,
                                            std::span<const double> der_x, std::span<double> r)>;

class Workspace;  // reinit/workspace.hpp

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
};

struct DerivativeOutcome {
  SolveStatus status = SolveStatus::kOk;
  std::vector<double> der_x;
  std::string message;
};

/// x^+ from x^- (see the file comment). On success x_plus satisfies all f_c rows.
[[nodiscard]] JumpOutcome solve_jump(const JumpProblem& problem, std::span<const double> x_minus);

}  // namespace hdae::reinit
