// consistent_derivatives: der_x from J der_x = rhs (docs/design.md, "The jump solve").
//
// The f_d rows give M_d der_x = -b_d; the f_c rows, differentiated along the solution, give
// (d f_c/dx) der_x = -d f_c/dt. Because F is linear in der_x on the f_d rows, the columns of
// M_d are exact differences F(t, x, e_j) - F(t, x, 0) (no rounding from a step size), and
// -b_d is -F(t, x, 0). d f_c/dx and d f_c/dt are forward differences. The explicit time
// term d f_c/dt is kept: ModiaMath drops it, which makes der_x wrong for every constraint
// that depends on time (a prescribed motion, a time-varying source).
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "reinit/consistent_derivatives.hpp"
#include "reinit/fd_jacobian.hpp"
#include "reinit/jump_solver.hpp"
#include "reinit/jump_system.hpp"
#include "reinit/linear_solver.hpp"
#include "reinit/rank_diagnosis.hpp"
#include "reinit/workspace.hpp"

namespace hdae::reinit {
namespace {

Eigen::Index idx(std::size_t i) { return static_cast<Eigen::Index>(i); }

/// The model calls of one computation: F(t, x, 0) and the differences taken around it.
struct ResidualDifferences {
  const JumpProblem& problem;
  std::span<const double> x;
  const ColouredPattern* pattern;
  std::vector<double> zeros;
  std::vector<double> r0;  ///< F(t, x, 0)
  std::vector<double> r1;  ///< a perturbed residual; at the end d f_c/dt on the f_c rows
  std::vector<double> argument;

