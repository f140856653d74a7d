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
  const double t = problem.t;
  Eigen::VectorXd nominal(idx(n));
  for (std::size_t j = 0; j < n; ++j) nominal[idx(j)] = structure.variables[j].nominal;

  const std::vector<double> zeros(n, 0.0);
  std::vector<double> r0(n);
  std::vector<double> r1(n);
  std::vector<double> argument(n);
  problem.residual(t, x, zeros, r0);
  const Eigen::Map<const Eigen::VectorXd> base(r0.data(), idx(n));
  const Eigen::Map<const Eigen::VectorXd> perturbed(r1.data(), idx(n));

  // M_d: der_x stepped by one in each column (a colour group at once); exact by linearity.
  JacobianMatrix jac =
      coloured_difference_jacobian(pattern_ptr, Eigen::VectorXd::Ones(idx(n)),
                                   [&](const Eigen::VectorXd& step, Eigen::VectorXd& diff) {
                                     Eigen::VectorXd::Map(argument.data(), idx(n)) = step;
                                     problem.residual(t, x, argument, r1);
                                     diff = perturbed - base;
                                   });
  // Without constraint rows (an ODE in implicit form, such as a bouncing ball) J is M_d and
  // the rhs is -b_d: the differences in x and t below would only be discarded.
  const bool any_constraint = std::find(problem.row_kinds.begin(), problem.row_kinds.end(),
                                        RowKind::kConstraint) != problem.row_kinds.end();
  if (any_constraint) {
    // d f_c/dx: x stepped by sqrt(eps)-sized increments at der_x = 0.
    Eigen::VectorXd increments(idx(n));
    for (std::size_t j = 0; j < n; ++j) {
      increments[idx(j)] = difference_increment(x[j], nominal[idx(j)]);
    }
    const JacobianMatrix constraint_part = coloured_difference_jacobian(
        pattern_ptr, increments, [&](const Eigen::VectorXd& step, Eigen::VectorXd& diff) {
          for (std::size_t j = 0; j < n; ++j) argument[j] = x[j] + step[idx(j)];
          problem.residual(t, argument, zeros, r1);
          diff = perturbed - base;
        });
    jac.take_rows(constraint_part, problem.row_kinds, RowKind::kConstraint);

    if (problem.constraint_time_derivative) {
      // The model's own d f_c/dt, in r1.
      std::fill(r1.begin(), r1.end(), 0.0);
      problem.constraint_time_derivative(t, x, r1);
    } else {
      // d f_c/dt: time has no nominal value, so the increment is relative to max(|t|, 1 s).
      // The step actually taken, (t + h) - t, is used so the quotient carries no rounding of t.
      const double t_step = (t + difference_increment(t, 1.0)) - t;
      problem.residual(t + t_step, x, zeros, r1);
      for (std::size_t i = 0; i < n; ++i) r1[i] = (r1[i] - r0[i]) / t_step;
    }
  }
  // rhs: -b_d = -F(t, x, 0) for the f_d rows, -d f_c/dt (now in r1) for the f_c rows.
  Eigen::VectorXd rhs(idx(n));
  for (std::size_t i = 0; i < n; ++i) {
    rhs[idx(i)] = problem.row_kinds[i] == RowKind::kDifferential ? -r0[i] : -r1[i];
  }
  if (!rhs.allFinite() || !jac.all_finite()) {
    out.status = SolveStatus::kNotConverged;
    out.message = fmt::format(
        "consistent derivatives at t = {}: the residual or its derivatives are not finite", t);
    return out;
  }

  // Equilibrate as in the jump solve: columns by nominal values, rows to a largest entry of 1.
  Eigen::VectorXd inv_row_scale = jac.row_max_abs(nominal);
  for (double& s : inv_row_scale) s = s > 0.0 ? 1.0 / s : 1.0;
  jac.scale(inv_row_scale, nominal);
  SquareSolver& lu = workspace.square_solver();
  if (!lu.factorize(jac, problem.row_kinds)) {
    out.status = SolveStatus::kSingular;
    out.message = describe_singular("J = [M_d; df_c/dx]", t, structure,
                                    analyse_rank(jac, WeakestDirection::kAlways));
    return out;
  }
  const Eigen::VectorXd der = nominal.cwiseProduct(lu.solve(rhs.cwiseProduct(inv_row_scale)));
  Eigen::VectorXd::Map(out.der_x.data(), idx(n)) = der;
  return out;
}

}  // namespace hdae::reinit
