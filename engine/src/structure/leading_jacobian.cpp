#include "structure/leading_jacobian.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include <Eigen/SVD>
#include <Eigen/SparseQR>

#include "linalg/linear_solver.hpp"
#include "sparsity/sparsity_pattern.hpp"

namespace hdae::structure {
namespace {

/// Largest system whose null vectors are computed (dense SVD), as in linalg/rank_diagnosis.
constexpr std::size_t kDenseLimit = 500;
/// Relative step of the differences in x (in der(x) the step is a whole nominal value).
constexpr double kStepInX = 1e-4;
/// Coefficients of a combination below this (relative to the largest) are round-off.
constexpr double kNegligibleCoefficient = 1e-10;

Eigen::Index idx(std::size_t i) { return static_cast<Eigen::Index>(i); }

/// Partials of the entries with sigma == order.
void partials_of_order(const SystemResidual& f, const SignatureMatrix& s, int order, double t,
                       std::span<const double> x, std::span<const double> der_x,
                       std::vector<double>& out) {
  std::vector<sparsity::Entry> entries;
  for (const SignatureEntry& e : s.entries) {
    if (e.sigma == order) entries.emplace_back(e.row, e.col);
  }
  if (entries.empty()) return;
  const std::size_t n = s.n;
  const linalg::ColouredPattern coloured(sparsity::build_pattern(n, entries));
  const std::span<const double> v = order == 0 ? x : der_x;
  // Steps (see docs/design.md, "Structure and index", the rank check): a dependence that
  // makes J singular cancels between rows, and a difference of the cancelling rows cancels as
  // well whatever the step; what spoils it is rounding, about 1e-16 of the row's terms divided
  // by the step. So the steps are large: a whole nominal value in der(x), exact for rows
  // affine in der(x) (every f_d row), and 1e-4 of it in x, where rows are mostly nonlinear.
  const double relative_step = order == 0 ? kStepInX : 1.0;
  Eigen::VectorXd increments(idx(n));
  for (std::size_t j = 0; j < n; ++j) {
    const double scale = std::max(std::abs(v[j]), f.structure().variables.nominal(j));
    increments[idx(j)] = (v[j] < 0.0 ? -relative_step : relative_step) * scale;
  }
  std::vector<double> base(n), moved_v(v.begin(), v.end()), r(n);
  f.evaluate(t, x, der_x, base);
  const auto diff = [&](const Eigen::VectorXd& step, Eigen::VectorXd& d) {
    for (std::size_t j = 0; j < n; ++j) moved_v[j] = v[j] + step[idx(j)];
    f.evaluate(t, order == 0 ? std::span<const double>(moved_v) : x,
               order == 0 ? der_x : std::span<const double>(moved_v), r);
    for (std::size_t i = 0; i < n; ++i) d[idx(i)] = r[i] - base[i];
  };
  const linalg::JacobianMatrix m =
      linalg::coloured_difference_jacobian(&coloured, increments, diff);
  for (std::size_t k = 0; k < s.entries.size(); ++k) {
    const SignatureEntry& e = s.entries[k];
    if (e.sigma == order) out[k] = m.sparse.coeff(idx(e.row), idx(e.col));
  }
}

/// Full-rank decision of a large matrix by KLU with the reinitialisation's singularity bound
/// (rcond >= kSingularRcond); only a matrix that fails it goes on to the rank-revealing QR that
/// names its null directions. A column-pivoted sparse QR of every system Jacobian filled in
/// badly: minutes for the rod chain of 10^4 unknowns that KLU factorises in milliseconds.
/// A regular matrix needs no rank analysis: a sparse LU with pivoting and a condition estimate
/// (KLU) says so in time linear in the entries for the chains and mechanisms this sees, where
/// the dense analysis (a full SVD) grows with the cube of the unknowns.
bool full_rank_sparse(const linalg::JacobianMatrix& a) {
  linalg::SquareSolver solver;
  if (a.is_sparse) return solver.factorize(a, {});
  linalg::JacobianMatrix sparse;
  sparse.is_sparse = true;
  sparse.sparse = a.dense.sparseView();
  return solver.factorize(sparse, {});
}

}  // namespace

std::vector<double> leading_partials(const SystemResidual& f, const SignatureMatrix& s, double t,
                                     std::span<const double> x, std::span<const double> der_x) {
  std::vector<double> out(s.entries.size(), 0.0);
  partials_of_order(f, s, 0, t, x, der_x, out);
  partials_of_order(f, s, 1, t, x, der_x, out);
  return out;
}

RankCheck check_rank(const ModelStructure& s, const std::vector<MatrixEntry>& a) {
  const std::size_t n = s.num_unknowns();
  RankCheck c;
  if (n > kDenseLimit) {  // compressed columns: a chain of 10^4 unknowns has 10^8 dense entries
    std::vector<Eigen::Triplet<double>> triplets;
    triplets.reserve(a.size());
    for (const MatrixEntry& e : a) triplets.emplace_back(idx(e.row), idx(e.col), e.value);
    c.scaled.is_sparse = true;
    c.scaled.sparse.resize(idx(n), idx(n));
    c.scaled.sparse.setFromTriplets(triplets.begin(), triplets.end());
  } else {
    c.scaled.dense = Eigen::MatrixXd::Zero(idx(n), idx(n));
    for (const MatrixEntry& e : a) c.scaled.dense(idx(e.row), idx(e.col)) += e.value;
  }
  Eigen::VectorXd col(idx(n));
  for (std::size_t j = 0; j < n; ++j) col[idx(j)] = s.variables.nominal(j);
  // A zero row stays zero (scale 1): it is the plainest kind of singularity.
  c.row_scale = c.scaled.row_max_abs(col).unaryExpr([](double m) { return m > 0 ? 1.0 / m : 1.0; });
  c.scaled.scale(c.row_scale, col);
  if (full_rank_sparse(c.scaled)) {
    c.deficiency.rank = idx(n);  // nothing to name
    return c;
  }
  c.deficiency = linalg::analyse_rank(c.scaled, linalg::WeakestDirection::kOnlyIfRankDeficient);
  return c;
}

std::optional<std::size_t> rank_by_blocks(const ModelStructure& s,
                                          const std::vector<MatrixEntry>& a,
                                          std::size_t max_block) {
  // Union-find over rows (0..n-1) and columns (n..2n-1).
  const std::size_t n = s.num_unknowns();
  std::vector<std::size_t> parent(2 * n);
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  const auto find = [&parent](std::size_t k) {
    while (parent[k] != k) k = parent[k] = parent[parent[k]];
    return k;
  };
  for (const MatrixEntry& e : a) parent[find(e.row)] = find(n + e.col);
  std::map<std::size_t, std::vector<MatrixEntry>> blocks;
  for (const MatrixEntry& e : a) blocks[find(e.row)].push_back(e);
  std::size_t rank = 0;
  for (const auto& [root, entries] : blocks) {
    std::map<std::size_t, Eigen::Index> rows, cols;
    for (const MatrixEntry& e : entries) {
      rows.emplace(e.row, static_cast<Eigen::Index>(rows.size()));
      cols.emplace(e.col, static_cast<Eigen::Index>(cols.size()));
    }
    if (rows.size() > max_block || cols.size() > max_block) return std::nullopt;
    // Equilibrated as check_rank does: columns by the unknowns' nominal values, rows by their
    // largest entry; square (padded with zeros), as the rank analysis takes it.
    const Eigen::Index size = static_cast<Eigen::Index>(std::max(rows.size(), cols.size()));
    linalg::JacobianMatrix block;
    block.dense = Eigen::MatrixXd::Zero(size, size);
    for (const MatrixEntry& e : entries) {
      block.dense(rows[e.row], cols[e.col]) += e.value * s.variables.nominal(e.col);
    }
    for (Eigen::Index i = 0; i < size; ++i) {
      const double m = block.dense.row(i).cwiseAbs().maxCoeff();
      if (m > 0.0) block.dense.row(i) /= m;
    }
    rank += static_cast<std::size_t>(
        linalg::analyse_rank(block, linalg::WeakestDirection::kOnlyIfRankDeficient).rank);
  }
  return rank;
}

std::vector<MatrixEntry> system_jacobian(const SignatureMatrix& s,
                                         const std::vector<double>& partials,
                                         const SigmaMethodResult& m) {
  std::vector<MatrixEntry> out;
  for (std::size_t k = 0; k < s.entries.size(); ++k) {
    const SignatureEntry& e = s.entries[k];
    if (m.d[e.col] - m.c[e.row] == e.sigma) out.push_back({e.row, e.col, partials[k]});
  }
  return out;
}

std::vector<MatrixEntry> mass_matrix(const SignatureMatrix& s,
                                     const std::vector<double>& partials) {
  std::vector<MatrixEntry> out;
  for (std::size_t k = 0; k < s.entries.size(); ++k) {
    if (s.entries[k].sigma == 1) out.push_back({s.entries[k].row, s.entries[k].col, partials[k]});
  }
  return out;
}

std::optional<RowCombination> dependent_combination(const RankCheck& j) {
  if (j.scaled.is_sparse) return std::nullopt;
  const Eigen::MatrixXd& a = j.scaled.dense;
  const Eigen::BDCSVD<Eigen::MatrixXd> svd(a, Eigen::ComputeFullU);
  const Eigen::VectorXd& sv = svd.singularValues();
  const Eigen::Index n = a.rows();
  Eigen::Index first_null = n;
  while (first_null > 0 && sv[first_null - 1] <= linalg::kRankTolerance * sv[0]) --first_null;
  if (first_null == n) return std::nullopt;
  // Rows of `basis` span the left null space; Gauss-Jordan with the largest pivot of the
  // first row makes the first row vanish on the other rows' pivots, i.e. as sparse as the
  // null space allows when its vectors have disjoint supports (the transistor amplifier).
  Eigen::MatrixXd basis = svd.matrixU().rightCols(n - first_null).transpose();
  for (Eigen::Index k = 0; k < basis.rows(); ++k) {
    Eigen::Index p = 0;
    basis.row(k).cwiseAbs().maxCoeff(&p);
    basis.row(k) /= basis(k, p);
    for (Eigen::Index other = 0; other < basis.rows(); ++other) {
      if (other != k) basis.row(other) -= basis(other, p) * basis.row(k);
    }
  }
  // Back to the unscaled rows: u^T (R J) = 0 means (R u)^T J = 0.
  Eigen::VectorXd u = j.row_scale.cwiseProduct(basis.row(0).transpose());
  Eigen::Index pivot = 0;
  u.cwiseAbs().maxCoeff(&pivot);
  u /= u[pivot];
  RowCombination c;
  c.replaced_row = static_cast<std::size_t>(pivot);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (std::abs(u[i]) > kNegligibleCoefficient) {
      c.rows.push_back(static_cast<std::size_t>(i));
      c.coefficients.push_back(u[i]);
    }
  }
  return c;
}

}  // namespace hdae::structure
