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
  const Eigen::BDCSVD<Eigen::MatrixXd> svd(m, Eigen::ComputeFullU);
  const Eigen::VectorXd& sigma = svd.singularValues();  // descending, min(rows, cols) of them
  const double bound = linalg::kRankTolerance * (sigma.size() > 0 ? sigma[0] : 0.0);
  Eigen::Index rank = 0;
  while (rank < sigma.size() && sigma[rank] > bound) ++rank;
  const Eigen::Index rows = m.rows();
  if (rank == rows) return {};
  Eigen::MatrixXd basis = svd.matrixU().rightCols(rows - rank).transpose();
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
