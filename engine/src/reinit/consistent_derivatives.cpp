// consistent_derivatives: der_x from J der_x = rhs (docs/design.md, "The jump solve" and
// "General rows and singular mass matrices").
//
// The f_d rows give M_d der_x = -b_d; the f_c rows, differentiated along the solution, give
// (d f_c/dx) der_x = -d f_c/dt, and so does each hidden constraint in place of the f_d row it
// replaces. For rows affine in der_x the columns of M_d are exact differences
// F(t, x, e_j) - F(t, x, 0) (no rounding from a step size) and -b_d is -F(t, x, 0), so one
// solve gives der_x. d f_c/dx and d f_c/dt are forward differences. The explicit time term
// d f_c/dt is kept: ModiaMath drops it, which makes der_x wrong for every constraint that
// depends on time (a prescribed motion, a time-varying source).
//
// A row may also be nonlinear in der_x. The solve above is then a secant step from
// der_x = 0, and Newton's method continues from its result on the f_d rows (dF/d(der_x) by
// forward differences) until every f_d row holds to the tolerance relative to the size of
// its terms. Rows affine in der_x pass that test after the first solve, so for them the
// answer is the one-solve answer, bit for bit; where rounding in F left their differences
// inexact, one step of iterative refinement with the same matrix passes it (refine()).
#include "reinit/consistent_derivatives.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "linalg/fd_jacobian.hpp"
#include "linalg/linear_solver.hpp"
#include "linalg/rank_diagnosis.hpp"
#include "model/row_sizes.hpp"
#include "reinit/jump_solver.hpp"
#include "reinit/jump_system.hpp"
#include "reinit/workspace.hpp"

namespace hdae::reinit {
namespace {

Eigen::Index idx(std::size_t i) { return static_cast<Eigen::Index>(i); }

std::span<double> span(Eigen::VectorXd& v) {
  return {v.data(), static_cast<std::size_t>(v.size())};
}

/// Most refinement steps after a solve (refine()). Each multiplies the defect by about the
/// relative error of M_d's differences, 5e-6 for 1e-12 kg beside forces of 0.05 N: three
/// reach rounding.
constexpr int kRefinements = 3;

/// The model calls of one computation: F(t, x, 0), F(t, x, der) and differences around them.
struct ResidualDifferences {
  const JumpProblem& problem;
  std::span<const double> x;
  const linalg::ColouredPattern* pattern;
  std::vector<double> zeros;
  Eigen::VectorXd r0;      ///< F(t, x, 0)
  Eigen::VectorXd r_base;  ///< F(t, x, der) at the base of the current Newton step
  std::vector<double> r1;  ///< a perturbed residual

