// solve_jump: Newton's method on the jump equations of jump_system.hpp
// (docs/design.md, "The jump solve").
//
// Unknowns are scaled by their nominal values, residual rows by their largest sensitivity to
// a nominal-sized change (taken once, at x^-), so that the tolerance reads "fraction of a
// nominal value" for every row and every unknown. Each iteration takes a finite-difference
// Newton matrix and a backtracking (Armijo) line search on half the squared scaled residual.
// With fixed start values (ITI paper sections 4 and 5) the step is a minimum-norm
// least-squares one, and rank deficiency is reported as an under- or over-determined system.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include <fmt/format.h>

#include "reinit/fd_jacobian.hpp"
#include "reinit/jump_solver.hpp"
#include "reinit/jump_system.hpp"
#include "reinit/linear_solver.hpp"
#include "reinit/rank_diagnosis.hpp"
#include "reinit/workspace.hpp"

namespace hdae::reinit {
namespace {

/// Sufficient-decrease factor of the Armijo line search (the customary value).
constexpr double kArmijo = 1e-4;
/// The line search gives up when the step has been halved this far.
constexpr double kMinStepFraction = 1.0 / 1024.0;
/// A fixed value enters an equation when a nominal-sized change of it moves the scaled
/// residual by more than this (finite-difference noise is ~1e-8).
constexpr double kInvolvement = 1e-6;

double max_abs(const Eigen::VectorXd& v) { return v.size() == 0 ? 0.0 : v.cwiseAbs().maxCoeff(); }

/// Rows whose |value| is at least threshold (or not finite), largest first.
std::vector<std::size_t> rows_above(const Eigen::VectorXd& v, double threshold) {
  std::vector<std::size_t> rows;
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (!(std::abs(v[i]) < threshold)) rows.push_back(static_cast<std::size_t>(i));
  }
  std::stable_sort(rows.begin(), rows.end(), [&](std::size_t a, std::size_t b) {
    return std::abs(v[static_cast<Eigen::Index>(a)]) > std::abs(v[static_cast<Eigen::Index>(b)]);
  });
  return rows;
}

std::vector<std::size_t> non_finite_rows(const Eigen::VectorXd& v) {
  std::vector<std::size_t> rows;
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) rows.push_back(static_cast<std::size_t>(i));
  }
  return rows;
}

/// Everything one Newton run needs besides the iterate.
struct NewtonRun {
  const JumpProblem& problem;
  const ModelStructure& structure;
  JumpSystem& system;
  const ColouredPattern* pattern;
  Eigen::VectorXd inv_row_scale;
};

/// Fixed variables whose value enters one of the rows (scaled sensitivity above kInvolvement).
std::vector<std::size_t> fixed_entering(NewtonRun& run, const Eigen::VectorXd& z,
                                        const Eigen::VectorXd& g,
                                        const std::vector<std::size_t>& rows) {
  std::vector<std::size_t> out;
  for (std::size_t j = 0; j < static_cast<std::size_t>(z.size()); ++j) {
    if (!run.system.is_fixed(j)) continue;
    const Eigen::VectorXd s = run.system.fixed_value_sensitivity(z, g, j);
    const double nominal = run.system.nominal()[static_cast<Eigen::Index>(j)];
    const bool enters = std::any_of(rows.begin(), rows.end(), [&](std::size_t i) {
      const auto k = static_cast<Eigen::Index>(i);
      return std::abs(s[k] * run.inv_row_scale[k]) * nominal > kInvolvement;
    });
    if (enters) out.push_back(j);
  }
  if (out.empty()) {  // the dependency is the model's own: name every fixed value
    for (std::size_t j = 0; j < static_cast<std::size_t>(z.size()); ++j) {
      if (run.system.is_fixed(j)) out.push_back(j);
    }
  }
  return out;
}

/// ITI paper section 5: with fixed values the square jump system may lose rank; say which
/// variables the equations leave open and which equations repeat each other.
void warn_rank_deficiency(NewtonRun& run, const JacobianMatrix& scaled, bool minimum_norm,
                          const Eigen::VectorXd& z, const Eigen::VectorXd& g, JumpOutcome& out) {
  const RankDeficiency d = analyse_rank(scaled, WeakestDirection::kOnlyIfRankDeficient);
  const double t = run.problem.t;
  std::vector<std::size_t> open;
  for (const std::size_t j : d.undetermined_columns) {
    if (!run.system.is_fixed(j)) open.push_back(j);  // a fixed column is only a slack
  }
  if (!open.empty()) {
    out.warnings.push_back(fmt::format(
        "jump at t = {}: with fixed start values the jump equations are under-determined: "
        "variables {} are not determined; {}",
        t, variable_list(run.structure, open),
        minimum_norm ? "they change as little as possible (minimum-norm answer)"
                     : "a basic least-squares answer is used"));
  }
  if (!d.dependent_rows.empty()) {
    out.warnings.push_back(fmt::format(
        "jump at t = {}: with the start values of {} fixed the jump equations are "
        "over-determined: equations {} are dependent and are met in the least-squares sense",
        t, variable_list(run.structure, fixed_entering(run, z, g, d.dependent_rows)),
        equation_list(run.structure, d.dependent_rows)));
  }
}

JumpOutcome finish(JumpOutcome out, SolveStatus status, std::string message) {
  out.status = status;
  out.message = std::move(message);
  return out;
}

}  // namespace

