#include "reinit/reinitializer.hpp"

#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

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
    model_.evaluate(tt, x, der_x, r, {}, EvaluationPhase::kContinuous);
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
  return p;
}

ConsistencyReport Reinitializer::make_consistent(double t, std::span<const RowKind> row_kinds,
                                                 FixedValues fixed, std::vector<double>& x,
                                                 std::vector<double>& der_x) {
  detail::PhaseScope scope(model_, detail::ModelPhase::kJumpSolve);
  const JumpProblem p = problem(t, row_kinds, fixed);
  ConsistencyReport report;
  JumpOutcome jump = solve_jump(p, x);
  report.newton_iterations = jump.iterations;
  report.warnings = std::move(jump.warnings);
  if (jump.status != SolveStatus::kOk) {
    report.failure =
        SimulationStatus{outcome_of(jump.status), t,
                         fmt::format("{} (mode: {})", jump.message, mode_description(row_kinds))};
    return report;
  }
  x = std::move(jump.x_plus);
  DerivativeOutcome derivatives = consistent_derivatives(p, x);
  if (derivatives.status != SolveStatus::kOk) {
    report.failure = SimulationStatus{
        outcome_of(derivatives.status), t,
        fmt::format("{} (mode: {})", derivatives.message, mode_description(row_kinds))};
    return report;
  }
  der_x = std::move(derivatives.der_x);
  return report;
}

std::vector<bool> Reinitializer::algebraic_unknowns(double t, std::span<const RowKind> row_kinds,
                                                    std::span<const double> x) {
  detail::PhaseScope scope(model_, detail::ModelPhase::kIntegration);
  const std::size_t n = x.size();
  std::vector<bool> algebraic(n, true);
  std::vector<double> zero(n, 0.0), probe(n, 0.0), r0(n), r1(n);
  model_.evaluate(t, x, zero, r0, {}, EvaluationPhase::kContinuous);
  const ColouredPattern* coloured = workspace_.pattern();
  auto probe_columns = [&](std::span<const std::size_t> columns) {
    for (const std::size_t j : columns) probe[j] = 1.0;
    model_.evaluate(t, x, probe, r1, {}, EvaluationPhase::kContinuous);
    for (const std::size_t j : columns) {
      probe[j] = 0.0;
      const auto depends = [&](std::size_t i) {
        return row_kinds[i] == RowKind::kDifferential && r1[i] != r0[i];
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
    for (std::size_t j = 0; j < n; ++j) probe_columns(std::span<const std::size_t>(&j, 1));
  }
  return algebraic;
}

std::string Reinitializer::mode_description(std::span<const RowKind> row_kinds) const {
  std::vector<std::string> constraints;
  const auto& equations = model_.structure().equations;
  for (std::size_t i = 0; i < row_kinds.size(); ++i) {
    if (row_kinds[i] == RowKind::kConstraint) constraints.push_back(equations[i].name);
  }
  if (constraints.empty()) return "no constraint rows";
  return fmt::format("constraint rows {{{}}}", fmt::join(constraints, ", "));
}

}  // namespace hdae::reinit
