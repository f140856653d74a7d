// hdae's compiled dense LU (sundials/compiled_dense_solver.hpp) against SUNDIALS' own
// SUNDlsMat_denseGETRF/GETRS and SUNLinSol_Dense: the same pivots and the same bits in the
// factors and solutions, on matrices that make every branch run (row exchanges, zero entries in
// the pivot row, a singular matrix). The expected values are SUNDIALS' own results on the same
// inputs; that the solution solves A x = b is checked on its own.
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <doctest/doctest.h>
#include <sundials/sundials_dense.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "sundials/compiled_dense_solver.hpp"
#include "sundials/handles.hpp"

using namespace hdae::sundials;

namespace {

/// An n x n matrix (column-major) with entries in [-3, 3], each off the diagonal zero with
/// probability 1/7 (regular for the fixed seeds used here: every factorisation succeeds).
std::vector<double> random_matrix(sunindextype n, std::mt19937& random) {
  std::uniform_real_distribution<double> value(-3.0, 3.0);
  std::bernoulli_distribution zero(1.0 / 7.0);
  std::vector<double> a(static_cast<std::size_t>(n * n));
  for (sunindextype j = 0; j < n; ++j) {
    for (sunindextype i = 0; i < n; ++i) {
      a[static_cast<std::size_t>(i + j * n)] = i != j && zero(random) ? 0.0 : value(random);
    }
  }
  return a;
}

/// Column pointers into column-major data, as SUNDIALS' dense routines take them.
std::vector<double*> columns_of(std::vector<double>& data, sunindextype n) {
  std::vector<double*> c(static_cast<std::size_t>(n));
  for (sunindextype j = 0; j < n; ++j) c[static_cast<std::size_t>(j)] = data.data() + j * n;
  return c;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

}  // namespace

TEST_CASE("the compiled dense LU gives SUNDIALS' pivots, factors and solutions bit for bit") {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> value(-3.0, 3.0);
  for (sunindextype n = 1; n <= 24; ++n) {
    CAPTURE(n);
    std::vector<double> theirs = random_matrix(n, random);
    std::vector<double> ours = theirs;
    const std::vector<double> original = theirs;
    std::vector<double*> their_columns = columns_of(theirs, n);
    std::vector<double*> our_columns = columns_of(ours, n);
    std::vector<sunindextype> their_pivots(static_cast<std::size_t>(n));
    std::vector<sunindextype> our_pivots(static_cast<std::size_t>(n));
    REQUIRE(SUNDlsMat_denseGETRF(their_columns.data(), n, n, their_pivots.data()) == 0);
    REQUIRE(factorize_dense(our_columns.data(), n, n, our_pivots.data()) == 0);
    CHECK(our_pivots == their_pivots);
    CHECK(same_bits(ours, theirs));

    std::vector<double> b(static_cast<std::size_t>(n));
    for (double& v : b) v = value(random);
    std::vector<double> their_x = b;
    std::vector<double> our_x = b;
    SUNDlsMat_denseGETRS(their_columns.data(), n, their_pivots.data(), their_x.data());
    solve_dense(our_columns.data(), n, our_pivots.data(), our_x.data());
    CHECK(same_bits(our_x, their_x));
    // And the solution solves the system: |A x - b| at round-off of the entries' size.
    for (sunindextype i = 0; i < n; ++i) {
      double r = -b[static_cast<std::size_t>(i)];
      for (sunindextype j = 0; j < n; ++j) {
        r += original[static_cast<std::size_t>(i + j * n)] * our_x[static_cast<std::size_t>(j)];
      }
      CHECK(std::abs(r) < 1e-10);
    }
  }
}

TEST_CASE("the compiled dense LU reports a singular matrix at the step SUNDIALS reports") {
  // Column 2 is twice column 0: elimination finds a zero pivot column at step 2 (1-based 3).
  constexpr sunindextype kN = 4;
  std::vector<double> theirs = {1, 2, 0, 4, 0, 1, 5, 2, 2, 4, 0, 8, 3, 1, 1, 1};
  std::vector<double> ours = theirs;
  std::vector<double*> their_columns = columns_of(theirs, kN);
  std::vector<double*> our_columns = columns_of(ours, kN);
  std::vector<sunindextype> their_pivots(kN), our_pivots(kN);
  const sunindextype theirs_flag =
      SUNDlsMat_denseGETRF(their_columns.data(), kN, kN, their_pivots.data());
  CHECK(theirs_flag == 3);
  CHECK(factorize_dense(our_columns.data(), kN, kN, our_pivots.data()) == theirs_flag);
}

TEST_CASE("a SUNLinSol_Dense with the compiled operations solves as SUNDIALS' own does") {
  Context context = make_context();
  std::mt19937 random(5);
  constexpr sunindextype kN = 9;
  Vector y(N_VNew_Serial(kN, context.get()));
  Matrix theirs(SUNDenseMatrix(kN, kN, context.get()));
  Matrix ours(SUNDenseMatrix(kN, kN, context.get()));
  LinearSolver their_solver(SUNLinSol_Dense(y.get(), theirs.get(), context.get()));
  LinearSolver our_solver(SUNLinSol_Dense(y.get(), ours.get(), context.get()));
  use_compiled_operations(our_solver.get());
  use_compiled_operations(ours.get());
  const std::vector<double> a = random_matrix(kN, random);
  std::copy(a.begin(), a.end(), SM_DATA_D(theirs.get()));
  std::copy(a.begin(), a.end(), SM_DATA_D(ours.get()));
  REQUIRE(SUNLinSolSetup(their_solver.get(), theirs.get()) == SUNLS_SUCCESS);
  REQUIRE(SUNLinSolSetup(our_solver.get(), ours.get()) == SUNLS_SUCCESS);
  Vector b(N_VNew_Serial(kN, context.get()));
  Vector their_x(N_VNew_Serial(kN, context.get()));
  Vector our_x(N_VNew_Serial(kN, context.get()));
  for (sunindextype i = 0; i < kN; ++i) NV_Ith_S(b.get(), i) = 1.0 + static_cast<double>(i);
  REQUIRE(SUNLinSolSolve(their_solver.get(), theirs.get(), their_x.get(), b.get(), 0.0) == 0);
  REQUIRE(SUNLinSolSolve(our_solver.get(), ours.get(), our_x.get(), b.get(), 0.0) == 0);
  CHECK(std::memcmp(N_VGetArrayPointer(our_x.get()), N_VGetArrayPointer(their_x.get()),
                    kN * sizeof(double)) == 0);
  CHECK(SUNLinSolLastFlag(our_solver.get()) == SUNLinSolLastFlag(their_solver.get()));
  SUNMatZero(ours.get());
  for (sunindextype i = 0; i < kN * kN; ++i) CHECK(SM_DATA_D(ours.get())[i] == 0.0);
}
