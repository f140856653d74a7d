#include "reinit/rank_diagnosis.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <Eigen/SVD>
#include <Eigen/SparseQR>

#include "reinit/linear_solver.hpp"

namespace hdae::reinit {
namespace {

/// Largest size analysed with a dense SVD (a few hundred unknowns take milliseconds);
/// larger ones use sparse QR null bases (cheap, but not orthonormal).
constexpr Eigen::Index kDenseAnalysisLimit = 500;
/// A row or column takes part in a null direction when its share of the (unit) null basis
/// exceeds this. Null vectors from a finite-difference matrix carry noise of about the
/// difference error (~1e-8); genuine participants of a scaled matrix are far above 1e-6.
constexpr double kParticipation = 1e-6;
/// Names listed before the rest is only counted.
constexpr std::size_t kMaxNames = 12;

/// Indices whose share exceeds kParticipation, strongest first (ties in index order).
std::vector<std::size_t> strongest_first(const Eigen::VectorXd& share) {
  std::vector<std::size_t> out;
  for (Eigen::Index i = 0; i < share.size(); ++i) {
    if (share[i] > kParticipation) out.push_back(static_cast<std::size_t>(i));
  }
  std::stable_sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) {
    return share[static_cast<Eigen::Index>(a)] > share[static_cast<Eigen::Index>(b)];
  });
  return out;
}

/// Share of each row of an orthonormal basis of the null directions: the length of the
/// projection of e_i onto their span.
std::vector<std::size_t> participants(const Eigen::MatrixXd& basis,
                                      const std::vector<Eigen::Index>& null_directions) {
  Eigen::VectorXd share = Eigen::VectorXd::Zero(basis.rows());
  for (const Eigen::Index k : null_directions) share += basis.col(k).cwiseAbs2();
  return strongest_first(share.cwiseSqrt());
}

RankDeficiency analyse_dense(const Eigen::MatrixXd& a, WeakestDirection weakest) {
  const Eigen::BDCSVD<Eigen::MatrixXd> svd(a, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Eigen::VectorXd& sigma = svd.singularValues();  // descending
  const Eigen::Index n = sigma.size();
  std::vector<Eigen::Index> null_directions;
  for (Eigen::Index k = 0; k < n; ++k) {
    if (sigma[k] <= kRankTolerance * sigma[0]) null_directions.push_back(k);
  }
  RankDeficiency d;
  d.rank = n - static_cast<Eigen::Index>(null_directions.size());
  if (weakest == WeakestDirection::kAlways && null_directions.empty() && n > 0) {
    null_directions.push_back(n - 1);
  }
  d.dependent_rows = participants(svd.matrixU(), null_directions);
  d.undetermined_columns = participants(svd.matrixV(), null_directions);
  return d;
}

/// Unit-column null basis of a from its column-pivoted sparse QR, a P = Q [R11 R12; 0 ~0]
/// with R11 of full rank: the columns of P [-R11^{-1} R12; I], one per dependent column.
Eigen::MatrixXd sparse_null_basis(const SparseMatrix& a, WeakestDirection weakest,
                                  Eigen::Index& rank) {
  Eigen::SparseQR<SparseMatrix, Eigen::COLAMDOrdering<int>> qr;
  qr.setPivotThreshold(kRankTolerance);
  qr.compute(a);
  const Eigen::Index n = a.cols();
  rank = qr.info() == Eigen::Success ? qr.rank() : 0;
  Eigen::Index r = rank;
  // The LU already judged the matrix singular: treat the last pivot as the weak one.
  if (weakest == WeakestDirection::kAlways && r == n && n > 0) r = n - 1;
  // Full rank: no null direction (and Eigen's sparse block of zero columns asserts).
  if (r == n) return Eigen::MatrixXd(n, 0);
  const SparseMatrix& big_r = qr.matrixR();
  const SparseMatrix r11 = big_r.block(0, 0, r, r);
  const Eigen::MatrixXd r12 = big_r.block(0, r, r, n - r).toDense();
  Eigen::MatrixXd y(n, n - r);
  y.topRows(r) = -(r11.triangularView<Eigen::Upper>().solve(r12));
  y.bottomRows(n - r).setIdentity();
  Eigen::MatrixXd basis = qr.colsPermutation() * y;
  for (Eigen::Index k = 0; k < basis.cols(); ++k) basis.col(k).normalize();
  return basis;
}

/// Share of each row of a unit-column (not orthonormal) basis: its largest entry.
std::vector<std::size_t> rows_with_entries(const Eigen::MatrixXd& basis) {
  if (basis.cols() == 0) return {};
  return strongest_first(basis.cwiseAbs().rowwise().maxCoeff());
}

RankDeficiency analyse_sparse(const SparseMatrix& a, WeakestDirection weakest) {
  RankDeficiency d;
  d.undetermined_columns = rows_with_entries(sparse_null_basis(a, weakest, d.rank));
  Eigen::Index rank_of_transpose = 0;
  const SparseMatrix transposed = a.transpose();
  d.dependent_rows = rows_with_entries(sparse_null_basis(transposed, weakest, rank_of_transpose));
  return d;
}

template <typename NameOf>
std::string name_list(const std::vector<std::size_t>& items, NameOf name_of) {
  // The first dozen are the ones listed; they are shown in model order.
  std::vector<std::size_t> shown(
      items.begin(),
      items.begin() + static_cast<std::ptrdiff_t>(std::min(items.size(), kMaxNames)));
  std::sort(shown.begin(), shown.end());
  std::string out = "{";
  for (std::size_t k = 0; k < shown.size(); ++k) {
    if (k > 0) out += ", ";
    out += name_of(shown[k]);
  }
  if (items.size() > kMaxNames) out += fmt::format(", ... ({} more)", items.size() - kMaxNames);
  return out + "}";
}

}  // namespace

RankDeficiency analyse_rank(const JacobianMatrix& a, WeakestDirection weakest) {
  if (a.is_sparse && a.size() > kDenseAnalysisLimit) return analyse_sparse(a.sparse, weakest);
  return analyse_dense(a.to_dense(), weakest);
}

std::string equation_list(const ModelStructure& structure, const std::vector<std::size_t>& rows) {
  return name_list(rows, [&](std::size_t i) {
    return i < structure.equations.size() ? structure.equations.name(i) : fmt::format("row {}", i);
  });
}

std::string variable_list(const ModelStructure& structure,
                          const std::vector<std::size_t>& columns) {
  return name_list(columns, [&](std::size_t j) {
    return j < structure.variables.size() ? structure.variables.name(j) : fmt::format("x[{}]", j);
  });
}

std::string describe_singular(std::string_view what, double t, const ModelStructure& structure,
                              const RankDeficiency& deficiency) {
  // A verdict always names equations and variables: when the null directions could not be
  // isolated (entries so large or small that every share drowns), all of them are suspects.
  const auto or_all = [](const std::vector<std::size_t>& named, std::size_t n) {
    if (!named.empty()) return named;
    std::vector<std::size_t> all(n);
    for (std::size_t i = 0; i < n; ++i) all[i] = i;
    return all;
  };
  return fmt::format(
      "{} is singular at t = {}: equations {} are dependent; variables {} are not "
      "determined",
      what, t,
      equation_list(structure, or_all(deficiency.dependent_rows, structure.equations.size())),
      variable_list(structure,
                    or_all(deficiency.undetermined_columns, structure.variables.size())));
}

}  // namespace hdae::reinit
