#include "reinit/linear_solver.hpp"

#include <klu.h>

#include <cmath>

namespace hdae::reinit {

/// KLU's symbolic and numeric objects for one matrix, freed in reverse order of creation.
class KluFactorization {
 public:
  KluFactorization() { klu_defaults(&common_); }
  ~KluFactorization() { release(); }
  KluFactorization(const KluFactorization&) = delete;
  KluFactorization& operator=(const KluFactorization&) = delete;

  /// Returns the reciprocal condition estimate, 0 when KLU finds a zero pivot.
  double factorize(SparseMatrix& a) {
    release();
    const int n = static_cast<int>(a.rows());
    symbolic_ = klu_analyze(n, a.outerIndexPtr(), a.innerIndexPtr(), &common_);
    if (symbolic_ == nullptr) return 0.0;
    numeric_ = klu_factor(a.outerIndexPtr(), a.innerIndexPtr(), a.valuePtr(), symbolic_, &common_);
    // halt_if_singular is on by default: a zero pivot frees the numeric object.
    if (numeric_ == nullptr || common_.status == KLU_SINGULAR) return 0.0;
    // Hager/Higham condition estimate in the 1-norm; the cheap klu_rcond (ratio of pivots)
    // misses near-dependent rows whose pivots happen to be large.
    if (klu_condest(a.outerIndexPtr(), a.valuePtr(), symbolic_, numeric_, &common_) != 1) {
      return 0.0;
    }
    return common_.condest > 0.0 ? 1.0 / common_.condest : 0.0;
  }

  void solve(Eigen::VectorXd& b) {
    klu_solve(symbolic_, numeric_, static_cast<int>(b.size()), 1, b.data(), &common_);
  }

 private:
  void release() {
    if (numeric_ != nullptr) klu_free_numeric(&numeric_, &common_);
    if (symbolic_ != nullptr) klu_free_symbolic(&symbolic_, &common_);
  }

  klu_common common_{};
  klu_symbolic* symbolic_ = nullptr;
  klu_numeric* numeric_ = nullptr;
};

SquareSolver::SquareSolver() = default;
SquareSolver::~SquareSolver() = default;

bool SquareSolver::factorize(const JacobianMatrix& a) {
  is_sparse_ = a.is_sparse;
  rcond_ = 0.0;
  if (!a.all_finite()) return false;
  if (!is_sparse_) {
    dense_.setThreshold(kRankTolerance);
    dense_.compute(a.dense);
    if (!dense_.isInvertible()) return false;
    rcond_ = dense_.rcond();
  } else {
    if (!sparse_) sparse_ = std::make_unique<KluFactorization>();
    // KLU keeps pointers into the matrix only during the call; a private copy keeps the
    // caller's matrix const.
    SparseMatrix copy = a.sparse;
    rcond_ = sparse_->factorize(copy);
  }
  return std::isfinite(rcond_) && rcond_ >= kSingularRcond;
}

Eigen::VectorXd SquareSolver::solve(const Eigen::VectorXd& b) const {
  if (!is_sparse_) return dense_.solve(b);
  Eigen::VectorXd x = b;
  sparse_->solve(x);
  return x;
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

}  // namespace hdae::reinit
