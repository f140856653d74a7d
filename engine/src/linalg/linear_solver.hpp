// Linear algebra of the re-initialization module (docs/design.md, "The jump solve").
//
// Every linear system here is an equilibrated Newton or J matrix from fd_jacobian.hpp
// (rows scaled to a largest entry of one, columns by the nominal values), so one relative
// threshold decides "singular" for all of them. Small systems use Eigen's dense
// factorisations; systems with a declared sparsity pattern use SuiteSparse KLU (the solver
// IDA uses for large models) for square systems and Eigen's rank-revealing SparseQR for the
// least-squares systems of fixed start values (ITI paper section 5).
#pragma once

#include <memory>
#include <span>
#include <vector>

#include <Eigen/Dense>
#include <Eigen/SparseQR>

#include "linalg/fd_jacobian.hpp"

namespace hdae::linalg {

/// Below this reciprocal condition number an equilibrated matrix counts as singular. The
/// matrices are finite-difference approximations with relative errors near sqrt(eps) ~ 1e-8;
/// a solve with rcond < 1e-10 would magnify them past the size of the answer, and scaled
/// index-1 matrices of sound models stay far above it.
inline constexpr double kSingularRcond = 1e-10;

/// Relative pivot threshold of the rank-revealing factorisations, the same bound as above.
inline constexpr double kRankTolerance = kSingularRcond;

class KluFactorization;

/// What a SquareSolver did so far (for the benchmarks and the tests of the re-use rules).
struct FactorizationCounts {
  long symbolic_analyses = 0;     ///< klu_analyze calls (ordering of the pattern)
  long fresh_factorizations = 0;  ///< klu_factor calls (numeric LU with pivot search)
  long refactorizations = 0;      ///< klu_refactor calls accepted (previous pivot order)
};

/// Dense matrices of at least this many rows are factorized with partial pivoting, and again
/// with full pivoting when their reciprocal condition estimate (or the ratio of their
/// smallest and largest pivot) is below kFullPivotingRcond (linear_solver.cpp).
inline constexpr Eigen::Index kPartialPivotingFrom = 64;
inline constexpr double kFullPivotingRcond = 1e-6;

/// LU of a square matrix: Eigen's PartialPivLU, or FullPivLU when the matrix is poorly
/// conditioned (dense), or KLU (sparse).
///
/// A sparse solver keeps KLU's symbolic analysis (fill-reducing ordering of the pattern)
/// for as long as the matrices it is given have the pattern it analysed, so a run that keeps
/// one solver (reinit/workspace.hpp) orders its pattern once. With row kinds given, it also
/// keeps the pivot order: a matrix with the same pattern and the same kind of every row as
/// at the last factorization with pivot search is refactorized numerically in that order
/// (klu_refactor), and factorized afresh when that order turns out poor for it (see
/// linear_solver.cpp). A verdict "singular" always comes from a factorization with pivot
/// search.
class SquareSolver {
 public:
  SquareSolver();
  ~SquareSolver();
  SquareSolver(const SquareSolver&) = delete;
  SquareSolver& operator=(const SquareSolver&) = delete;

  /// False when the matrix is singular or its rcond is below kSingularRcond. Re-uses the
  /// previous pivot order when the row kinds are those of the last factorization with pivot
  /// search (sparse matrices only; see the class comment); empty row kinds never re-use it.
  [[nodiscard]] bool factorize(const JacobianMatrix& a, std::span<const RowKind> row_kinds);
  [[nodiscard]] Eigen::VectorXd solve(const Eigen::VectorXd& b) const;
  /// Reciprocal condition estimate of the last factorisation (0 when singular).
  [[nodiscard]] double rcond() const { return rcond_; }
  [[nodiscard]] const FactorizationCounts& counts() const;
  /// Frees the factors and KLU's analysis (the counts stay): the next factorize() starts
  /// afresh, as the first one did.
  void release();

 private:
  bool is_sparse_ = false;
  double rcond_ = 0.0;
  bool full_pivoting_ = false;  ///< the last dense factorization is full_
  Eigen::PartialPivLU<Eigen::MatrixXd> partial_;
  Eigen::FullPivLU<Eigen::MatrixXd> full_;
  std::unique_ptr<KluFactorization> sparse_;
  std::vector<RowKind> pivot_row_kinds_;  ///< row kinds at the last sparse pivot search
  FactorizationCounts no_counts_;         ///< what counts() shows before any sparse work
};

/// Least-squares solve of a possibly rank-deficient square system: the minimum-norm answer
/// (CompleteOrthogonalDecomposition, ITI paper section 5) when dense, the basic answer of a
/// column-pivoted SparseQR when sparse.
class LeastSquaresSolver {
 public:
  void factorize(const JacobianMatrix& a);
  [[nodiscard]] Eigen::VectorXd solve(const Eigen::VectorXd& b) const;
  [[nodiscard]] Eigen::Index rank() const;
  [[nodiscard]] bool is_minimum_norm() const { return !is_sparse_; }

 private:
  bool is_sparse_ = false;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> dense_;
  Eigen::SparseQR<SparseMatrix, Eigen::COLAMDOrdering<int>> sparse_;
};

}  // namespace hdae::linalg
