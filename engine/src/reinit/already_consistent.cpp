#include "reinit/already_consistent.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

#include "sparsity/coloured_differences.hpp"

namespace hdae::reinit {
namespace {

Eigen::Index idx(std::size_t i) { return static_cast<Eigen::Index>(i); }

/// Only f_c rows non-zero, and nothing that makes G on them other than F(t, x^+, 0).
bool applies(const JumpProblem& problem, const Eigen::VectorXd& g) {
  if (!problem.impulsive.empty() || !problem.integrated.empty() || !problem.hidden.empty() ||
      !problem.jump_base.empty()) {
    return false;
  }
  for (Eigen::Index i = 0; i < g.size(); ++i) {
    if (g[i] != 0.0 && problem.row_kinds[static_cast<std::size_t>(i)] != RowKind::kConstraint) {
      return false;
    }
  }
  return true;
}

/// The row scales of the non-zero rows of g: max_j |dG_i/dz_j| nominal_j over the entries the
/// whole matrix would store (solve_jump's inverse_row_scale, before its inversion). Empty when
/// an entry of such a row is not finite.
std::vector<double> row_scales(JumpSystem& system, const Eigen::VectorXd& z,
                               const Eigen::VectorXd& g, const linalg::ColouredPattern* pattern) {
  const auto n = static_cast<std::size_t>(z.size());
  const Eigen::VectorXd& h = system.increments(z);
  const Eigen::VectorXd& nominal = system.nominal();
  // Stepped as JumpSystem::jacobian steps z, so that each entry is the number it computes.
  Eigen::VectorXd stepped = z.array() + 0.0;
  Eigen::VectorXd after(z.size());
  std::vector<double> scale(n, 0.0);
  bool finite = true;
  const auto evaluate = [&](std::span<const sparsity::Index> columns) {
    for (const std::size_t j : columns) stepped[idx(j)] = z[idx(j)] + h[idx(j)];
    system.plus_residual(stepped, after);
    for (const std::size_t j : columns) stepped[idx(j)] = z[idx(j)] + 0.0;
    return 0;
  };
  const auto entry = [&](std::size_t i, std::size_t j) {
    if (g[idx(i)] == 0.0) return;
    const double a = (after[idx(i)] - g[idx(i)]) / h[idx(j)];
    finite = finite && std::isfinite(a);
    scale[i] = std::max(scale[i], std::abs(a) * nominal[idx(j)]);
  };
  if (pattern != nullptr) {
    sparsity::for_each_coloured_entry(
        pattern->pattern, evaluate,
        [&](std::size_t, std::size_t i, std::size_t j) { entry(i, j); });
  } else {
    for (sparsity::Index j = 0; j < n; ++j) {
      evaluate(std::span<const sparsity::Index>(&j, 1));
      for (std::size_t i = 0; i < n; ++i) entry(i, j);
    }
  }
  if (!finite) scale.clear();
  return scale;
}

}  // namespace

bool already_consistent(const JumpProblem& problem, JumpSystem& system, const Eigen::VectorXd& z,
                        const Eigen::VectorXd& g, const linalg::ColouredPattern* pattern) {
  if (!applies(problem, g)) return false;
  const std::vector<double> scale = row_scales(system, z, g, pattern);
  if (scale.empty()) return false;
  for (std::size_t i = 0; i < scale.size(); ++i) {
    if (g[idx(i)] == 0.0) continue;
    // As solve_jump's inverse_row_scale: a row that no unknown moves keeps its own size.
    const double s = scale[i] > 0.0 && std::isfinite(scale[i]) ? scale[i] : 1.0;
    if (!(std::abs(g[idx(i)] * (1.0 / s)) < problem.tolerance)) return false;
  }
  return true;
}

}  // namespace hdae::reinit
