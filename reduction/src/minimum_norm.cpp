#include "minimum_norm.hpp"

#include <cmath>

#include <Eigen/SPQRSupport>

namespace hdae::reduction {

Eigen::VectorXd minimum_norm_solution(const Eigen::SparseMatrix<double>& m,
                                      const Eigen::VectorXd& rhs, double tolerance) {
  const Eigen::SparseMatrix<double> transposed = m.transpose();
  Eigen::SPQR<Eigen::SparseMatrix<double>> qr;
  qr.setPivotThreshold(tolerance);
  qr.compute(transposed);
  if (qr.info() != Eigen::Success) return Eigen::VectorXd::Constant(m.cols(), std::nan(""));
  const Eigen::Index r = qr.rank();
  const Eigen::VectorXd permuted = qr.colsPermutation().transpose() * rhs;
  using RFactor = Eigen::SPQR<Eigen::SparseMatrix<double>>::MatrixType;
  const RFactor r11 = qr.matrixR().block(0, 0, r, r);
  Eigen::VectorXd y = Eigen::VectorXd::Zero(m.cols());
  y.head(r) = r11.transpose().triangularView<Eigen::Lower>().solve(permuted.head(r));
  return qr.matrixQ() * y;
}

}  // namespace hdae::reduction
