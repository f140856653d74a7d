// Finite-difference Jacobians for the re-initialization module (docs/design.md, "The jump solve").
//
// The jump solve and the consistent-derivative solve both need the matrix of a vector
// function of n unknowns: the Newton matrix of the jump equations (ITI paper eq. 8) and
// J = [M_d; d f_c/dx]. Both are built here from differences of residual evaluations, either
// dense (one evaluation per column) or, when the model declares its sparsity pattern,
// column-coloured (Curtis, Powell and Reid 1974: one evaluation per colour, see
// sparsity/), so that a chain-like model of any size costs a handful of
// residual calls. The result is a JacobianMatrix, which linear_solver.hpp factorises and
// rank_diagnosis.hpp analyses when it is singular.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include "hdae/model.hpp"
#include "sparsity/sparsity_pattern.hpp"

namespace hdae::linalg {

using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

/// An n x n matrix stored densely or in compressed columns with the model's pattern.
struct JacobianMatrix {
  JacobianMatrix() = default;
  JacobianMatrix(const JacobianMatrix&) = default;
  JacobianMatrix& operator=(const JacobianMatrix&) = default;
  /// Eigen 3.4's SparseMatrix has no move operations, so a defaulted move would copy its
  /// arrays (a matrix of 10^7 entries per return or assignment); these swap them.
  JacobianMatrix(JacobianMatrix&& other) noexcept;
  JacobianMatrix& operator=(JacobianMatrix&& other) noexcept;
  ~JacobianMatrix() = default;

  bool is_sparse = false;
  Eigen::MatrixXd dense;  ///< used when !is_sparse
  SparseMatrix sparse;    ///< used when is_sparse; every pattern entry is stored, even zeros

  [[nodiscard]] Eigen::Index size() const { return is_sparse ? sparse.rows() : dense.rows(); }
  /// a_ij <- row[i] * a_ij * col[j].
  void scale(const Eigen::VectorXd& row, const Eigen::VectorXd& col);
  /// max_j |a_ij| * col[j] for each row i.
  [[nodiscard]] Eigen::VectorXd row_max_abs(const Eigen::VectorXd& col) const;
  /// f(i, a_ij) for the entries of column j: the stored ones of a sparse matrix (zeros of the
  /// pattern included), every row of a dense one.
  template <class F>
  void for_each_in_column(Eigen::Index j, F&& f) const {
    if (is_sparse) {
      for (SparseMatrix::InnerIterator it(sparse, j); it; ++it) f(it.row(), it.value());
    } else {
      for (Eigen::Index i = 0; i < dense.rows(); ++i) f(i, dense(i, j));
    }
  }
  [[nodiscard]] Eigen::VectorXd multiply(const Eigen::VectorXd& v) const;
  /// |A| v, the entries taken by magnitude (the size of the terms a product sums).
  [[nodiscard]] Eigen::VectorXd abs_multiply(const Eigen::VectorXd& v) const;
  [[nodiscard]] bool all_finite() const;
  [[nodiscard]] Eigen::MatrixXd to_dense() const;
  /// The same matrix with the exact zeros of a sparse one left out of its storage; a dense one
  /// as it is.
  [[nodiscard]] JacobianMatrix without_zeros() const;
  /// Replaces the rows i with kinds[i] == kind by the same rows of other (same storage).
  void take_rows(const JacobianMatrix& other, std::span<const RowKind> kinds, RowKind kind);
};

/// diff = g(base + step) - g(base) for a step that is non-zero on a group of columns.
using DifferenceFunction = std::function<void(const Eigen::VectorXd& step, Eigen::VectorXd& diff)>;

/// A coloured sparsity pattern (sparsity/sparsity_pattern.hpp), built once per run
/// (reinit/workspace.hpp). A new Jacobian starts as zero_matrix(): the pattern's two index
/// arrays copied into compressed-column storage, no insertion per entry. The matrix is made
/// when a Jacobian is, not kept beside the pattern: a kept copy held about 48 bytes per unknown
/// through the whole run, for the few events that need it.
struct ColouredPattern {
  explicit ColouredPattern(sparsity::SparsityPattern p) : pattern(std::move(p)) {}

  /// The pattern's entries, all zero; position k of valuePtr() is position k of the pattern.
  [[nodiscard]] SparseMatrix zero_matrix() const;

  sparsity::SparsityPattern pattern;
};

/// Forward-difference matrix: column j is diff(increment[j] e_j) / increment[j]. With a
/// pattern, all columns of one colour are stepped together and each entry is read from the
/// single row it owns in that colour; without one (nullptr), one call per column.
[[nodiscard]] JacobianMatrix coloured_difference_jacobian(const ColouredPattern* coloured,
                                                          const Eigen::VectorXd& increments,
                                                          const DifferenceFunction& diff);

/// after = g(x + step) for the step that moves the given columns by their increments (one
/// column at a time without a pattern) and no other.
using SteppedFunction =
    std::function<void(std::span<const sparsity::Index> columns, Eigen::VectorXd& after)>;

/// The forward-difference matrix of coloured_difference_jacobian into a, from base = g(x) and
/// evaluations that step only the columns they are given: column j is
/// (g(x + increment[j] e_j) - base) / increment[j]. The caller steps its own copy of x, so no
/// step vector and no difference vector are made per evaluation; a keeps its storage when it
/// already holds a matrix of this pattern (a Newton iteration's previous matrix), else it is
/// made anew.
void difference_jacobian_into(const ColouredPattern* coloured, const Eigen::VectorXd& increments,
                              const Eigen::VectorXd& base, const SteppedFunction& g,
                              JacobianMatrix& a);

/// Increment for a forward difference in unknown j: sqrt(machine eps) times the larger of
/// |value| and the nominal value, with the sign of value (so the step moves away from zero).
[[nodiscard]] double difference_increment(double value, double nominal);

}  // namespace hdae::linalg