  ResidualDifferences(const JumpProblem& p, std::span<const double> x_in,
                      const ColouredPattern* pattern_ptr)
      : problem(p),
        x(x_in),
        pattern(pattern_ptr),
        zeros(x_in.size(), 0.0),
        r0(x_in.size()),
        r1(x_in.size()),
        argument(x_in.size()) {
    problem.residual(problem.t, x, zeros, r0);
  }
  [[nodiscard]] Eigen::Index size() const { return idx(x.size()); }
  [[nodiscard]] Eigen::Map<const Eigen::VectorXd> base() const { return {r0.data(), size()}; }
  [[nodiscard]] Eigen::Map<const Eigen::VectorXd> perturbed() const { return {r1.data(), size()}; }
};

/// M_d: der_x stepped by one in each column (a colour group at once); exact by linearity.
JacobianMatrix derivative_columns(ResidualDifferences& d) {
  const Eigen::Index n = d.size();
  return coloured_difference_jacobian(d.pattern, Eigen::VectorXd::Ones(n),
                                      [&](const Eigen::VectorXd& step, Eigen::VectorXd& diff) {
                                        Eigen::VectorXd::Map(d.argument.data(), n) = step;
                                        d.problem.residual(d.problem.t, d.x, d.argument, d.r1);
                                        diff = d.perturbed() - d.base();
                                      });
}

bool any_constraint(std::span<const RowKind> row_kinds) {
  return std::find(row_kinds.begin(), row_kinds.end(), RowKind::kConstraint) != row_kinds.end();
}

/// d f_c/dx: x stepped by sqrt(eps)-sized increments at der_x = 0, into the f_c rows of jac.
void take_constraint_rows(ResidualDifferences& d, const Eigen::VectorXd& nominal,
                          JacobianMatrix& jac) {
  const std::size_t n = d.x.size();
  Eigen::VectorXd increments(idx(n));
  for (std::size_t j = 0; j < n; ++j) {
    increments[idx(j)] = difference_increment(d.x[j], nominal[idx(j)]);
  }
  const JacobianMatrix constraint_part = coloured_difference_jacobian(
      d.pattern, increments, [&](const Eigen::VectorXd& step, Eigen::VectorXd& diff) {
        for (std::size_t j = 0; j < n; ++j) d.argument[j] = d.x[j] + step[idx(j)];
        d.problem.residual(d.problem.t, d.argument, d.zeros, d.r1);
        diff = d.perturbed() - d.base();
      });
  jac.take_rows(constraint_part, d.problem.row_kinds, RowKind::kConstraint);
}

/// d f_c/dt into r1: the model's own when it has one, else a forward difference.
void constraint_time_derivative(ResidualDifferences& d) {
  const double t = d.problem.t;
  if (d.problem.constraint_time_derivative) {
    // The model's own d f_c/dt, in r1.
    std::fill(d.r1.begin(), d.r1.end(), 0.0);
    d.problem.constraint_time_derivative(t, d.x, d.r1);
  } else {
    // d f_c/dt: time has no nominal value, so the increment is relative to max(|t|, 1 s).
    // The step actually taken, (t + h) - t, is used so the quotient carries no rounding of t.
    const double t_step = (t + difference_increment(t, 1.0)) - t;
    d.problem.residual(t + t_step, d.x, d.zeros, d.r1);
    for (std::size_t i = 0; i < d.r1.size(); ++i) d.r1[i] = (d.r1[i] - d.r0[i]) / t_step;
  }
}

/// rhs: -b_d = -F(t, x, 0) for the f_d rows, -d f_c/dt (now in r1) for the f_c rows.
Eigen::VectorXd right_hand_side(const ResidualDifferences& d) {
  Eigen::VectorXd rhs(d.size());
  for (std::size_t i = 0; i < d.x.size(); ++i) {
    rhs[idx(i)] = d.problem.row_kinds[i] == RowKind::kDifferential ? -d.r0[i] : -d.r1[i];
  }
  return rhs;
}

/// der_x from jac der_x = rhs, equilibrated as in the jump solve: columns by nominal values,
/// rows to a largest entry of 1. Says why in out when jac is singular.
void solve_equilibrated(const JumpProblem& problem, Workspace& workspace, JacobianMatrix& jac,
                        const Eigen::VectorXd& nominal, const Eigen::VectorXd& rhs,
                        DerivativeOutcome& out) {
  Eigen::VectorXd inv_row_scale = jac.row_max_abs(nominal);
  for (double& s : inv_row_scale) s = s > 0.0 ? 1.0 / s : 1.0;
  jac.scale(inv_row_scale, nominal);
  SquareSolver& lu = workspace.square_solver();
  if (!lu.factorize(jac, problem.row_kinds)) {
    out.status = SolveStatus::kSingular;
    out.message = describe_singular("J = [M_d; df_c/dx]", problem.t, *problem.structure,
                                    analyse_rank(jac, WeakestDirection::kAlways));
    return;
  }
  const Eigen::VectorXd der = nominal.cwiseProduct(lu.solve(rhs.cwiseProduct(inv_row_scale)));
  Eigen::VectorXd::Map(out.der_x.data(), idx(out.der_x.size())) = der;
}

}  // namespace

DerivativeOutcome consistent_derivatives(const JumpProblem& problem, std::span<const double> x) {
  validate_problem(problem, x.size(), "consistent_derivatives");
  const std::size_t n = x.size();
  const ModelStructure& structure = *problem.structure;
  DerivativeOutcome out;
  out.der_x.assign(n, 0.0);
  if (n == 0) return out;

  std::optional<Workspace> own_workspace;
  Workspace& workspace =
      problem.workspace != nullptr ? *problem.workspace : own_workspace.emplace();
  const ColouredPattern* pattern_ptr = workspace.pattern();
  Eigen::VectorXd nominal(idx(n));
  for (std::size_t j = 0; j < n; ++j) nominal[idx(j)] = structure.variables[j].nominal;

  ResidualDifferences differences(problem, x, pattern_ptr);
  JacobianMatrix jac = derivative_columns(differences);
  // Without constraint rows (an ODE in implicit form, such as a bouncing ball) J is M_d and
  // the rhs is -b_d: the differences in x and t below would only be discarded.
  if (any_constraint(problem.row_kinds)) {
    take_constraint_rows(differences, nominal, jac);
    constraint_time_derivative(differences);
  }
  const Eigen::VectorXd rhs = right_hand_side(differences);
  if (!rhs.allFinite() || !jac.all_finite()) {
    out.status = SolveStatus::kNotConverged;
    out.message = fmt::format(
        "consistent derivatives at t = {}: the residual or its derivatives are not finite",
        problem.t);
    return out;
  }
  solve_equilibrated(problem, workspace, jac, nominal, rhs, out);
  return out;
}

}  // namespace hdae::reinit
