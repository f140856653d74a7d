// SUNDIALS' dense direct linear solver compiled with hdae (docs/design.md, "Vector
// operations"). Debian 12 builds libsundials 6.4.1 without optimisation, so the LU
// factorisation and the triangular solves of SUNLinSol_Dense, and the zeroing of a dense
// matrix, take several times the instructions an optimised loop takes: on a DAE of ten to
// twenty unknowns (a reduced mechanism) they are a fifth of a step. SUNDIALS lets an object
// carry operations of its own (its operation tables): hdae keeps SUNDIALS' solver and matrix,
// their content and error flags, and puts there loops that do the same arithmetic in the same
// order (column-oriented Gaussian elimination with partial pivoting, the first largest pivot
// taken), so that factors and solutions are identical bit for bit
// (tests/sundials/test_compiled_dense_solver.cpp compares them with SUNDIALS' own).
#pragma once

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

namespace hdae::sundials {

/// Replaces the setup (LU factorisation) and solve of a SUNLinSol_Dense by hdae's.
void use_compiled_operations(SUNLinearSolver dense_solver);

/// Replaces the zeroing of a SUNDenseMatrix by hdae's.
void use_compiled_operations(SUNMatrix dense_matrix);

/// The factorisation itself, on the columns of an m x n matrix (m >= n): L below the diagonal
/// (unit diagonal), U on and above it, row k exchanged with row pivots[k] at step k. 0 on
/// success, else k + 1 for the first step k whose pivot column is zero below the diagonal.
[[nodiscard]] sunindextype factorize_dense(double** columns, sunindextype m, sunindextype n,
                                           sunindextype* pivots);

/// Solves A x = b in place (b holds x on return) with factorize_dense's factors of A (n x n).
void solve_dense(double** columns, sunindextype n, const sunindextype* pivots, double* b);

}  // namespace hdae::sundials
