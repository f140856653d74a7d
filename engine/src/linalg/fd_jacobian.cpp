#include "linalg/fd_jacobian.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "sparsity/coloured_differences.hpp"

namespace hdae::linalg {
namespace {

Eigen::Index idx(std::size_t i) { return static_cast<Eigen::Index>(i); }

}  // namespace

SparseMatrix ColouredPattern::zero_matrix() const {
  // Compressed from the start (no inner-non-zero counts), so the index arrays are Eigen's
  // compressed arrays and the pattern's order is kept.
  const Eigen::Index n = idx(pattern.n);
  SparseMatrix a(n, n);
  a.resizeNonZeros(idx(pattern.nnz()));
  int* outer = a.outerIndexPtr();
  for (std::size_t j = 0; j <= pattern.n; ++j) outer[j] = static_cast<int>(pattern.col_start[j]);
  int* inner = a.innerIndexPtr();
  for (std::size_t k = 0; k < pattern.nnz(); ++k) inner[k] = static_cast<int>(pattern.row_index[k]);
  std::fill_n(a.valuePtr(), pattern.nnz(), 0.0);
  return a;
}

JacobianMatrix::JacobianMatrix(JacobianMatrix&& other) noexcept
    : is_sparse(other.is_sparse), dense(std::move(other.dense)) {
  sparse.swap(other.sparse);
}

JacobianMatrix& JacobianMatrix::operator=(JacobianMatrix&& other) noexcept {
  is_sparse = other.is_sparse;
  dense = std::move(other.dense);
  sparse.swap(other.sparse);
  return *this;
}

void JacobianMatrix::scale(const Eigen::VectorXd& row, const Eigen::VectorXd& col) {
  if (!is_sparse) {
    dense = row.asDiagonal() * dense * col.asDiagonal();
    return;
  }
  for (Eigen::Index j = 0; j < sparse.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(sparse, j); it; ++it) {
      it.valueRef() *= row[it.row()] * col[j];
    }
  }
}

Eigen::VectorXd JacobianMatrix::row_max_abs(const Eigen::VectorXd& col) const {
  if (!is_sparse) return (dense.cwiseAbs() * col.asDiagonal()).rowwise().maxCoeff();
  Eigen::VectorXd m = Eigen::VectorXd::Zero(sparse.rows());
  for (Eigen::Index j = 0; j < sparse.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(sparse, j); it; ++it) {
      m[it.row()] = std::max(m[it.row()], std::abs(it.value()) * col[j]);
    }
  }
  return m;
}

Eigen::VectorXd JacobianMatrix::multiply(const Eigen::VectorXd& v) const {
  if (is_sparse) return sparse * v;
  return dense * v;
}

Eigen::VectorXd JacobianMatrix::abs_multiply(const Eigen::VectorXd& v) const {
  if (is_sparse) return sparse.cwiseAbs() * v;
  return dense.cwiseAbs() * v;
}

bool JacobianMatrix::all_finite() const {
  if (!is_sparse) return dense.allFinite();
  return Eigen::Map<const Eigen::VectorXd>(sparse.valuePtr(), sparse.nonZeros()).allFinite();
}

Eigen::MatrixXd JacobianMatrix::to_dense() const {
  if (!is_sparse) return dense;
  return Eigen::MatrixXd(sparse);
}

JacobianMatrix JacobianMatrix::without_zeros() const {
  JacobianMatrix a;
  if (!is_sparse || !sparse.isCompressed()) {
    a = *this;
    if (is_sparse) a.sparse.prune([](Eigen::Index, Eigen::Index, double v) { return v != 0.0; });
    return a;
  }
  // Written in place of a copy and a prune, which would hold the pattern's storage twice.
  const double* values = sparse.valuePtr();
  const int* rows = sparse.innerIndexPtr();
  const Eigen::Index nnz = sparse.nonZeros();
  a.is_sparse = true;
  a.sparse.resize(sparse.rows(), sparse.cols());
  a.sparse.resizeNonZeros(std::count_if(values, values + nnz, [](double v) { return v != 0.0; }));
  int kept = 0;
  for (Eigen::Index j = 0; j < sparse.outerSize(); ++j) {
    a.sparse.outerIndexPtr()[j] = kept;
    for (int k = sparse.outerIndexPtr()[j]; k < sparse.outerIndexPtr()[j + 1]; ++k) {
      if (values[k] == 0.0) continue;
      a.sparse.innerIndexPtr()[kept] = rows[k];
      a.sparse.valuePtr()[kept] = values[k];
      ++kept;
    }
  }
  a.sparse.outerIndexPtr()[sparse.outerSize()] = kept;
  return a;
}

