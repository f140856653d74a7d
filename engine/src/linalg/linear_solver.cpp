#include "linalg/linear_solver.hpp"

#include <klu.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace hdae::linalg {
namespace {

/// A refactorization in the previous pivot order is kept when its reciprocal pivot growth
/// (klu_rgrowth, min over columns of max|a_ij| / max|u_ij|) is at least this fraction of
/// the one the pivot search achieved. The backward error of an LU solve grows in proportion
/// to the pivot growth (Wilkinson's bound), so this costs at most two decimal digits against
/// rounding near 1e-16, far below the ~1e-8 error of the difference matrices solved here.
constexpr double kPivotGrowthRatio = 1e-2;

/// KLU's interface takes non-const arrays but only reads the pattern and values (the
/// matrix is an input of klu_analyze, klu_factor, klu_refactor, klu_rgrowth, klu_condest).
int* ints(const int* p) { return const_cast<int*>(p); }
double* doubles(const double* p) { return const_cast<double*>(p); }

}  // namespace

/// KLU's symbolic and numeric objects, kept between factorizations of matrices with one
/// pattern; freed in reverse order of creation.
class KluFactorization {
 public:
  KluFactorization() { klu_defaults(&common_); }
  ~KluFactorization() { release(); }
  KluFactorization(const KluFactorization&) = delete;
  KluFactorization& operator=(const KluFactorization&) = delete;

  /// Factorization with pivot search; the pattern is analysed only when it is not the one
  /// analysed last. Returns the reciprocal condition estimate, 0 when KLU finds a zero pivot.
  double factor(const SparseMatrix& a) {
    free_numeric();
    if (symbolic_ == nullptr || !same_pattern(a)) analyse(a);
    if (symbolic_ == nullptr) return 0.0;
    ++counts_.fresh_factorizations;
    numeric_ = klu_factor(ints(a.outerIndexPtr()), ints(a.innerIndexPtr()), doubles(a.valuePtr()),
                          symbolic_, &common_);
    // halt_if_singular is on by default: KLU stops at a zero pivot.
    if (numeric_ == nullptr || common_.status == KLU_SINGULAR) {
      free_numeric();
      return 0.0;
    }
    fresh_rgrowth_ = reciprocal_growth(a);
    return reciprocal_condition(a);
  }

  /// Numeric factorization in the pivot order of the last factor() (same pattern only).
  /// Returns the reciprocal condition estimate, or nothing when that order does not suit a:
  /// a zero pivot, a pivot growth far above the pivot search's (kPivotGrowthRatio) or a
  /// condition estimate below kSingularRcond. The factors are then unusable and the caller
  /// calls factor(), which decides about singularity with a pivot search.
  std::optional<double> refactor(const SparseMatrix& a) {
    if (numeric_ == nullptr || !same_pattern(a)) return std::nullopt;
    if (klu_refactor(ints(a.outerIndexPtr()), ints(a.innerIndexPtr()), doubles(a.valuePtr()),
                     symbolic_, numeric_, &common_) != 1 ||
        common_.status != KLU_OK) {
      return std::nullopt;
    }
    if (!(reciprocal_growth(a) >= kPivotGrowthRatio * fresh_rgrowth_)) return std::nullopt;
    const double rcond = reciprocal_condition(a);
    if (!(rcond >= kSingularRcond)) return std::nullopt;
    ++counts_.refactorizations;
    return rcond;
  }

  void solve(Eigen::VectorXd& b) {
    klu_solve(symbolic_, numeric_, static_cast<int>(b.size()), 1, b.data(), &common_);
  }

  [[nodiscard]] const FactorizationCounts& counts() const { return counts_; }

  /// Frees the numeric and symbolic objects and the analysed pattern; the counts stay.
  void release() {
    free_numeric();
    if (symbolic_ != nullptr) klu_free_symbolic(&symbolic_, &common_);
    std::vector<int>().swap(col_start_);
    std::vector<int>().swap(row_index_);
  }

 private:
  [[nodiscard]] bool same_pattern(const SparseMatrix& a) const {
    const auto n = static_cast<std::size_t>(a.outerSize());
    if (n + 1 != col_start_.size() || static_cast<std::size_t>(a.nonZeros()) != row_index_.size()) {
      return false;
    }
    return std::equal(col_start_.begin(), col_start_.end(), a.outerIndexPtr()) &&
           std::equal(row_index_.begin(), row_index_.end(), a.innerIndexPtr());
  }

  void analyse(const SparseMatrix& a) {
    free_numeric();
    if (symbolic_ != nullptr) klu_free_symbolic(&symbolic_, &common_);
    col_start_.clear();
    row_index_.clear();
    ++counts_.symbolic_analyses;
    symbolic_ = klu_analyze(static_cast<int>(a.rows()), ints(a.outerIndexPtr()),
                            ints(a.innerIndexPtr()), &common_);
    if (symbolic_ == nullptr) return;
    col_start_.assign(a.outerIndexPtr(), a.outerIndexPtr() + a.outerSize() + 1);
    row_index_.assign(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros());
  }

  double reciprocal_growth(const SparseMatrix& a) {
    if (klu_rgrowth(ints(a.outerIndexPtr()), ints(a.innerIndexPtr()), doubles(a.valuePtr()),
                    symbolic_, numeric_, &common_) != 1) {
      return 0.0;
    }
    return common_.rgrowth;
  }