JumpOutcome solve_jump(const JumpProblem& problem, std::span<const double> x_minus) {
  validate_problem(problem, x_minus.size(), "solve_jump");
  JumpOutcome out;
  out.x_plus.assign(x_minus.begin(), x_minus.end());
  if (x_minus.empty()) return out;

  JumpSystem system(problem, x_minus);
  std::optional<Workspace> own_workspace;
  Workspace& workspace =
      problem.workspace != nullptr ? *problem.workspace : own_workspace.emplace();
  NewtonRun run{problem, *problem.structure, system, workspace.pattern(), {}};
  const Eigen::VectorXd& nominal = system.nominal();
  const double tol = problem.tolerance;
  const double t = problem.t;
  const bool least_squares = system.any_fixed();

  Eigen::VectorXd z = system.x_minus();
  Eigen::VectorXd g;
  system.residual(z, g);
  if (!g.allFinite()) {
    return finish(std::move(out), SolveStatus::kNotConverged,
                  fmt::format("jump at t = {}: the residual is not finite at x^- in equations {}",
                              t, equation_list(run.structure, non_finite_rows(g))));
  }
  // Nothing to change: every f_d difference is zero and every f_c row holds exactly.
  if ((g.array() == 0.0).all()) return out;

  JacobianMatrix jac = system.jacobian(z, g, run.pattern);
  Eigen::VectorXd row_scale = jac.row_max_abs(nominal);
  for (double& s : row_scale) {
    if (!(s > 0.0) || !std::isfinite(s)) s = 1.0;  // a row that no unknown moves
  }
  run.inv_row_scale = row_scale.cwiseInverse();
  Eigen::VectorXd r = g.cwiseProduct(run.inv_row_scale);
  if (max_abs(r) < tol) return out;  // x^- already consistent to the tolerance

  for (int k = 1; k <= problem.max_iterations; ++k) {
    if (!jac.all_finite()) {
      out.x_plus = system.x_plus(z);
      return finish(std::move(out), SolveStatus::kNotConverged,
                    fmt::format("jump at t = {}: the jump equations have no finite derivative "
                                "at iteration {}",
                                t, k));
    }
    jac.scale(run.inv_row_scale, nominal);  // Newton matrix in u = z / nominal
    Eigen::VectorXd du;
    bool minimum_norm = true;
    Eigen::Index rank = jac.size();
    if (!least_squares) {
      SquareSolver& lu = workspace.square_solver();
      if (!lu.factorize(jac, problem.row_kinds)) {
        out.x_plus = system.x_plus(z);
        return finish(std::move(out), SolveStatus::kSingular,
                      describe_singular("the jump matrix [M_d; df_c/dx]", t, run.structure,
                                        analyse_rank(jac, WeakestDirection::kAlways)));
      }
      du = lu.solve(-r);
    } else {
      LeastSquaresSolver ls;
      ls.factorize(jac);
      du = ls.solve(-r);
      rank = ls.rank();
      minimum_norm = ls.is_minimum_norm();
    }

    // Backtracking on phi = |r|^2 / 2; the predicted decrease of a full step is |A du|^2.
    const double step = max_abs(du);
    const double phi = 0.5 * r.squaredNorm();
    const double predicted = jac.multiply(du).squaredNorm();
    double alpha = 1.0;
    Eigen::VectorXd z_try;
    Eigen::VectorXd r_try;
    while (true) {
      z_try = z + alpha * nominal.cwiseProduct(du);
      system.residual(z_try, g);
      r_try = g.cwiseProduct(run.inv_row_scale);
      const bool finite = r_try.allFinite();
      if (finite && (step < tol || max_abs(r_try) < tol ||
                     0.5 * r_try.squaredNorm() <= phi - kArmijo * alpha * predicted)) {
        break;
      }
      alpha *= 0.5;
      if (alpha < kMinStepFraction) {
        out.x_plus = system.x_plus(z);
        out.iterations = k;
        return finish(std::move(out), SolveStatus::kNotConverged,
                      fmt::format("jump at t = {}: no step lowers the residual of the jump "
                                  "equations (iteration {}); largest residuals in equations {}",
                                  t, k, equation_list(run.structure, rows_above(r, tol))));
      }
    }
    z = z_try;
    r = r_try;
    out.iterations = k;
    out.x_plus = system.x_plus(z);

    const bool update_small = alpha * step < tol;
    if (update_small && max_abs(r) < tol) {
      if (least_squares && rank < jac.size()) {
        warn_rank_deficiency(run, jac, minimum_norm, z, g, out);
      }
      return out;
    }
    if (least_squares && step < tol) {
      // Stationary least-squares point with a residual left: the fixed values contradict
      // the equations (ITI paper section 5: over-determined and not "correctly modelled").
      warn_rank_deficiency(run, jac, minimum_norm, z, g, out);
      const std::vector<std::size_t> unmet = rows_above(r, tol);
      return finish(std::move(out), SolveStatus::kNotConverged,
                    fmt::format("jump at t = {}: the fixed start values of {} cannot all be "
                                "met: equations {} are not satisfied (largest scaled residual "
                                "{:.3g})",
                                t, variable_list(run.structure, fixed_entering(run, z, g, unmet)),
                                equation_list(run.structure, unmet), max_abs(r)));
    }
    jac = system.jacobian(z, g, run.pattern);
  }
  return finish(
      std::move(out), SolveStatus::kNotConverged,
      fmt::format("jump at t = {}: the jump equations did not converge "
                  "(max_iterations = {}); largest residuals in equations {}",
                  t, problem.max_iterations, equation_list(run.structure, rows_above(r, tol))));
}

}  // namespace hdae::reinit