void JacobianMatrix::take_rows(const JacobianMatrix& other, std::span<const RowKind> kinds,
                               RowKind kind) {
  if (!is_sparse) {
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      if (kinds[i] == kind) dense.row(idx(i)) = other.dense.row(idx(i));
    }
    return;
  }
  // Both matrices were built from the same pattern, so their value arrays line up.
  for (Eigen::Index p = 0; p < sparse.nonZeros(); ++p) {
    const auto row = static_cast<std::size_t>(sparse.innerIndexPtr()[p]);
    if (kinds[row] == kind) sparse.valuePtr()[p] = other.sparse.valuePtr()[p];
  }
}

double difference_increment(double value, double nominal) {
  static const double kSqrtEps = std::sqrt(std::numeric_limits<double>::epsilon());
  const double h = kSqrtEps * std::max(std::abs(value), nominal);
  return value < 0.0 ? -h : h;
}

JacobianMatrix coloured_difference_jacobian(const ColouredPattern* coloured,
                                            const Eigen::VectorXd& increments,
                                            const DifferenceFunction& diff) {
  const Eigen::Index n = increments.size();
  JacobianMatrix a;
  Eigen::VectorXd step = Eigen::VectorXd::Zero(n);
  Eigen::VectorXd d(n);
  if (coloured == nullptr) {
    a.dense.resize(n, n);
    for (Eigen::Index j = 0; j < n; ++j) {
      step[j] = increments[j];
      diff(step, d);
      a.dense.col(j) = d / increments[j];
      step[j] = 0.0;
    }
    return a;
  }

  a.is_sparse = true;
  SparseMatrix zeros = coloured->zero_matrix();
  a.sparse.swap(zeros);  // an assignment would copy the arrays (no move in Eigen 3.4)
  double* values = a.sparse.valuePtr();
  sparsity::for_each_coloured_entry(
      coloured->pattern,
      [&](std::span<const sparsity::Index> columns) {
        for (const std::size_t j : columns) step[idx(j)] = increments[idx(j)];
        diff(step, d);
        for (const std::size_t j : columns) step[idx(j)] = 0.0;
        return 0;
      },
      // d is already a difference: d_i / increment_j, as (d_i - 0) / increment_j was.
      [&](std::size_t k, std::size_t i, std::size_t j) {
        values[k] = d[idx(i)] / increments[idx(j)];
      });
  return a;
}

void difference_jacobian_into(const ColouredPattern* coloured, const Eigen::VectorXd& increments,
                              const Eigen::VectorXd& base, const SteppedFunction& g,
                              JacobianMatrix& a) {
  const Eigen::Index n = increments.size();
  Eigen::VectorXd after(n);
  if (coloured == nullptr) {
    a.is_sparse = false;
    a.sparse = SparseMatrix();
    a.dense.resize(n, n);
    for (Eigen::Index j = 0; j < n; ++j) {
      const auto column = static_cast<sparsity::Index>(j);
      g(std::span<const sparsity::Index>(&column, 1), after);
      a.dense.col(j) = (after - base) / increments[j];
    }
    return;
  }
  const sparsity::SparsityPattern& p = coloured->pattern;
  const bool kept = a.is_sparse && a.sparse.rows() == n && a.sparse.isCompressed() &&
                    static_cast<std::size_t>(a.sparse.nonZeros()) == p.nnz();
  if (!kept) {
    a.dense = Eigen::MatrixXd();
    a.is_sparse = true;
    SparseMatrix zeros = coloured->zero_matrix();
    a.sparse.swap(zeros);  // an assignment would copy the arrays (no move in Eigen 3.4)
  }
  const auto span_of = [n](const Eigen::VectorXd& v) {
    return std::span<const double>(v.data(), static_cast<std::size_t>(n));
  };
  sparsity::coloured_differences(p, span_of(increments), span_of(base), span_of(after),
                                 std::span<double>(a.sparse.valuePtr(), p.nnz()),
                                 [&](std::span<const sparsity::Index> columns) {
                                   g(columns, after);
                                   return 0;
                                 });
}

}  // namespace hdae::linalg
