// The minimum-norm solution of a sparse linear system, for the consistent start of a large
// reduced model (consistent_start.hpp), whose Gauss-Newton steps are the smallest moves that
// make the linearised equations hold.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace hdae::reduction {

/// x of least norm with m x = rhs, from SuiteSparseQR's rank-revealing QR of m^T: with
/// m^T P = Q [R11 R12; 0 0], R11 of the numerical rank r (columns of norm below `tolerance`
/// after orthogonalisation count as dependent), x = Q [R11^-T (P^T rhs)_1..r; 0]. The rows of
/// m beyond its rank are not imposed: for a consistent system x solves every row; otherwise
/// it solves the independent rows the factorisation kept. Rows of m should be of similar size
/// (equilibrated), as the tolerance is absolute.
[[nodiscard]] Eigen::VectorXd minimum_norm_solution(const Eigen::SparseMatrix<double>& m,
                                                    const Eigen::VectorXd& rhs, double tolerance);

}  // namespace hdae::reduction