  double reciprocal_condition(const SparseMatrix& a) {
    // Hager/Higham condition estimate in the 1-norm; the cheap klu_rcond (ratio of pivots)
    // misses near-dependent rows whose pivots happen to be large.
    if (klu_condest(ints(a.outerIndexPtr()), doubles(a.valuePtr()), symbolic_, numeric_,
                    &common_) != 1) {
      return 0.0;
    }
    return common_.condest > 0.0 ? 1.0 / common_.condest : 0.0;
  }

  void free_numeric() {
    if (numeric_ != nullptr) klu_free_numeric(&numeric_, &common_);
  }

  klu_common common_{};
  klu_symbolic* symbolic_ = nullptr;
  klu_numeric* numeric_ = nullptr;
  std::vector<int> col_start_;  ///< the analysed pattern
  std::vector<int> row_index_;
  double fresh_rgrowth_ = 0.0;  ///< reciprocal pivot growth of the last factor()
  FactorizationCounts counts_;
};

SquareSolver::SquareSolver() = default;
SquareSolver::~SquareSolver() = default;

bool SquareSolver::factorize(const JacobianMatrix& a, std::span<const RowKind> row_kinds) {
  is_sparse_ = a.is_sparse;
  rcond_ = 0.0;
  if (!a.all_finite()) return false;
  if (!is_sparse_) {
    // Large matrices: partial pivoting first, as LAPACK's getrf and IDA's dense LU, at a
    // third of full pivoting's cost. On the equilibrated matrices here it is as accurate while
    // the matrix is well conditioned; below kFullPivotingRcond (or with a tiny pivot, which
    // Eigen's condition estimate does not expect) the verdict "singular" and the accuracy of
    // the answer rest on full pivoting, which orders the pivots by size. Small matrices take
    // full pivoting at once: it costs nothing there, and keeps their answers to the last bit.
    full_pivoting_ = false;
    if (a.dense.rows() >= kPartialPivotingFrom) {
      partial_.compute(a.dense);
      const auto pivots = partial_.matrixLU().diagonal().cwiseAbs();
      if (pivots.minCoeff() >= kFullPivotingRcond * pivots.maxCoeff()) {
        rcond_ = partial_.rcond();
        if (std::isfinite(rcond_) && rcond_ >= kFullPivotingRcond) return true;
      }
    }
    full_pivoting_ = true;
    full_.setThreshold(kRankTolerance);
    full_.compute(a.dense);
    if (!full_.isInvertible()) return false;
    rcond_ = full_.rcond();
    return std::isfinite(rcond_) && rcond_ >= kSingularRcond;
  }
  if (!sparse_) sparse_ = std::make_unique<KluFactorization>();
  // KLU reads compressed columns; the matrices of fd_jacobian.cpp always are.
  SparseMatrix compressed;
  const SparseMatrix* m = &a.sparse;
  if (!a.sparse.isCompressed()) {
    compressed = a.sparse;
    compressed.makeCompressed();
    m = &compressed;
  }
  const bool same_kinds = !row_kinds.empty() && row_kinds.size() == pivot_row_kinds_.size() &&
                          std::equal(row_kinds.begin(), row_kinds.end(), pivot_row_kinds_.begin());
  std::optional<double> rcond;
  if (same_kinds) rcond = sparse_->refactor(*m);
  if (!rcond) {
    rcond = sparse_->factor(*m);
    pivot_row_kinds_.assign(row_kinds.begin(), row_kinds.end());
  }
  rcond_ = *rcond;
  return std::isfinite(rcond_) && rcond_ >= kSingularRcond;
}

Eigen::VectorXd SquareSolver::solve(const Eigen::VectorXd& b) const {
  if (!is_sparse_) {
    if (full_pivoting_) return full_.solve(b);
    return partial_.solve(b);
  }
  Eigen::VectorXd x = b;
  sparse_->solve(x);
  return x;
}

const FactorizationCounts& SquareSolver::counts() const {
  return sparse_ ? sparse_->counts() : no_counts_;
}

void SquareSolver::release() {
  if (sparse_) sparse_->release();
  // Factorising a 1 x 1 matrix gives back the factors' storage and leaves every member set
  // (assigning a default-constructed decomposition would copy uninitialised scalars, and
  // Eigen refuses an empty matrix).
  const Eigen::MatrixXd one = Eigen::MatrixXd::Identity(1, 1);
  full_.compute(one);
  partial_.compute(one);
  std::vector<RowKind>().swap(pivot_row_kinds_);
  rcond_ = 0.0;
}

void LeastSquaresSolver::factorize(const JacobianMatrix& a) {
  is_sparse_ = a.is_sparse;
  if (!is_sparse_) {
    dense_.setThreshold(kRankTolerance);
    dense_.compute(a.dense);
    return;
  }
  // SparseQR's pivot threshold is absolute: columns whose remaining norm falls below it are
  // treated as zero. The matrix is equilibrated (largest entry of each row is one), so the
  // relative threshold applies as it is.
  sparse_.setPivotThreshold(kRankTolerance);
  sparse_.compute(a.sparse);
}

Eigen::VectorXd LeastSquaresSolver::solve(const Eigen::VectorXd& b) const {
  if (!is_sparse_) return dense_.solve(b);
  return sparse_.solve(b);
}

Eigen::Index LeastSquaresSolver::rank() const {
  return is_sparse_ ? sparse_.rank() : dense_.rank();
}

}  // namespace hdae::linalg
