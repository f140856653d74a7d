// find_hidden_constraints: the left null space of M_d in reduced row-echelon form
// (docs/design.md, "General rows and singular mass matrices").
#include "reinit/hidden_constraints.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/SVD>

#include "linalg/linear_solver.hpp"
#include "reinit/workspace.hpp"

namespace hdae::reinit {
namespace {

/// Below this a pivot candidate of the orthonormal null basis counts as zero: the basis
/// vectors have norm 1, so a genuine entry is far above the rounding of the SVD.
constexpr double kPivotFloor = 1e-8;
/// Entries of the echelon form below this are rounding and are dropped.
constexpr double kDropBelow = 1e-12;

/// M_d restricted to the f_d rows, each row scaled to a largest nominal-weighted entry of 1;
/// scale[k] is the factor of row fd_rows[k].
Eigen::MatrixXd scaled_mass_rows(const JumpProblem& problem, std::span<const double> x,
                                 const std::vector<std::size_t>& fd_rows, Eigen::VectorXd& scale) {
  const std::size_t n = x.size();
  std::vector<double> der(n, 0.0), r0(n), r1(n);
  problem.residual(problem.t, x, der, r0);
  Eigen::MatrixXd m(static_cast<Eigen::Index>(fd_rows.size()), static_cast<Eigen::Index>(n));
  for (std::size_t j = 0; j < n; ++j) {
    der[j] = 1.0;  // exact for rows affine in der_x, a secant otherwise
    problem.residual(problem.t, x, der, r1);
    der[j] = 0.0;
    const double nominal = problem.structure->variables.nominal(j);
    for (std::size_t k = 0; k < fd_rows.size(); ++k) {
      m(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(j)) =
          (r1[fd_rows[k]] - r0[fd_rows[k]]) * nominal;
    }
  }
  scale = m.cwiseAbs().rowwise().maxCoeff();
  for (double& s : scale) s = s > 0.0 && std::isfinite(s) ? 1.0 / s : 1.0;
  return scale.asDiagonal() * m;
}

/// |u_c^T m| for each column u_c of u: the reach of each left singular vector.
Eigen::VectorXd reach_of(const Eigen::MatrixXd& u, const Eigen::MatrixXd& m) {
  return (u.transpose() * m).rowwise().norm();
}

/// The left null space of m, one orthonormal vector per row: the left singular vectors whose
/// reach |u^T m| is below the rank tolerance. Eigen's divide-and-conquer SVD (its path from 16
/// rows on) can return wrong values and vectors when values repeat and rounding couples the
/// blocks, as the f_d rows of a model and of its sensitivity copies do (a copy's constraint was
/// then lost and the jump matrix found singular): where the reaches do not reproduce its
/// singular values, the one-sided Jacobi SVD, slower but reliable, decides.
Eigen::MatrixXd left_null_basis(const Eigen::MatrixXd& m) {
  const Eigen::BDCSVD<Eigen::MatrixXd> svd(m, Eigen::ComputeFullU);
  Eigen::MatrixXd u = svd.matrixU();
  Eigen::VectorXd reach = reach_of(u, m);
  const double largest = reach.size() > 0 ? reach.maxCoeff() : 0.0;
  const double bound = linalg::kRankTolerance * largest;
  const Eigen::VectorXd& sigma = svd.singularValues();  // min(rows, cols) of them
  const bool consistent =
      sigma.size() == 0 || (reach.head(sigma.size()) - sigma).cwiseAbs().maxCoeff() <= bound;
  if (!consistent) {
    u = Eigen::JacobiSVD<Eigen::MatrixXd>(m, Eigen::ComputeFullU).matrixU();
    reach = reach_of(u, m);
  }
  std::vector<Eigen::Index> null;
  for (Eigen::Index c = 0; c < reach.size(); ++c) {
    if (reach[c] <= bound) null.push_back(c);
  }
  Eigen::MatrixXd basis(static_cast<Eigen::Index>(null.size()), m.rows());
  for (std::size_t k = 0; k < null.size(); ++k) {
    basis.row(static_cast<Eigen::Index>(k)) = u.col(null[k]).transpose();
  }
  return basis;
}

/// Reduced row-echelon form of the rows of basis (partial pivoting, columns in order); the
/// pivot column of each row is appended to pivots.
void reduce_to_echelon(Eigen::MatrixXd& basis, std::vector<Eigen::Index>& pivots) {
  Eigen::Index r = 0;
  for (Eigen::Index col = 0; col < basis.cols() && r < basis.rows(); ++col) {
    Eigen::Index best = r;
    basis.col(col).tail(basis.rows() - r).cwiseAbs().maxCoeff(&best);
    best += r;
    if (std::abs(basis(best, col)) < kPivotFloor) continue;
    basis.row(r).swap(basis.row(best));
    basis.row(r) /= basis(r, col);
    for (Eigen::Index i = 0; i < basis.rows(); ++i) {
      if (i != r) basis.row(i) -= basis(i, col) * basis.row(r);
    }
    pivots.push_back(col);
    ++r;
  }
}

}  // namespace

std::vector<HiddenConstraint> find_hidden_constraints(const JumpProblem& problem,
                                                      std::span<const double> x) {
  const std::size_t n = x.size();
  const bool sparse_path = problem.workspace != nullptr && problem.workspace->pattern() != nullptr;
  if (n == 0 || n > kHiddenConstraintMaxUnknowns || sparse_path) return {};
  std::vector<std::size_t> fd_rows;
  for (std::size_t i = 0; i < n; ++i) {
    if (problem.row_kinds[i] == RowKind::kDifferential) fd_rows.push_back(i);
  }
  if (fd_rows.empty()) return {};
  Eigen::VectorXd scale;
  const Eigen::MatrixXd m = scaled_mass_rows(problem, x, fd_rows, scale);
  if (!m.allFinite()) return {};
  Eigen::MatrixXd basis = left_null_basis(m);
  if (basis.rows() == 0) return {};
  std::vector<Eigen::Index> pivots;
  reduce_to_echelon(basis, pivots);

  std::vector<HiddenConstraint> out;
  for (std::size_t k = 0; k < pivots.size(); ++k) {
    const auto r = static_cast<Eigen::Index>(k);
    HiddenConstraint h;
    h.replaced_row = fd_rows[static_cast<std::size_t>(pivots[k])];
    double largest = 0.0;
    for (Eigen::Index c = 0; c < basis.cols(); ++c) {
      if (std::abs(basis(r, c)) < kDropBelow) continue;
      h.rows.push_back(fd_rows[static_cast<std::size_t>(c)]);
      h.coefficients.push_back(basis(r, c) * scale[c]);  // on F_i, not on the scaled row
      largest = std::max(largest, std::abs(h.coefficients.back()));
    }
    for (double& u : h.coefficients) u /= largest;
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace hdae::reinit
