#include "reinit/rank_diagnosis.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/SVD>
#include <Eigen/SparseQR>
#include <fmt/format.h>

#include "reinit/linear_solver.hpp"

namespace hdae::reinit {
namespace {

/// Largest size analysed with a dense SVD (a few hundred unknowns take milliseconds).
constexpr Eigen::Index kDenseAnalysisLimit = 500;
/// A row or column takes part in a null direction when its share of the (unit) null basis
/// exceeds this. Null vectors from a finite-difference matrix carry noise of about the
/// difference error (~1e-8); genuine participants of a scaled matrix are far above 1e-6.
constexpr double kParticipation = 1e-6;
/// Names listed before the rest is only counted.
constexpr std::size_t kMaxNames = 12;

std::vector<std::size_t> participants(const Eigen::MatrixXd& basis,
                                      const std::vector<Eigen::Index>& null_directions) {
  std::vector<std::size_t> out;
  for (Eigen::Index i = 0; i < basis.rows(); ++i) {
    double share = 0.0;
    for (const Eigen::Index k : null_directions) share += basis(i, k) * basis(i, k);
    if (std::sqrt(share) > kParticipation) out.push_back(static_cast<std::size_t>(i));
  }
  return out;
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

/// Columns that a column-pivoted QR leaves behind once the rank is exhausted: each of them
/// depends on the columns before it, so together they are the undetermined ones.
std::vector<std::size_t> trailing_columns(const SparseMatrix& a, WeakestDirection weakest,
                                          Eigen::Index& rank) {
  Eigen::SparseQR<SparseMatrix, Eigen::COLAMDOrdering<int>> qr;
  qr.setPivotThreshold(kRankTolerance);
  qr.compute(a);
  rank = qr.rank();
  Eigen::Index first = rank;
  if (weakest == WeakestDirection::kAlways && first == a.cols() && first > 0) --first;
  std::vector<std::size_t> out;
  for (Eigen::Index k = first; k < a.cols(); ++k) {
    out.push_back(static_cast<std::size_t>(qr.colsPermutation().indices()[k]));
  }
  std::sort(out.begin(), out.end());
  return out;
}

RankDeficiency analyse_sparse(const SparseMatrix& a, WeakestDirection weakest) {
  RankDeficiency d;
  d.undetermined_columns = trailing_columns(a, weakest, d.rank);
  Eigen::Index rank_of_transpose = 0;
  const SparseMatrix transposed = a.transpose();
  d.dependent_rows = trailing_columns(transposed, weakest, rank_of_transpose);
  return d;
}

template <typename NameOf>
std::string name_list(const std::vector<std::size_t>& items, NameOf name_of) {
  std::string out = "{";
  for (std::size_t k = 0; k < items.size() && k < kMaxNames; ++k) {
    if (k > 0) out += ", ";
    out += name_of(items[k]);
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
    return i < structure.equations.size() ? structure.equations[i].name
                                          : fmt::format("row {}", i);
  });
}

std::string variable_list(const ModelStructure& structure,
                          const std::vector<std::size_t>& columns) {
  return name_list(columns, [&](std::size_t j) {
    return j < structure.variables.size() ? structure.variables[j].name
                                          : fmt::format("x[{}]", j);
  });
}

std::string describe_singular(std::string_view what, double t, const ModelStructure& structure,
                              const RankDeficiency& deficiency) {
  return fmt::format("{} is singular at t = {}: equations {} are dependent; variables {} are not "
                     "determined",
                     what, t, equation_list(structure, deficiency.dependent_rows),
                     variable_list(structure, deficiency.undetermined_columns));
}

}  // namespace hdae::reinit
