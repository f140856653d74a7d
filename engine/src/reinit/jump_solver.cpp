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

#include "linalg/fd_jacobian.hpp"
#include "linalg/linear_solver.hpp"
#include "linalg/rank_diagnosis.hpp"
#include "reinit/already_consistent.hpp"
#include "reinit/jump_solver.hpp"
#include "reinit/jump_system.hpp"
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
  Workspace& workspace;
  const linalg::ColouredPattern* pattern;
  bool least_squares;  ///< fixed start values: least-squares steps (ITI paper section 5)
  Eigen::VectorXd inv_row_scale;
};

/// The unknowns z, the residual g = G(z) and the scaled residual r = g / row scale.
struct Iterate {
  Eigen::VectorXd z;
  Eigen::VectorXd g;
  Eigen::VectorXd r;
};

/// A Newton direction in u = z / nominal and the rank of the matrix it was solved with.
struct NewtonDirection {
  Eigen::VectorXd du;
  bool minimum_norm = true;
  Eigen::Index rank = 0;
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
void warn_rank_deficiency(NewtonRun& run, const linalg::JacobianMatrix& scaled, bool minimum_norm,
                          const Eigen::VectorXd& z, const Eigen::VectorXd& g, JumpOutcome& out) {
  const linalg::RankDeficiency d =
      linalg::analyse_rank(scaled, linalg::WeakestDirection::kOnlyIfRankDeficient);
  const double t = run.problem.t;
  std::vector<std::size_t> open;
  for (const std::size_t j : d.undetermined_columns) {
    if (!run.system.is_fixed(j)) open.push_back(j);  // a fixed column is only a slack
  }
  if (!open.empty()) {
    out.warnings.push_back(fmt::format(
        "jump at t = {}: with fixed start values the jump equations are under-determined: "
        "variables {} are not determined; {}",
        t, linalg::variable_list(run.structure, open),
        minimum_norm ? "they change as little as possible (minimum-norm answer)"
                     : "a basic least-squares answer is used"));
  }
  if (!d.dependent_rows.empty()) {
    out.warnings.push_back(fmt::format(
        "jump at t = {}: with the start values of {} fixed the jump equations are "
        "over-determined: equations {} are dependent and are met in the least-squares sense",
        t, linalg::variable_list(run.structure, fixed_entering(run, z, g, d.dependent_rows)),
        linalg::equation_list(run.structure, d.dependent_rows)));
  }
}

JumpOutcome finish(JumpOutcome out, SolveStatus status, std::string message) {
  out.status = status;
  out.message = std::move(message);
  return out;
}

/// Rows scaled by their largest sensitivity to a nominal-sized change: the reciprocal scales.
Eigen::VectorXd inverse_row_scale(const linalg::JacobianMatrix& jac,
                                  const Eigen::VectorXd& nominal) {
  Eigen::VectorXd row_scale = jac.row_max_abs(nominal);
  for (double& s : row_scale) {
    if (!(s > 0.0) || !std::isfinite(s)) s = 1.0;  // a row that no unknown moves
  }
  return row_scale.cwiseInverse();
}

/// The Newton direction from jac du = -r (jac scaled): by LU for the square system, in the
/// least-squares sense with fixed start values. Nothing when the LU finds jac singular.
std::optional<NewtonDirection> newton_direction(NewtonRun& run, const linalg::JacobianMatrix& jac,
                                                const Eigen::VectorXd& r) {
  NewtonDirection direction;
  direction.rank = jac.size();
  if (!run.least_squares) {
    linalg::SquareSolver& lu = run.workspace.square_solver();
    if (!lu.factorize(jac, run.problem.row_kinds)) return std::nullopt;
    direction.du = lu.solve(-r);
  } else {
    linalg::LeastSquaresSolver ls;
    ls.factorize(jac);
    direction.du = ls.solve(-r);
    direction.rank = ls.rank();
    direction.minimum_norm = ls.is_minimum_norm();
  }
  return direction;
}

/// The outcome of a singular jump matrix: which variables and equations make it so.
JumpOutcome singular_jump_matrix(NewtonRun& run, const linalg::JacobianMatrix& jac,
                                 const Iterate& it, JumpOutcome out) {
  out.x_plus = run.system.x_plus(it.z);
  return finish(
      std::move(out), SolveStatus::kSingular,
      linalg::describe_singular("the jump matrix [M_d; df_c/dx]", run.problem.t, run.structure,
                                linalg::analyse_rank(jac, linalg::WeakestDirection::kAlways)));
}

/// Unknowns that a full step du from z would take out of their feasible region.
std::vector<std::size_t> leaving_region(const JumpSystem& system, const Eigen::VectorXd& z,
                                        const Eigen::VectorXd& du) {
  std::vector<std::size_t> out;
  for (Eigen::Index j = 0; j < z.size(); ++j) {
    const double next = z[j] + system.nominal()[j] * du[j];
    if (next < system.lower()[j] || next > system.upper()[j]) {
      out.push_back(static_cast<std::size_t>(j));
    }
  }
  return out;
}

/// ITI paper section 6, first choice: a step that would leave the feasible region is replaced
/// by one parallel to the border (the leaving unknowns held, the rest a minimum-norm step)
/// when the linearised equations are met as well by it, i.e. when they leave room (a kernel).
Eigen::VectorXd parallel_to_border(const JumpSystem& system, const linalg::JacobianMatrix& jac,
                                   const Iterate& it, Eigen::VectorXd du) {
  const Eigen::VectorXd& r = it.r;
  const std::vector<std::size_t> leaving = leaving_region(system, it.z, du);
  if (leaving.empty()) return du;
  linalg::JacobianMatrix held = jac;
  Eigen::VectorXd keep = Eigen::VectorXd::Ones(du.size());
  for (const std::size_t j : leaving) keep[static_cast<Eigen::Index>(j)] = 0.0;
  held.scale(Eigen::VectorXd::Ones(du.size()), keep);
  linalg::LeastSquaresSolver ls;
  ls.factorize(held);
  Eigen::VectorXd along = ls.solve(-r).cwiseProduct(keep);
  const double miss = (jac.multiply(along) + r).norm();
  const double full_miss = (jac.multiply(du) + r).norm();
  if (along.allFinite() && miss <= full_miss + 1e-8 * r.norm()) return along;
  return du;
}

/// ITI paper section 6, otherwise: the largest fraction (<= 1) of the step du from z that
/// goes at most 90 % of the way to the border of the feasible region.
double feasible_fraction(const JumpSystem& system, const Eigen::VectorXd& z,
                         const Eigen::VectorXd& du) {
  constexpr double kShare = 0.9;
  double alpha = 1.0;
  for (Eigen::Index j = 0; j < z.size(); ++j) {
    const double s = system.nominal()[j] * du[j];
    if (s < 0.0 && std::isfinite(system.lower()[j])) {
      alpha = std::min(alpha, kShare * (z[j] - system.lower()[j]) / -s);
    } else if (s > 0.0 && std::isfinite(system.upper()[j])) {
      alpha = std::min(alpha, kShare * (system.upper()[j] - z[j]) / s);
    }
  }
  return alpha;
}

/// Backtracking (Armijo) line search along du from it.z, starting at the fraction reach of
/// the step; step = max_abs(du). Moves it to the accepted point and returns the step fraction
/// taken. Nothing when no fraction down to kMinStepFraction lowers the residual: it.z and
/// it.r are then unchanged.
std::optional<double> line_search(NewtonRun& run, const linalg::JacobianMatrix& jac,
                                  const Eigen::VectorXd& du, double step, double reach,
                                  Iterate& it) {
  const Eigen::VectorXd& nominal = run.system.nominal();
  const double tol = run.problem.tolerance;
  // Backtracking on phi = |r|^2 / 2; the predicted decrease of a full step is |A du|^2.
  const double phi = 0.5 * it.r.squaredNorm();
  const double predicted = jac.multiply(du).squaredNorm();
  double alpha = reach;
  Eigen::VectorXd z_try;
  Eigen::VectorXd r_try;
  while (true) {
    z_try = it.z + alpha * nominal.cwiseProduct(du);
    run.system.residual(z_try, it.g);
    r_try = it.g.cwiseProduct(run.inv_row_scale);
    const bool finite = r_try.allFinite();
    if (finite && (step < tol || max_abs(r_try) < tol ||
                   0.5 * r_try.squaredNorm() <= phi - kArmijo * alpha * predicted)) {
      break;
    }
    alpha *= 0.5;
    if (alpha < kMinStepFraction) return std::nullopt;
  }
  it.z = z_try;
  it.r = r_try;
  return alpha;
}

/// After a step of alpha * du: the final outcome when the run converged (small update and
/// small residual) or stopped at a stationary least-squares point; nothing to go on.
std::optional<JumpOutcome> converged_or_stationary(NewtonRun& run,
                                                   const linalg::JacobianMatrix& jac,
                                                   const NewtonDirection& direction, double step,
                                                   double alpha, const Iterate& it,
                                                   JumpOutcome& out) {
  const double tol = run.problem.tolerance;
  const bool update_small = alpha * step < tol;
  if (update_small && max_abs(it.r) < tol) {
    if (run.least_squares && direction.rank < jac.size()) {
      warn_rank_deficiency(run, jac, direction.minimum_norm, it.z, it.g, out);
    }
    return std::move(out);
  }
  if (run.least_squares && step < tol) {
    // Stationary least-squares point with a residual left: the fixed values contradict
    // the equations (ITI paper section 5: over-determined and not "correctly modelled").
    warn_rank_deficiency(run, jac, direction.minimum_norm, it.z, it.g, out);
    const std::vector<std::size_t> unmet = rows_above(it.r, tol);
    return finish(
        std::move(out), SolveStatus::kNotConverged,
        fmt::format("jump at t = {}: the fixed start values of {} cannot all be "
                    "met: equations {} are not satisfied (largest scaled residual "
                    "{:.3g})",
                    run.problem.t,
                    linalg::variable_list(run.structure, fixed_entering(run, it.z, it.g, unmet)),
                    linalg::equation_list(run.structure, unmet), max_abs(it.r)));
  }
  return std::nullopt;
}

/// "; the Newton step would leave the feasible region of {...}" when it would, else "".
std::string region_note(const NewtonRun& run, const Eigen::VectorXd& z, const Eigen::VectorXd& du) {
  const std::vector<std::size_t> leaving = leaving_region(run.system, z, du);
  if (leaving.empty()) return "";
  return fmt::format(
      "; the Newton step would leave the feasible region (min/max) of {}: the solution may lie "
      "outside it",
      linalg::variable_list(run.structure, leaving));
}

/// Newton iterations from it (jac: the unscaled Newton matrix at it.z, it.r already scaled).
JumpOutcome newton_iterations(NewtonRun& run, linalg::JacobianMatrix& jac, Iterate& it,
                              JumpOutcome out) {
  const double tol = run.problem.tolerance;
  const double t = run.problem.t;
  for (int k = 1; k <= run.problem.max_iterations; ++k) {
    if (!jac.all_finite()) {
      out.x_plus = run.system.x_plus(it.z);
      return finish(std::move(out), SolveStatus::kNotConverged,
                    fmt::format("jump at t = {}: the jump equations have no finite derivative "
                                "at iteration {}",
                                t, k));
    }
    jac.scale(run.inv_row_scale, run.system.nominal());  // Newton matrix in u = z / nominal
    std::optional<NewtonDirection> direction = newton_direction(run, jac, it.r);
    if (!direction) return singular_jump_matrix(run, jac, it, std::move(out));
    direction->du = parallel_to_border(run.system, jac, it, std::move(direction->du));

    const double step = max_abs(direction->du);
    const double reach = feasible_fraction(run.system, it.z, direction->du);
    const std::optional<double> alpha = reach < kMinStepFraction
                                            ? std::nullopt
                                            : line_search(run, jac, direction->du, step, reach, it);
    if (!alpha) {
      out.x_plus = run.system.x_plus(it.z);
      out.iterations = k;
      return finish(std::move(out), SolveStatus::kNotConverged,
                    fmt::format("jump at t = {}: no step lowers the residual of the jump "
                                "equations (iteration {}); largest residuals in equations {}{}",
                                t, k, linalg::equation_list(run.structure, rows_above(it.r, tol)),
                                region_note(run, it.z, direction->du)));
    }
    out.iterations = k;
    out.x_plus = run.system.x_plus(it.z);
    out.impulse_integrals = run.system.impulse_integrals(it.z);
    std::optional<JumpOutcome> done =
        converged_or_stationary(run, jac, *direction, step, *alpha, it, out);
    if (done) return std::move(*done);
    run.system.jacobian(it.z, it.g, run.pattern, jac);
  }
  return finish(std::move(out), SolveStatus::kNotConverged,
                fmt::format("jump at t = {}: the jump equations did not converge "
                            "(max_iterations = {}); largest residuals in equations {}",
                            t, run.problem.max_iterations,
                            linalg::equation_list(run.structure, rows_above(it.r, tol))));
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
  NewtonRun run{
      problem, *problem.structure, system, workspace, workspace.pattern(), system.any_fixed(), {}};

  Iterate it{system.initial_iterate(), {}, {}};
  out.impulse_integrals = system.impulse_integrals(it.z);
  system.residual(it.z, it.g);
  if (!it.g.allFinite()) {
    return finish(
        std::move(out), SolveStatus::kNotConverged,
        fmt::format("jump at t = {}: the residual is not finite at x^- in equations {}", problem.t,
                    linalg::equation_list(run.structure, non_finite_rows(it.g))));
  }
  // Nothing to change: every f_d difference is zero and every f_c row holds exactly.
  if ((it.g.array() == 0.0).all()) return out;
  // The same verdict as the test below, from the f_c rows' part of the Newton matrix alone.
  if (already_consistent(problem, system, it.z, it.g, run.pattern)) return out;

  linalg::JacobianMatrix jac;
  system.jacobian(it.z, it.g, run.pattern, jac);
  system.scale_impulses(jac);
  run.inv_row_scale = inverse_row_scale(jac, system.nominal());
  it.r = it.g.cwiseProduct(run.inv_row_scale);
  if (max_abs(it.r) < problem.tolerance) return out;  // x^- already consistent to the tolerance
  return newton_iterations(run, jac, it, std::move(out));
}

}  // namespace hdae::reinit
