// JacobianMatrix (linalg/fd_jacobian.hpp): a sparse matrix without the zeros its pattern
// stores, which the consistent-derivative solve factorizes in place of the whole pattern.
#include <doctest/doctest.h>

#include "linalg/fd_jacobian.hpp"
#include "linalg/linear_solver.hpp"

using namespace hdae::linalg;

namespace {

/// A 3 x 3 pattern with every entry stored, of which only the anti-diagonal and entry (0, 0)
/// hold non-zero values: a permuted triangular matrix in the storage of a full one.
JacobianMatrix stored_zeros() {
  Eigen::MatrixXd values(3, 3);
  values << 4.0, 0.0, 2.0,  //
      0.0, -3.0, 0.0,       //
      5.0, 0.0, 0.0;
  JacobianMatrix a;
  a.is_sparse = true;
  a.sparse.resize(3, 3);
  a.sparse.reserve(9);
  for (Eigen::Index j = 0; j < 3; ++j) {
    for (Eigen::Index i = 0; i < 3; ++i) a.sparse.insert(i, j) = values(i, j);
  }
  a.sparse.makeCompressed();
  return a;
}

}  // namespace

TEST_CASE("a sparse matrix without its zeros is the same matrix in fewer entries") {
  const JacobianMatrix a = stored_zeros();
  REQUIRE(a.sparse.nonZeros() == 9);
  const JacobianMatrix b = a.without_zeros();
  CHECK(b.is_sparse);
  CHECK(b.sparse.isCompressed());
  CHECK(b.sparse.nonZeros() == 4);
  CHECK(b.to_dense() == a.to_dense());

  // An uncompressed matrix gives the same.
  JacobianMatrix open = a;
  open.sparse.uncompress();
  CHECK(open.without_zeros().sparse.nonZeros() == 4);
  CHECK(open.without_zeros().to_dense() == a.to_dense());
}

TEST_CASE("a matrix and the same without its zeros give the same solve") {
  const JacobianMatrix a = stored_zeros();
  const Eigen::Vector3d x(0.5, -1.0, 1.5);
  const Eigen::Vector3d b = a.to_dense() * x;
  SquareSolver whole, nonzeros;
  REQUIRE(whole.factorize(a, {}));
  REQUIRE(nonzeros.factorize(a.without_zeros(), {}));
  // Both are LU factorizations of the same 3 x 3 matrix with entries of order one; the answer
  // is exact to a few units of rounding (1e-14).
  CHECK((whole.solve(b) - x).cwiseAbs().maxCoeff() < 1e-14);
  CHECK((nonzeros.solve(b) - x).cwiseAbs().maxCoeff() < 1e-14);
}

TEST_CASE("a matrix without its zeros that has a zero column is found singular") {
  // The structurally singular case: column 1 holds only a stored zero, which without_zeros
  // drops, so KLU sees a column with no entry at all.
  JacobianMatrix a = stored_zeros();
  a.sparse.coeffRef(1, 1) = 0.0;
  SquareSolver solver;
  CHECK_FALSE(solver.factorize(a, {}));
  CHECK_FALSE(solver.factorize(a.without_zeros(), {}));
}

TEST_CASE("a dense matrix without its zeros is the matrix as it is") {
  JacobianMatrix a;
  a.dense = Eigen::Matrix2d{{1.0, 0.0}, {0.0, 2.0}};
  const JacobianMatrix b = a.without_zeros();
  CHECK_FALSE(b.is_sparse);
  CHECK(b.dense == a.dense);
}
