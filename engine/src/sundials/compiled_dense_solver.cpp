#include "sundials/compiled_dense_solver.hpp"

#include <cmath>
#include <utility>

#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

namespace hdae::sundials {
namespace {

SUNLinearSolverContent_Dense content(SUNLinearSolver s) {
  return static_cast<SUNLinearSolverContent_Dense>(s->content);
}

/// Step k of the elimination: the largest |entry| of column k on and below the diagonal (the
/// first of equal ones) becomes the pivot.
sunindextype pivot_row(const double* column, sunindextype k, sunindextype m) {
  sunindextype l = k;
  for (sunindextype i = k + 1; i < m; ++i) {
    if (std::abs(column[i]) > std::abs(column[l])) l = i;
  }
  return l;
}

int setup(SUNLinearSolver s, SUNMatrix a) {
  if (a == nullptr || s == nullptr) return SUNLS_MEM_NULL;
  if (SUNMatGetID(a) != SUNMATRIX_DENSE) {
    content(s)->last_flag = SUNLS_ILL_INPUT;
    return SUNLS_ILL_INPUT;
  }
  if (SM_COLS_D(a) == nullptr || content(s)->pivots == nullptr) {
    content(s)->last_flag = SUNLS_MEM_FAIL;
    return SUNLS_MEM_FAIL;
  }
  content(s)->last_flag =
      factorize_dense(SM_COLS_D(a), SM_ROWS_D(a), SM_COLUMNS_D(a), content(s)->pivots);
  return content(s)->last_flag > 0 ? SUNLS_LUFACT_FAIL : SUNLS_SUCCESS;
}

int solve(SUNLinearSolver s, SUNMatrix a, N_Vector x, N_Vector b, double /*tol*/) {
  if (a == nullptr || s == nullptr || x == nullptr || b == nullptr) return SUNLS_MEM_NULL;
  N_VScale(1.0, b, x);
  double* xd = N_VGetArrayPointer(x);
  if (SM_COLS_D(a) == nullptr || xd == nullptr || content(s)->pivots == nullptr) {
    content(s)->last_flag = SUNLS_MEM_FAIL;
    return SUNLS_MEM_FAIL;
  }
  solve_dense(SM_COLS_D(a), SM_ROWS_D(a), content(s)->pivots, xd);
  content(s)->last_flag = SUNLS_SUCCESS;
  return SUNLS_SUCCESS;
}

int zero(SUNMatrix a) {
  double* data = SM_DATA_D(a);
  for (sunindextype i = 0; i < SM_LDATA_D(a); ++i) data[i] = 0.0;
  return SUNMAT_SUCCESS;
}

}  // namespace

sunindextype factorize_dense(double** columns, sunindextype m, sunindextype n,
                             sunindextype* pivots) {
  for (sunindextype k = 0; k < n; ++k) {
    double* col_k = columns[k];
    const sunindextype l = pivot_row(col_k, k, m);
    pivots[k] = l;
    if (col_k[l] == 0.0) return k + 1;
    if (l != k) {
      for (sunindextype j = 0; j < n; ++j) std::swap(columns[j][l], columns[j][k]);
    }
    // The multipliers a(i,k) / a(k,k) below the pivot, then the rows below it updated one
    // column at a time; a column whose entry in the pivot row is zero is left alone.
    const double mult = 1.0 / col_k[k];
    for (sunindextype i = k + 1; i < m; ++i) col_k[i] *= mult;
    for (sunindextype j = k + 1; j < n; ++j) {
      double* col_j = columns[j];
      const double a_kj = col_j[k];
      if (a_kj == 0.0) continue;
      for (sunindextype i = k + 1; i < m; ++i) col_j[i] -= a_kj * col_k[i];
    }
  }
  return 0;
}

void solve_dense(double** columns, sunindextype n, const sunindextype* pivots, double* b) {
  for (sunindextype k = 0; k < n; ++k) {
    if (pivots[k] != k) std::swap(b[k], b[pivots[k]]);
  }
  for (sunindextype k = 0; k < n - 1; ++k) {  // L y = b
    const double* col_k = columns[k];
    const double bk = b[k];
    for (sunindextype i = k + 1; i < n; ++i) b[i] -= col_k[i] * bk;
  }
  for (sunindextype k = n - 1; k > 0; --k) {  // U x = y
    const double* col_k = columns[k];
    b[k] /= col_k[k];
    const double bk = b[k];
    for (sunindextype i = 0; i < k; ++i) b[i] -= col_k[i] * bk;
  }
  b[0] /= columns[0][0];
}

void use_compiled_operations(SUNLinearSolver dense_solver) {
  dense_solver->ops->setup = setup;
  dense_solver->ops->solve = solve;
}

void use_compiled_operations(SUNMatrix dense_matrix) { dense_matrix->ops->zero = zero; }

}  // namespace hdae::sundials
