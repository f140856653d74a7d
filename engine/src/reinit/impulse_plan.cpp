#include "reinit/impulse_plan.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "linalg/fd_jacobian.hpp"
#include "linalg/rank_diagnosis.hpp"

namespace hdae::reinit {
namespace {

/// The f_c rows whose residual moves with x_j at (t, x, der_x); r0 = F(t, x, der_x).
std::vector<std::size_t> constraint_rows_holding(const JumpProblem& p, std::vector<double>& x,
                                                 std::span<const double> der_x,
                                                 std::span<const double> r0, std::size_t j) {
  const double saved = x[j];
  x[j] = saved + linalg::difference_increment(saved, p.structure->variables.nominal(j));
  std::vector<double> r1(x.size());
  p.residual(p.t, x, der_x, r1);
  x[j] = saved;
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (p.row_kinds[i] == RowKind::kConstraint && r1[i] != r0[i]) rows.push_back(i);
  }
  return rows;
}

}  // namespace

ImpulsePlan plan_impulses(const JumpProblem& p, std::span<const double> x,
                          std::span<const double> der_x, std::span<const std::size_t> sources,
                          const std::vector<bool>& algebraic) {
  const std::size_t n = x.size();
  ImpulsePlan plan;
  plan.impulsive.assign(n, 0);
  plan.integrated.assign(n, 0);
  for (const std::size_t j : sources) {
    if (!algebraic[j]) {
      plan.error = fmt::format(
          "impulse source {} is not an algebraic unknown in this mode (its derivative enters "
          "an equation of motion); mark the force that acts, not a state",
          linalg::variable_list(*p.structure, {j}));
      return plan;
    }
  }
  std::vector<double> point(x.begin(), x.end());
  std::vector<double> r0(n);
  p.residual(p.t, point, der_x, r0);
  // Which f_c rows each algebraic unknown enters, probed once per unknown when first needed.
  std::vector<std::vector<std::size_t>> rows_of(n);
  std::vector<char> probed(n, 0);
  const auto rows_holding = [&](std::size_t j) -> const std::vector<std::size_t>& {
    if (probed[j] == 0) {
      rows_of[j] = constraint_rows_holding(p, point, der_x, r0, j);
      probed[j] = 1;
    }
    return rows_of[j];
  };
  std::vector<std::size_t> frontier(sources.begin(), sources.end());
  for (const std::size_t j : frontier) plan.impulsive[j] = 1;
  while (!frontier.empty()) {
    const std::size_t j = frontier.back();
    frontier.pop_back();
    for (const std::size_t i : rows_holding(j)) {
      if (plan.integrated[i] != 0) continue;
      plan.integrated[i] = 1;
      // Every algebraic unknown of an integrated f_c row carries a Dirac with it.
      for (std::size_t k = 0; k < n; ++k) {
        if (!algebraic[k] || plan.impulsive[k] != 0) continue;
        const std::vector<std::size_t>& rows = rows_holding(k);
        if (std::find(rows.begin(), rows.end(), i) == rows.end()) continue;
        plan.impulsive[k] = 1;
        frontier.push_back(k);
      }
    }
  }
  return plan;
}

}  // namespace hdae::reinit
