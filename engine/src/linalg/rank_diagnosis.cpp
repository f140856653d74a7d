#include "linalg/rank_diagnosis.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <Eigen/SPQRSupport>
#include <Eigen/SVD>

#include "linalg/linear_solver.hpp"

namespace hdae::linalg {
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

/// Share of each column of a in its null space: the largest entry of each row over the unit
/// columns of the null basis P [-R11^{-1} R12; I] from a's rank-revealing sparse QR,
/// a P = Q [R11 R12; 0 ~0] with R11 of full rank (one basis column per dependent column).
/// Empty when a has full rank. SuiteSparseQR (multifrontal, with its own fill-reducing
/// ordering) rather than Eigen's SparseQR: on a 2000-mass chain whose masses vanish beside the
/// springs Eigen's left-looking factorisation took minutes. Columns whose remaining norm is at
/// most kRankTolerance (the matrix is equilibrated) count as dependent and come last in P.
/// The basis is formed a block of columns at a time, so that thousands of null directions of
/// a large matrix need no dense n x (n - r) matrix.
Eigen::VectorXd sparse_null_shares(const SparseMatrix& a, WeakestDirection weakest,
                                   Eigen::Index& rank) {
  Eigen::SPQR<SparseMatrix> qr;
  qr.setPivotThreshold(kRankTolerance);
  qr.compute(a);
  const Eigen::Index n = a.cols();
  rank = 0;
  // No factorisation (out of memory): nothing is known; the caller names every suspect.
  if (qr.cholmodCommon()->status != CHOLMOD_OK) return {};
  rank = qr.rank();
  Eigen::Index r = rank;
  // The LU already judged the matrix singular: treat the last pivot as the weak one.
  if (weakest == WeakestDirection::kAlways && r == n && n > 0) r = n - 1;
  if (r == n) return {};
  // SuiteSparseQR's own index type.
  using RFactor = Eigen::SPQR<SparseMatrix>::MatrixType;
  const RFactor big_r = qr.matrixR();
  const RFactor r11 = big_r.block(0, 0, r, r);
  Eigen::VectorXd share = Eigen::VectorXd::Zero(n);
  constexpr Eigen::Index kBlock = 64;
  for (Eigen::Index first = r; first < n; first += kBlock) {
    const Eigen::Index width = std::min(kBlock, n - first);
    Eigen::MatrixXd y = Eigen::MatrixXd::Zero(n, width);
    const Eigen::MatrixXd r12 = big_r.block(0, first, r, width).toDense();
    y.topRows(r) = -(r11.triangularView<Eigen::Upper>().solve(r12));
    for (Eigen::Index k = 0; k < width; ++k) y(first + k, k) = 1.0;
    Eigen::MatrixXd basis = qr.colsPermutation() * y;
    for (Eigen::Index k = 0; k < width; ++k) basis.col(k).normalize();
    share = share.cwiseMax(basis.cwiseAbs().rowwise().maxCoeff());
  }
  return share;
}

RankDeficiency analyse_sparse(const SparseMatrix& a, WeakestDirection weakest) {
  RankDeficiency d;
  d.undetermined_columns = strongest_first(sparse_null_shares(a, weakest, d.rank));
  Eigen::Index rank_of_transpose = 0;
  const SparseMatrix transposed = a.transpose();
  d.dependent_rows = strongest_first(sparse_null_shares(transposed, weakest, rank_of_transpose));
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

}  // namespace hdae::linalg
