// LU factorisation with partial pivoting of a small dense matrix held column-major in a
// caller's buffer: the state selection judges blocks of a few rows at every step end, where a
// general library factorisation spends more on its set-up than on the arithmetic.
#pragma once

#include <cmath>
#include <cstddef>
#include <span>
#include <utility>

namespace hdae::reduction {

/// Factors the n x n matrix a (column-major) in place: L below the diagonal (unit diagonal),
/// U on and above it, rows k and pivots[k] exchanged at step k. False when a pivot is zero or
/// not finite (the matrix is singular to working precision).
inline bool small_lu(std::span<double> a, std::size_t n, std::span<std::size_t> pivots) {
  for (std::size_t k = 0; k < n; ++k) {
    double* col_k = &a[k * n];
    std::size_t p = k;
    for (std::size_t i = k + 1; i < n; ++i) {
      if (std::abs(col_k[i]) > std::abs(col_k[p])) p = i;
    }
    pivots[k] = p;
    if (!(col_k[p] != 0.0) || !std::isfinite(col_k[p])) return false;
    if (p != k) {
      for (std::size_t j = 0; j < n; ++j) std::swap(a[j * n + p], a[j * n + k]);
    }
    const double inverse = 1.0 / col_k[k];
    for (std::size_t i = k + 1; i < n; ++i) col_k[i] *= inverse;
    for (std::size_t j = k + 1; j < n; ++j) {
      double* col_j = &a[j * n];
      const double a_kj = col_j[k];
      for (std::size_t i = k + 1; i < n; ++i) col_j[i] -= a_kj * col_k[i];
    }
  }
  return true;
}

/// Solves A x = b in place with small_lu's factors of A.
inline void small_lu_solve(std::span<const double> lu, std::size_t n,
                           std::span<const std::size_t> pivots, std::span<double> b) {
  for (std::size_t k = 0; k < n; ++k) std::swap(b[k], b[pivots[k]]);
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t i = k + 1; i < n; ++i) b[i] -= lu[k * n + i] * b[k];
  }
  for (std::size_t k = n; k-- > 0;) {
    b[k] /= lu[k * n + k];
    for (std::size_t i = 0; i < k; ++i) b[i] -= lu[k * n + i] * b[k];
  }
}

}  // namespace hdae::reduction
