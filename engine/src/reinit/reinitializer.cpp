#include "reinit/reinitializer.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "linalg/rank_diagnosis.hpp"
#include "model/row_sizes.hpp"
#include "reinit/hidden_constraints.hpp"
#include "reinit/impulse_plan.hpp"

namespace hdae::reinit {
namespace {

Workspace make_workspace(std::optional<sparsity::SparsityPattern> pattern) {
  if (pattern) return Workspace(std::move(*pattern));
  return Workspace();
}

Outcome outcome_of(SolveStatus status) {
  return status == SolveStatus::kSingular ? Outcome::kSingularJacobian : Outcome::kJumpSolveFailure;
}

}  // namespace

Reinitializer::Reinitializer(detail::ModelCalls& model, ReinitSettings settings,
                             std::optional<sparsity::SparsityPattern> pattern)
    : model_(model), settings_(settings), workspace_(make_workspace(std::move(pattern))) {}

JumpProblem Reinitializer::problem(double t, std::span<const RowKind> row_kinds,
                                   FixedValues fixed) {
  JumpProblem p;
  p.structure = &model_.structure();
  p.row_kinds = row_kinds;
  p.residual = [this](double tt, std::span<const double> x, std::span<const double> der_x,
                      std::span<double> r) {
    // The jump solve's evaluations are no crossings' (the event iteration's own pass is).
    model_.evaluate(tt, x, der_x, r, {}, EvaluationPhase::kContinuous, CrossingValues::kUnused);
  };
  if (model_.model().provides_constraint_time_derivative()) {
    p.constraint_time_derivative = [this](double tt, std::span<const double> x,
                                          std::span<double> dfc_dt) {
      model_.constraint_time_derivative(tt, x, dfc_dt);
    };
  }
  p.t = t;
  p.rule = settings_.rule;
  p.fixed_values = fixed;
  p.tolerance = settings_.tolerance;
  p.max_iterations = settings_.max_iterations;
  p.workspace = &workspace_;
  p.row_sizes = dynamic_cast<const detail::RowSizes*>(&model_.model());
  return p;
}

ConsistencyReport Reinitializer::make_consistent(double t, std::span<const RowKind> row_kinds,
                                                 FixedValues fixed, std::vector<double>& x,
                                                 std::vector<double>& der_x,
                                                 std::span<const std::size_t> impulse_sources) {
  checked_.reset();
  {
    detail::PhaseScope scope(model_, detail::ModelPhase::kJumpSolve);
    check_constraint_rows(t, row_kinds, x);
  }
  if (!impulse_sources.empty()) return impact_at(t, row_kinds, fixed, impulse_sources, x, der_x);
  detail::PhaseScope scope(model_, detail::ModelPhase::kJumpSolve);
  JumpProblem p = problem(t, row_kinds, fixed);
  ConsistencyReport report;
  std::vector<double> x_minus = x;
  detail::LeftLimitScope left_limits(model_, x_minus);
  JumpOutcome jump = solve_jump(p, x);
  // A singular matrix may come from f_d rows whose derivatives cancel (a singular M_d): then
  // both solves start again with the hidden constraints those rows imply (hidden_constraints.hpp).
  std::vector<HiddenConstraint> hidden;
  const auto with_hidden_constraints = [&](std::span<const double> at) {
    hidden = find_hidden_constraints(p, at);
    if (hidden.empty()) return false;
    p.hidden = hidden;
    jump = solve_jump(p, x_minus);
    return true;
  };
  report.newton_iterations += jump.iterations;
  if (jump.status == SolveStatus::kSingular) {
    if (with_hidden_constraints(x_minus)) {
      report.newton_iterations += jump.iterations;
    } else if (std::any_of(der_x.begin(), der_x.end(), [](double d) { return d != 0.0; })) {
      // A row nonlinear in der_x may have a jump equation whose derivative vanishes at base
      // 0 (D^3 = 0): take it at the left-limit derivative instead.
      p.jump_base = der_x;
      jump = solve_jump(p, x_minus);
      report.newton_iterations += jump.iterations;
    }
  }
  report.warnings = std::move(jump.warnings);
  if (jump.status != SolveStatus::kOk) return failed(report, jump.status, jump.message, p);
  x = std::move(jump.x_plus);
  DerivativeOutcome derivatives = consistent_derivatives(p, x);
  if (derivatives.status == SolveStatus::kSingular && p.hidden.empty() &&
      with_hidden_constraints(x)) {
    report.newton_iterations += jump.iterations;
    if (jump.status != SolveStatus::kOk) return failed(report, jump.status, jump.message, p);
    x = std::move(jump.x_plus);
    derivatives = consistent_derivatives(p, x);
  }
  if (derivatives.status != SolveStatus::kOk) {
    return failed(report, derivatives.status, derivatives.message, p);
  }
  der_x = std::move(derivatives.der_x);
  hidden_.assign(p.hidden.begin(), p.hidden.end());
  // The check's x, for algebraic_unknowns to compare with the x it is given.
  if (checked_) checked_->x = std::move(x_minus);
  return report;
}

ConsistencyReport Reinitializer::impact_at(double t, std::span<const RowKind> row_kinds,
                                           FixedValues fixed,
                                           std::span<const std::size_t> impulse_sources,
                                           std::vector<double>& x, std::span<const double> der_x) {
  // The check make_consistent began with, when it ran, probed this x.
  const std::vector<bool> algebraic =
      checked_ ? std::move(checked_->algebraic) : algebraic_unknowns(t, row_kinds, x);
  checked_.reset();
  detail::PhaseScope scope(model_, detail::ModelPhase::kJumpSolve);
  const std::vector<double> x_minus = x;
  detail::LeftLimitScope left_limits(model_, x_minus);
  JumpProblem p = problem(t, row_kinds, fixed);
  return impact(p, impulse_sources, algebraic, x, der_x);
}

std::optional<std::vector<double>> Reinitializer::second_derivatives(
    double t, std::span<const RowKind> row_kinds, std::span<const double> x,
    std::span<const double> der_x, double dt) {
  detail::PhaseScope scope(model_, detail::ModelPhase::kJumpSolve);
  // The step actually taken, (t + dt) - t, so the quotient carries no rounding of t.
  const double step = (t + dt) - t;
  if (!(step > 0.0) || !std::isfinite(step)) return std::nullopt;
  JumpProblem p = problem(t + step, row_kinds, FixedValues::kIgnore);
  p.hidden = hidden_;
  std::vector<double> ahead(x.size());
  for (std::size_t j = 0; j < x.size(); ++j) ahead[j] = x[j] + step * der_x[j];
  DerivativeOutcome derivatives = consistent_derivatives(p, ahead);
  if (derivatives.status != SolveStatus::kOk) return std::nullopt;
  std::vector<double> second = std::move(derivatives.der_x);
  for (std::size_t j = 0; j < x.size(); ++j) {
    second[j] = (second[j] - der_x[j]) / step;
    if (!std::isfinite(second[j])) return std::nullopt;
  }
  return second;
}

ConsistencyReport Reinitializer::impact(JumpProblem& p, std::span<const std::size_t> sources,
                                        const std::vector<bool>& algebraic, std::vector<double>& x,
                                        std::span<const double> der_x) {
  ConsistencyReport report;
  const ImpulsePlan plan = plan_impulses(p, x, der_x, sources, algebraic);
  if (!plan.error.empty()) {
    report.failure = SimulationStatus{Outcome::kJumpSolveFailure, p.t,
                                      fmt::format("impact at t = {}: {} (mode: {})", p.t,
                                                  plan.error, mode_description(p.row_kinds))};
    return report;
  }
  p.impulsive = plan.impulsive;
  p.integrated = plan.integrated;
  JumpOutcome jump = solve_jump(p, x);
  report.newton_iterations = jump.iterations;
  report.warnings = std::move(jump.warnings);
  if (jump.status != SolveStatus::kOk) {
    return failed(report, jump.status, "impact: " + jump.message, p);
  }
  x = std::move(jump.x_plus);
  for (std::size_t j = 0; j < x.size(); ++j) {
    if (plan.impulsive[j] != 0) report.impulses.push_back({j, jump.impulse_integrals[j]});
  }
  return report;
}

ConsistencyReport& Reinitializer::failed(ConsistencyReport& report, SolveStatus status,
                                         const std::string& message, const JumpProblem& p) const {
  std::string hidden;
  if (!p.hidden.empty()) {
    std::vector<std::size_t> rows;
    for (const HiddenConstraint& h : p.hidden) {
      rows.insert(rows.end(), h.rows.begin(), h.rows.end());
    }
    hidden = fmt::format(
        "; the mass matrix of the f_d rows is singular: {} hidden constraint(s), sums of "
        "equations {} that hold no derivative, were added and differentiated once (a J "
        "still singular after that means an index above 1)",
        p.hidden.size(), linalg::equation_list(*p.structure, rows));
  }
  report.failure = SimulationStatus{
      outcome_of(status), p.t,
      fmt::format("{}{} (mode: {})", message, hidden, mode_description(p.row_kinds))};
  return report;
}

std::vector<bool> Reinitializer::algebraic_unknowns(double t, std::span<const RowKind> row_kinds,
                                                    std::span<const double> x) {
  std::optional<CheckedPoint> checked = std::move(checked_);
  checked_.reset();
  // The probe is a function of (t, x) and the row kinds: the check's answer is this one.
  if (checked && checked->t == t && !checked->x.empty() &&
      std::equal(x.begin(), x.end(), checked->x.begin(), checked->x.end()) &&
      std::equal(row_kinds.begin(), row_kinds.end(), checked_kinds_.begin(),
                 checked_kinds_.end())) {
    return std::move(checked->algebraic);
  }
  detail::PhaseScope scope(model_, detail::ModelPhase::kIntegration);
  return probe_derivatives(t, row_kinds, x);
}

void Reinitializer::check_constraint_rows(double t, std::span<const RowKind> row_kinds,
                                          std::span<const double> x) {
  // Once per set of row kinds (at t0 and after an event that changed them), before the jump
  // solve reads the constraint rows with der_x = 0.
  if (std::equal(row_kinds.begin(), row_kinds.end(), checked_kinds_.begin(),
                 checked_kinds_.end())) {
    return;
  }
  checked_ = CheckedPoint{.t = t, .x = {}, .algebraic = probe_derivatives(t, row_kinds, x)};
  checked_kinds_.assign(row_kinds.begin(), row_kinds.end());
}

std::vector<bool> Reinitializer::probe_derivatives(double t, std::span<const RowKind> row_kinds,
                                                   std::span<const double> x) {
  const std::size_t n = x.size();
  std::vector<bool> algebraic(n, true);
  std::vector<double> probe(n, 0.0), r0(n), r1(n);
  // probe is zero between the probes of the colours, so it is der_x = 0 here too.
  model_.evaluate(t, x, probe, r0, {}, EvaluationPhase::kContinuous, CrossingValues::kUnused);
  const linalg::ColouredPattern* coloured = workspace_.pattern();
  auto probe_columns = [&](std::span<const sparsity::Index> columns) {
    for (const std::size_t j : columns) probe[j] = 1.0;
    model_.evaluate(t, x, probe, r1, {}, EvaluationPhase::kContinuous, CrossingValues::kUnused);
    for (const std::size_t j : columns) {
      probe[j] = 0.0;
      const auto depends = [&](std::size_t i) {
        if (r1[i] == r0[i]) return false;
        if (row_kinds[i] == RowKind::kConstraint) refuse_derivative_in_constraint(t, i, j);
        return true;
      };
      if (coloured != nullptr) {
        const sparsity::SparsityPattern& p = coloured->pattern;
        for (std::size_t k = p.col_start[j]; k < p.col_start[j + 1]; ++k) {
          if (depends(p.row_index[k])) algebraic[j] = false;
        }
      } else {
        for (std::size_t i = 0; i < n; ++i) {
          if (depends(i)) algebraic[j] = false;
        }
      }
    }
  };
  if (coloured != nullptr) {
    for (const auto& columns : coloured->pattern.columns_of_color) probe_columns(columns);
  } else {
    for (sparsity::Index j = 0; j < n; ++j) probe_columns(std::span<const sparsity::Index>(&j, 1));
  }
  return algebraic;
}

void Reinitializer::refuse_derivative_in_constraint(double t, std::size_t row,
                                                    std::size_t variable) {
  // The jump solve and the consistent derivatives read a constraint row as f_c(x) = 0 with
  // der_x = 0 (jump_system.hpp); a der_x in it would silently be dropped there.
  const ModelStructure& s = model_.structure();
  model_.fail(t, fmt::format("row '{}' is declared a constraint but depends on der({}); a "
                             "constraint row must not contain derivatives (declare it "
                             "RowKind::kDifferential)",
                             s.equations.name(row), s.variables.name(variable)));
}

std::string Reinitializer::mode_description(std::span<const RowKind> row_kinds) const {
  std::vector<std::size_t> constraints;
  for (std::size_t i = 0; i < row_kinds.size(); ++i) {
    if (row_kinds[i] == RowKind::kConstraint) constraints.push_back(i);
  }
  if (constraints.empty()) return "no constraint rows";
  // The first dozen by name and a count of the rest, like the diagnosis it follows: a mode
  // of 10^5 constraint rows would otherwise make a message of megabytes.
  return "constraint rows " + linalg::equation_list(model_.structure(), constraints);
}

}  // namespace hdae::reinit
