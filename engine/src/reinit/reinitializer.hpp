// The re-initialization as the simulator sees it (docs/design.md, "The jump solve"): make the
// state consistent with the current mode at an event instant, x^+ from x^- over the Dirac
// impulses (ITI paper eq. 8, jump_solver.hpp) and then der_x^+ (consistent derivatives), with
// one Workspace for the whole run; and tell which unknowns are algebraic in the current mode
// (no der_x of theirs in any f_d row), which IDA needs at every restart.
//
// Failures come back as a SimulationStatus whose outcome says what happened: a singular
// J = [M_d; d f_c/dx] or Newton matrix is kSingularJacobian, a Newton iteration that does not
// converge or residuals that are not finite is kJumpSolveFailure; the message names the
// equations and variables involved and the mode (the rows that are constraints).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hdae/options.hpp"
#include "hdae/status.hpp"
#include "model/model_calls.hpp"
#include "reinit/consistent_derivatives.hpp"
#include "reinit/jump_solver.hpp"
#include "reinit/workspace.hpp"

namespace hdae::reinit {

struct ReinitSettings {
  JumpRule rule = JumpRule::kMidpoint;
  double tolerance = 1e-9;  ///< Newton tolerance (nominal-scaled max-norm)
  int max_iterations = 50;
};

/// The integral of the Dirac impulse one variable carried (impulse_plan.hpp).
struct Impulse {
  std::size_t variable = 0;
  double integral = 0.0;
};

/// What one make_consistent call did.
struct ConsistencyReport {
  std::optional<SimulationStatus> failure;  ///< empty on success
  int newton_iterations = 0;
  std::vector<std::string> warnings;  ///< e.g. under-/over-determined with fixed values
  std::vector<Impulse> impulses;      ///< every impulsive variable's integral
};

class Reinitializer {
 public:
  /// pattern: the model's sparsity pattern when the run takes the sparse path, else nothing.
  Reinitializer(detail::ModelCalls& model, ReinitSettings settings,
                std::optional<sparsity::SparsityPattern> pattern);

  /// x^+ and der_x^+ at t in the mode given by row_kinds. x becomes x^+ once the jump solve
  /// succeeded (also when the derivatives then fail); der_x is replaced on success only. When
  /// either solve finds its matrix singular and the f_d rows imply hidden constraints (a
  /// singular M_d, hidden_constraints.hpp), both solves are repeated from x^- with them.
  /// With impulse sources (an impact, impulse_plan.hpp) the jump is integrated over their
  /// impulses and der_x is left as it is: the impact mode holds only for the jump, and the
  /// next pass of the event iteration makes the derivatives consistent in the mode after it.
  ConsistencyReport make_consistent(double t, std::span<const RowKind> row_kinds, FixedValues fixed,
                                    std::vector<double>& x, std::vector<double>& der_x,
                                    std::span<const std::size_t> impulse_sources = {});
  /// true for x[j] when der_x[j] enters no f_d row at (t, x): F_d is linear in der_x, so
  /// F(x, e_j) - F(x, 0) is column j of M_d exactly (the columns of one colour probed at once).
  /// A constraint row that the same probe finds depending on some der_x[j] is a model failure
  /// (ModelError through ModelCalls::fail) naming the row and der(x_j); make_consistent
  /// checks that first whenever the row kinds differ from those it last checked. The answer
  /// of that check is returned, not probed again, when the last make_consistent found it at
  /// this t and this very x with these row kinds (the restart after an event that left x as
  /// it was, such as the consistent start of a model).
  [[nodiscard]] std::vector<bool> algebraic_unknowns(double t, std::span<const RowKind> row_kinds,
                                                     std::span<const double> x);
  /// d(der_x)/dt along the solution through (t, x, der_x) in the mode of row_kinds, with
  /// der_x consistent there (as make_consistent left it): the consistent derivatives at
  /// (t + dt, x + dt der_x), a point on the solution's tangent, minus der_x, over dt; the
  /// hidden constraints of the last make_consistent are used again. A forward difference:
  /// its error is dt/2 times the third derivative plus the derivatives' own error over dt.
  /// Empty when the derivatives there cannot be computed (a singular J) or are not finite.
  [[nodiscard]] std::optional<std::vector<double>> second_derivatives(
      double t, std::span<const RowKind> row_kinds, std::span<const double> x,
      std::span<const double> der_x, double dt);
  [[nodiscard]] const Workspace& workspace() const { return workspace_; }
  /// The sparse path's pattern from now on (EventContext::sparsity_changed); the constraint
  /// rows are checked anew at the next solve, since the probes read the pattern.
  void change_pattern(sparsity::SparsityPattern pattern) {
    workspace_.change_pattern(std::move(pattern));
    checked_kinds_.clear();
    checked_.reset();
  }
  /// Frees the factors kept for later events (the pattern stays: IDA's Jacobian uses it), for
  /// a run that will have none.
  void release_factors() { workspace_.release_factors(); }

 private:
  [[nodiscard]] JumpProblem problem(double t, std::span<const RowKind> row_kinds,
                                    FixedValues fixed);
  /// algebraic_unknowns in the caller's phase: F(x, e_j) - F(x, 0) per column (coloured),
  /// refusing a constraint row that depends on a der_x.
  [[nodiscard]] std::vector<bool> probe_derivatives(double t, std::span<const RowKind> row_kinds,
                                                    std::span<const double> x);
  /// probe_derivatives for row kinds not checked before (t0, and events that change them);
  /// its answer is kept in checked_ (without x, which make_consistent adds).
  void check_constraint_rows(double t, std::span<const RowKind> row_kinds,
                             std::span<const double> x);
  [[noreturn]] void refuse_derivative_in_constraint(double t, std::size_t row,
                                                    std::size_t variable);
  [[nodiscard]] std::string mode_description(std::span<const RowKind> row_kinds) const;
  /// make_consistent with impulse sources: the unknowns' kinds, then impact().
  ConsistencyReport impact_at(double t, std::span<const RowKind> row_kinds, FixedValues fixed,
                              std::span<const std::size_t> impulse_sources, std::vector<double>& x,
                              std::span<const double> der_x);
  /// The jump over the impulses of the sources (see make_consistent).
  ConsistencyReport impact(JumpProblem& p, std::span<const std::size_t> sources,
                           const std::vector<bool>& algebraic, std::vector<double>& x,
                           std::span<const double> der_x);
  /// Sets report.failure from a failed solve of p: status, message, the hidden constraints
  /// tried and the mode.
  ConsistencyReport& failed(ConsistencyReport& report, SolveStatus status,
                            const std::string& message, const JumpProblem& p) const;

  detail::ModelCalls& model_;
  ReinitSettings settings_;
  Workspace workspace_;
  /// What the last make_consistent's constraint-row check found: the algebraic unknowns at
  /// (t, x) with checked_kinds_, for the algebraic_unknowns call that follows it.
  struct CheckedPoint {
    double t = 0.0;
    std::vector<double> x;  ///< empty until make_consistent knows x is still the checked one
    std::vector<bool> algebraic;
  };

  std::vector<RowKind> checked_kinds_;    ///< the row kinds check_constraint_rows last passed
  std::optional<CheckedPoint> checked_;   ///< see CheckedPoint; taken by algebraic_unknowns
  std::vector<HiddenConstraint> hidden_;  ///< those the last make_consistent used
};

}  // namespace hdae::reinit