  ResidualDifferences(const JumpProblem& p, std::span<const double> x_in,
                      const linalg::ColouredPattern* pattern_ptr)
      : problem(p),
        x(x_in),
        pattern(pattern_ptr),
        zeros(x_in.size(), 0.0),
        r0(idx(x_in.size())),
        r1(x_in.size()) {
    problem.residual(problem.t, x, zeros, span(r0));
  }
  [[nodiscard]] Eigen::Index size() const { return idx(x.size()); }
  [[nodiscard]] Eigen::Map<const Eigen::VectorXd> map(const std::vector<double>& v) const {
    return {v.data(), size()};
  }
};

/// The rows of J that do not depend on der_x, taken once at der_x = 0: d f_c/dx on the f_c
/// rows and sum u_i dF_i/dx on the rows a hidden constraint replaces, with their explicit
/// time derivatives.
struct LinearRows {
  linalg::JacobianMatrix jacobian;
  Eigen::VectorXd time_derivative;
};

bool any_constraint(std::span<const RowKind> row_kinds) {
  return std::find(row_kinds.begin(), row_kinds.end(), RowKind::kConstraint) != row_kinds.end();
}

/// The difference matrix of g(v) = F at v with one argument v stepped around base: the
/// columns of a colour move by their increments, the others stay at base + 0.0 (the value an
/// added zero step gives them, -0.0 included), and F goes to the evaluation's `after` vector
/// without a step or a difference vector per colour. residual(v, after) evaluates F.
template <class Residual>
linalg::JacobianMatrix stepped_differences(const ResidualDifferences& d,
                                           std::span<const double> base_argument,
                                           const Eigen::VectorXd& increments,
                                           const Eigen::VectorXd& base, Residual&& residual) {
  std::vector<double> stepped(d.x.size());
  for (std::size_t j = 0; j < d.x.size(); ++j) stepped[j] = base_argument[j] + 0.0;
  linalg::JacobianMatrix a;
  linalg::difference_jacobian_into(
      d.pattern, increments, base,
      [&](std::span<const sparsity::Index> columns, Eigen::VectorXd& after) {
        for (const std::size_t j : columns) stepped[j] = base_argument[j] + increments[idx(j)];
        residual(stepped, std::span<double>(after.data(), d.x.size()));
        for (const std::size_t j : columns) stepped[j] = base_argument[j] + 0.0;
      },
      a);
  return a;
}

/// dF/d(der_x) at der: unit steps on the first Newton step (der = 0; exact for rows affine in
/// der_x), forward-difference steps afterwards. Leaves F(t, x, der) in d.r_base.
linalg::JacobianMatrix derivative_columns(ResidualDifferences& d, const Eigen::VectorXd& der,
                                          const Eigen::VectorXd& nominal, bool first) {
  const Eigen::Index n = d.size();
  if (first) {
    d.r_base = d.r0;
  } else {
    d.r_base.resize(n);
    d.problem.residual(d.problem.t, d.x, std::span<const double>(der.data(), d.x.size()),
                       span(d.r_base));
  }
  Eigen::VectorXd increments = Eigen::VectorXd::Ones(n);
  if (!first) {
    for (Eigen::Index j = 0; j < n; ++j)
      increments[j] = linalg::difference_increment(der[j], nominal[j]);
  }
  return stepped_differences(d, std::span<const double>(der.data(), d.x.size()), increments,
                             d.r_base, [&](std::span<const double> der_x, std::span<double> r) {
                               d.problem.residual(d.problem.t, d.x, der_x, r);
                             });
}

/// dF/dx at der_x = 0 for all rows: x stepped by sqrt(eps)-sized increments, forward
/// (direction 1) or backward (-1).
linalg::JacobianMatrix state_columns(ResidualDifferences& d, const Eigen::VectorXd& nominal,
                                     double direction) {
  const std::size_t n = d.x.size();
  Eigen::VectorXd increments(idx(n));
  for (std::size_t j = 0; j < n; ++j) {
    increments[idx(j)] = direction * linalg::difference_increment(d.x[j], nominal[idx(j)]);
  }
  return stepped_differences(d, d.x, increments, d.r0,
                             [&](std::span<const double> x, std::span<double> r) {
                               d.problem.residual(d.problem.t, x, d.zeros, r);
                             });
}

/// dF/dt at fixed x and der_x = 0, all rows: a forward (direction 1) or backward (-1)
/// difference. Time has no nominal value, so the increment is relative to max(|t|, 1 s); the
/// step actually taken, (t + h) - t, is used so the quotient carries no rounding of t.
Eigen::VectorXd time_difference(ResidualDifferences& d, double direction) {
  const double t = d.problem.t;
  const double t_step = (t + direction * linalg::difference_increment(t, 1.0)) - t;
  d.problem.residual(t + t_step, d.x, d.zeros, d.r1);
  return (d.map(d.r1) - d.r0) / t_step;
}

/// Row p of a and v becomes sum_k u_k (row rows_k) for each hidden constraint. The rows a
/// constraint combines are no other constraint's replaced row, so the order does not matter.
void combine_hidden_rows(std::span<const HiddenConstraint> hidden, linalg::JacobianMatrix& a,
                         Eigen::VectorXd& v) {
  if (hidden.empty()) return;
  if (a.is_sparse) {
    throw std::logic_error("consistent_derivatives: hidden constraints on the sparse path");
  }
  for (const HiddenConstraint& h : hidden) {
    Eigen::RowVectorXd row = Eigen::RowVectorXd::Zero(a.dense.cols());
    double value = 0.0;
    for (std::size_t k = 0; k < h.rows.size(); ++k) {
      row += h.coefficients[k] * a.dense.row(idx(h.rows[k]));
      value += h.coefficients[k] * v[idx(h.rows[k])];
    }
    a.dense.row(idx(h.replaced_row)) = row;
    v[idx(h.replaced_row)] = value;
  }
}

/// The f_c rows keep the forward differences they always had. Hidden constraints, found only
/// on the dense path, get central differences: their rows are sums of the model's nonlinear
/// rows (exponentials of a transistor), whose forward differences would limit der_x to about
/// 1e-6, where central ones reach about 1e-10, for two more sweeps of a small model.
LinearRows linear_rows(ResidualDifferences& d, const Eigen::VectorXd& nominal) {
  const JumpProblem& p = d.problem;
  const bool central = !p.hidden.empty();
  LinearRows lin{state_columns(d, nominal, 1.0), Eigen::VectorXd::Zero(d.size())};
  if (!p.constraint_time_derivative || central) lin.time_derivative = time_difference(d, 1.0);
  if (central) {
    lin.jacobian.dense = 0.5 * (lin.jacobian.dense + state_columns(d, nominal, -1.0).dense);
    lin.time_derivative = 0.5 * (lin.time_derivative + time_difference(d, -1.0));
  }
  combine_hidden_rows(p.hidden, lin.jacobian, lin.time_derivative);
  if (p.constraint_time_derivative) {
    // The model's own d f_c/dt on the f_c rows.
    std::fill(d.r1.begin(), d.r1.end(), 0.0);
    p.constraint_time_derivative(p.t, d.x, d.r1);
    for (std::size_t i = 0; i < d.x.size(); ++i) {
      if (p.row_kinds[i] == RowKind::kConstraint) lin.time_derivative[idx(i)] = d.r1[i];
    }
  }
  return lin;
}

/// The Newton right-hand side at der, with F(t, x, der) in d.r_base: -F on the f_d rows,
/// -(d/dt of the row) on the linear rows (der = 0 on the first step).
Eigen::VectorXd newton_rhs(const ResidualDifferences& d, const std::optional<LinearRows>& lin,
                           const Eigen::VectorXd& der, bool first) {
  const JumpProblem& p = d.problem;
  Eigen::VectorXd rhs = -d.r_base;
  if (!lin) return rhs;
  Eigen::VectorXd linear_rhs = -lin->time_derivative;
  if (!first) linear_rhs -= lin->jacobian.multiply(der);
  for (std::size_t i = 0; i < d.x.size(); ++i) {
    if (p.row_kinds[i] == RowKind::kConstraint) rhs[idx(i)] = linear_rhs[idx(i)];
  }
  for (const HiddenConstraint& h : p.hidden) {
    rhs[idx(h.replaced_row)] = linear_rhs[idx(h.replaced_row)];
  }
  return rhs;
}

/// The Newton matrix and right-hand side at der (der = 0 on the first step, as if all rows
/// were affine).
linalg::JacobianMatrix newton_system(ResidualDifferences& d, const std::optional<LinearRows>& lin,
                                     const Eigen::VectorXd& der, const Eigen::VectorXd& nominal,
                                     bool first, Eigen::VectorXd& rhs) {
  const JumpProblem& p = d.problem;
  linalg::JacobianMatrix jac = derivative_columns(d, der, nominal, first);
  rhs = newton_rhs(d, lin, der, first);
  if (!lin) return jac;
  jac.take_rows(lin->jacobian, p.row_kinds, RowKind::kConstraint);
  for (const HiddenConstraint& h : p.hidden) {
    jac.dense.row(idx(h.replaced_row)) = lin->jacobian.dense.row(idx(h.replaced_row));
  }
  return jac;
}

/// The step from jac step = rhs, equilibrated as in the jump solve: columns by nominal
/// values, rows to a largest entry of 1. Says why in out when jac is singular. terms gets
/// |M| |der + step| per row (the size of the derivative terms at the new point), and
/// inv_row_scale the row scaling (for refine()).
bool solve_equilibrated(const JumpProblem& problem, linalg::SquareSolver& lu,
                        linalg::JacobianMatrix& jac, const Eigen::VectorXd& nominal,
                        const Eigen::VectorXd& rhs, const Eigen::VectorXd& der,
                        Eigen::VectorXd& step, Eigen::VectorXd& terms,
                        Eigen::VectorXd& inv_row_scale, DerivativeOutcome& out) {
  inv_row_scale = jac.row_max_abs(nominal);
  for (double& s : inv_row_scale) s = s > 0.0 ? 1.0 / s : 1.0;
  jac.scale(inv_row_scale, nominal);
  // On the sparse path J holds fewer entries than the pattern: the f_d rows only their der_x
  // entries, the f_c rows only their x entries. Over its non-zeros alone KLU's block
  // triangular form splits it where the pattern's entries would join it into one block (a
  // chain's J is triangular), and the ordering and the factors cost that much less.
  if (!lu.factorize(jac.without_zeros(), problem.row_kinds)) {
    out.status = SolveStatus::kSingular;
    out.message =
        linalg::describe_singular("J = [M_d; df_c/dx]", problem.t, *problem.structure,
                                  linalg::analyse_rank(jac, linalg::WeakestDirection::kAlways));
    return false;
  }
  step = nominal.cwiseProduct(lu.solve(rhs.cwiseProduct(inv_row_scale)));
  terms =
      jac.abs_multiply((der + step).cwiseQuotient(nominal).cwiseAbs()).cwiseQuotient(inv_row_scale);
  return true;
}

/// The size of each row's terms, |b_d| + |M_d| |der|, against which its residual is judged,
/// raised where the model says its rounding is larger (JumpProblem::row_sizes).
Eigen::VectorXd row_sizes(const ResidualDifferences& d, const Eigen::VectorXd& terms) {
  Eigen::VectorXd sizes = d.r0.cwiseAbs() + terms;
  if (d.problem.row_sizes != nullptr) {
    d.problem.row_sizes->widen_row_sizes(std::span<double>(sizes.data(), d.x.size()));
  }
  return sizes;
}

/// The f_d rows (other than those a hidden constraint replaces) that F(t, x, der) does not
/// satisfy to the tolerance relative to their size (row_sizes); empty when all hold.
std::vector<std::size_t> unsatisfied_rows(ResidualDifferences& d, const Eigen::VectorXd& der,
                                          const Eigen::VectorXd& sizes) {
  const JumpProblem& p = d.problem;
  std::vector<double> argument(der.data(), der.data() + der.size());
  d.problem.residual(p.t, d.x, argument, d.r1);
  std::vector<bool> replaced(d.x.size(), false);
  for (const HiddenConstraint& h : p.hidden) replaced[h.replaced_row] = true;
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i < d.x.size(); ++i) {
    if (p.row_kinds[i] != RowKind::kDifferential || replaced[i]) continue;
    if (!(std::abs(d.r1[i]) <= p.tolerance * sizes[idx(i)])) rows.push_back(i);
  }
  return rows;
}

/// The largest |F_i(t, x, der)| relative to its row's size over the given f_d rows, with
/// F(t, x, der) in d.r1 (as unsatisfied_rows leaves it).
double largest_defect(const ResidualDifferences& d, const Eigen::VectorXd& sizes,
                      const std::vector<std::size_t>& rows) {
  double largest = 0.0;
  for (const std::size_t i : rows) largest = std::max(largest, std::abs(d.r1[i]) / sizes[idx(i)]);
  return largest;
}

/// One step of iterative refinement with the matrix solve_equilibrated factorised last, for
/// rows left open (F(t, x, der) in d.r1). Rows affine in der_x have exact differences, but
/// rounding in F makes M_d inexact where a small coefficient sits beside large terms (a mass
/// of 1e-10 kg beside spring forces of 0.05 N: M_d to 5e-8 relative), and the first solve
/// then misses the tolerance by that much. The refinement removes it, where a new matrix of
/// forward differences at sqrt(eps) steps would be rounding only (1e-10 kg x 1.5e-8 m/s^2 is
/// below the forces' rounding) and singular. The step is kept only when it lowers the largest
/// defect (a row nonlinear in der_x may not): then false, and der and open stay.
bool refine(ResidualDifferences& d, const std::optional<LinearRows>& lin, linalg::SquareSolver& lu,
            const Eigen::VectorXd& nominal, const Eigen::VectorXd& inv_row_scale,
            const Eigen::VectorXd& sizes, Eigen::VectorXd& der, std::vector<std::size_t>& open) {
  const double before = largest_defect(d, sizes, open);
  d.r_base = d.map(d.r1);
  const Eigen::VectorXd rhs = newton_rhs(d, lin, der, false);
  const Eigen::VectorXd refined =
      der + nominal.cwiseProduct(lu.solve(rhs.cwiseProduct(inv_row_scale)));
  std::vector<std::size_t> still = unsatisfied_rows(d, refined, sizes);
  if (!(largest_defect(d, sizes, open) < before)) return false;
  der = refined;
  open = std::move(still);
  return true;
}

/// A Newton step after the first that moves no derivative by more than the tolerance (relative
/// to max(|der_j|, nominal_j)): what is left is rounding in the model's own residual.
bool negligible(const Eigen::VectorXd& step, const Eigen::VectorXd& der,
                const Eigen::VectorXd& nominal, double tolerance) {
  for (Eigen::Index j = 0; j < step.size(); ++j) {
    if (!(std::abs(step[j]) <= tolerance * std::max(std::abs(der[j]), nominal[j]))) return false;
  }
  return true;
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
  Eigen::VectorXd nominal(idx(n));
  for (std::size_t j = 0; j < n; ++j) nominal[idx(j)] = structure.variables.nominal(j);

  linalg::SquareSolver& lu =
      workspace.pattern() != nullptr ? workspace.derivative_solver() : workspace.square_solver();
  ResidualDifferences differences(problem, x, workspace.pattern());
  // Without constraint rows or hidden constraints (an ODE in implicit form, such as a
  // bouncing ball) J is M_d: the differences in x and t would only be discarded.
  std::optional<LinearRows> lin;
  if (any_constraint(problem.row_kinds) || !problem.hidden.empty()) {
    lin = linear_rows(differences, nominal);
  }
  Eigen::VectorXd der = Eigen::VectorXd::Zero(idx(n)), rhs, step, terms, inv_row_scale;
  for (int iteration = 0;; ++iteration) {
    linalg::JacobianMatrix jac = newton_system(differences, lin, der, nominal, iteration == 0, rhs);
    if (!rhs.allFinite() || !jac.all_finite()) {
      out.status = SolveStatus::kNotConverged;
      out.message = fmt::format(
          "consistent derivatives at t = {}: the residual or its derivatives are not finite",
          problem.t);
      return out;
    }
    if (!solve_equilibrated(problem, lu, jac, nominal, rhs, der, step, terms, inv_row_scale, out)) {
      return out;
    }
    der += step;
    const Eigen::VectorXd sizes = row_sizes(differences, terms);
    std::vector<std::size_t> open = unsatisfied_rows(differences, der, sizes);
    for (int k = 0; k < kRefinements && !open.empty(); ++k) {
      if (!refine(differences, lin, lu, nominal, inv_row_scale, sizes, der, open)) break;
    }
    if (open.empty() || (iteration > 0 && negligible(step, der, nominal, problem.tolerance))) {
      break;
    }
    if (iteration + 1 >= problem.max_iterations) {
      out.status = SolveStatus::kNotConverged;
      out.message = fmt::format(
          "consistent derivatives at t = {}: Newton's method on the rows nonlinear in der_x "
          "did not converge in {} iterations; equations {} are not satisfied",
          problem.t, problem.max_iterations, linalg::equation_list(structure, open));
      return out;
    }
  }
  Eigen::VectorXd::Map(out.der_x.data(), idx(n)) = der;
  return out;
}

}  // namespace hdae::reinit
