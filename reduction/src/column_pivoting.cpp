#include "column_pivoting.hpp"

#include <cmath>

#include <Eigen/QR>

namespace hdae::reduction {

Pick pick_columns(const Eigen::MatrixXd& a, const std::vector<bool>& forced, std::size_t count) {
  using Index = Eigen::Index;
  const double largest = a.colwise().norm().maxCoeff();
  std::vector<Index> kept, free;
  for (Index c = 0; c < a.cols(); ++c) {
    (forced[static_cast<std::size_t>(c)] ? kept : free).push_back(c);
  }
  Pick pick{{kept.begin(), kept.end()}, 1.0};
  Eigen::MatrixXd rest = a(Eigen::all, free);
  if (!kept.empty()) {
    const auto k = static_cast<Index>(kept.size());
    if (k > a.rows()) return {};
    const Eigen::HouseholderQR<Eigen::MatrixXd> qr(a(Eigen::all, kept));
    for (Index p = 0; p < k; ++p) {
      const double pivot = std::abs(qr.matrixQR()(p, p));
      if (!(pivot > kSingularPick * largest)) return {};
      pick.determinant *= pivot;
    }
    const Eigen::MatrixXd q = qr.householderQ() * Eigen::MatrixXd::Identity(a.rows(), k);
    rest -= q * (q.transpose() * rest);
  }
  if (pick.columns.size() >= count) return pick;
  const auto more = static_cast<Index>(count - pick.columns.size());
  if (more > rest.cols()) return {};
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(rest);
  for (Index p = 0; p < more; ++p) {
    const double pivot = std::abs(qr.matrixQR()(p, p));
    if (!(pivot > kSingularPick * largest)) return {};
    pick.determinant *= pivot;
    const Index column = qr.colsPermutation().indices()[p];
    pick.columns.push_back(static_cast<std::size_t>(free[static_cast<std::size_t>(column)]));
  }
  return pick;
}

}  // namespace hdae::reduction
