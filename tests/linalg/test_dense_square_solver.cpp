// The dense path of SquareSolver (linalg/linear_solver.hpp): partial pivoting for large, well
// conditioned matrices, full pivoting for small or poorly conditioned ones, and the verdict
// "singular" from full pivoting either way.
#include <cmath>

#include <doctest/doctest.h>

#include "linalg/linear_solver.hpp"

using namespace hdae::linalg;

namespace {

/// The tridiagonal matrix of the discrete Laplacian, -1 2 -1, of size n: symmetric positive
/// definite, every eigenvalue in (0, 4), so well conditioned enough for any size used here.
JacobianMatrix laplacian(Eigen::Index n) {
  JacobianMatrix a;
  a.dense = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    a.dense(i, i) = 2.0;
    if (i > 0) a.dense(i, i - 1) = -1.0;
    if (i + 1 < n) a.dense(i, i + 1) = -1.0;
  }
  return a;
}

/// x_i = sin(i): b = A x, so the solve must give x back.
double solve_error(SquareSolver& solver, const JacobianMatrix& a) {
  Eigen::VectorXd x(a.dense.rows());
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = std::sin(static_cast<double>(i));
  const Eigen::VectorXd found = solver.solve(a.dense * x);
  return (found - x).cwiseAbs().maxCoeff();
}

}  // namespace

TEST_CASE("dense systems small and large are solved to round-off, whichever pivoting") {
  for (const Eigen::Index n : {Eigen::Index{8}, kPartialPivotingFrom, Eigen::Index{300}}) {
    SquareSolver solver;
    const JacobianMatrix a = laplacian(n);
    REQUIRE(solver.factorize(a, {}));
    // cond_1 of the Laplacian grows like n^2 (about 4e4 at n = 300), so the error of a
    // backward-stable solve is below 1e5 eps times |x| <= 1.
    CHECK(solve_error(solver, a) < 1e5 * 2.2e-16);
    CHECK(solver.rcond() > kFullPivotingRcond);
  }
}

TEST_CASE("a large matrix with two dependent rows is singular, as with full pivoting") {
  // Row 1 repeats row 0 with the opposite sign (a constraint written twice): the exact LU has
  // a zero pivot, which Eigen's condition estimate for partial pivoting does not expect.
  JacobianMatrix a = laplacian(100);
  a.dense.row(1) = -a.dense.row(0);
  SquareSolver solver;
  CHECK_FALSE(solver.factorize(a, {}));
}

TEST_CASE("a large, poorly conditioned matrix is solved with full pivoting") {
  // Column 0 scaled by 1e-8: rcond near 1e-8 < kFullPivotingRcond, still regular.
  JacobianMatrix a = laplacian(100);
  a.dense.col(0) *= 1e-8;
  SquareSolver solver;
  REQUIRE(solver.factorize(a, {}));
  CHECK(solver.rcond() < kFullPivotingRcond);
  CHECK(solver.rcond() > kSingularRcond);
  // The first unknown is scaled up by 1e8 in the answer; the others keep their size.
  Eigen::VectorXd x = Eigen::VectorXd::Ones(100);
  const Eigen::VectorXd found = solver.solve(a.dense * x);
  // cond about 1e8 times its factor from the Laplacian: an error below 1e-4 relative.
  CHECK((found - x).cwiseAbs().maxCoeff() < 1e-4);
}
