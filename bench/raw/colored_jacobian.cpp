#include "raw/colored_jacobian.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <sunmatrix/sunmatrix_sparse.h>

namespace hdae::bench::raw {

CscPattern CscPattern::from_entries(
    std::size_t n, const std::vector<std::pair<std::size_t, std::size_t>>& entries) {
  std::vector<std::vector<sunindextype>> rows_of_col(n);
  for (std::size_t j = 0; j < n; ++j) rows_of_col[j].push_back(static_cast<sunindextype>(j));
  for (const auto& [row, col] : entries) rows_of_col[col].push_back(static_cast<sunindextype>(row));
  CscPattern p;
  p.n = n;
  p.col_start.assign(n + 1, 0);
  for (std::size_t j = 0; j < n; ++j) {
    auto& rows = rows_of_col[j];
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    p.row_index.insert(p.row_index.end(), rows.begin(), rows.end());
    p.col_start[j + 1] = static_cast<sunindextype>(p.row_index.size());
  }
  return p;
}

ColoredJacobian::ColoredJacobian(CscPattern pattern) : pattern_(std::move(pattern)) {
  // Greedy distance-2 colouring in column order: column j takes the smallest colour that no
  // earlier column sharing a row with j has. The row-wise view lists the columns of each row.
  const std::size_t n = pattern_.n;
  std::vector<std::vector<std::size_t>> cols_of_row(n);
  for (std::size_t j = 0; j < n; ++j) {
    for (auto k = pattern_.col_start[j]; k < pattern_.col_start[j + 1]; ++k) {
      cols_of_row[static_cast<std::size_t>(pattern_.row_index[static_cast<std::size_t>(k)])]
          .push_back(j);
    }
  }
  std::vector<std::size_t> color(n, 0);
  std::vector<std::size_t> forbidden_by;  // forbidden_by[c] == j + 1: colour c is taken for j
  for (std::size_t j = 0; j < n; ++j) {
    for (auto k = pattern_.col_start[j]; k < pattern_.col_start[j + 1]; ++k) {
      const auto row = static_cast<std::size_t>(pattern_.row_index[static_cast<std::size_t>(k)]);
      for (const std::size_t other : cols_of_row[row]) {
        if (other >= j) break;  // columns of a row are listed in increasing order
        if (forbidden_by.size() <= color[other]) forbidden_by.resize(color[other] + 1, 0);
        forbidden_by[color[other]] = j + 1;
      }
    }
    std::size_t c = 0;
    while (c < forbidden_by.size() && forbidden_by[c] == j + 1) ++c;
    color[j] = c;
    if (columns_of_color_.size() <= c) columns_of_color_.resize(c + 1);
    columns_of_color_[c].push_back(j);
  }
  increments_.resize(n);
}

ColoredJacobian::~ColoredJacobian() {
  if (work_y_ != nullptr) N_VDestroy(work_y_);
  if (work_yp_ != nullptr) N_VDestroy(work_yp_);
  if (work_r_ != nullptr) N_VDestroy(work_r_);
}

void ColoredJacobian::attach(void* ida_mem, SUNContext ctx, IDAResFn residual, void* user_data) {
  ida_mem_ = ida_mem;
  residual_ = residual;
  user_data_ = user_data;
  const auto n = static_cast<sunindextype>(pattern_.n);
  if (work_y_ == nullptr) {
    work_y_ = N_VNew_Serial(n, ctx);
    work_yp_ = N_VNew_Serial(n, ctx);
    work_r_ = N_VNew_Serial(n, ctx);
    if (work_y_ == nullptr || work_yp_ == nullptr || work_r_ == nullptr) {
      throw std::runtime_error("N_VNew_Serial failed");
    }
  }
}

void ColoredJacobian::write_pattern(SUNMatrix J) const {
  std::copy(pattern_.col_start.begin(), pattern_.col_start.end(), SUNSparseMatrix_IndexPointers(J));
  std::copy(pattern_.row_index.begin(), pattern_.row_index.end(), SUNSparseMatrix_IndexValues(J));
  std::fill_n(SUNSparseMatrix_Data(J), pattern_.nnz(), 0.0);
}

int ColoredJacobian::fill(double t, double cj, N_Vector y, N_Vector yp, N_Vector r, SUNMatrix J) {
  write_pattern(J);
  const std::size_t n = pattern_.n;
  const double* y0 = N_VGetArrayPointer(y);
  const double* yp0 = N_VGetArrayPointer(yp);
  const double* r0 = N_VGetArrayPointer(r);
  double* yw = N_VGetArrayPointer(work_y_);
  double* ypw = N_VGetArrayPointer(work_yp_);
  double* rw = N_VGetArrayPointer(work_r_);
  double h_step = 0.0;
  IDAGetCurrentStep(ida_mem_, &h_step);
  IDAGetErrWeights(ida_mem_, work_r_);  // rw holds the error weights until the first residual
  const double srur = std::sqrt(std::numeric_limits<double>::epsilon());
  for (std::size_t j = 0; j < n; ++j) {
    const double hyp = h_step * yp0[j];
    double h = std::max(srur * std::max(std::abs(y0[j]), std::abs(hyp)), 1.0 / rw[j]);
    if (hyp < 0.0) h = -h;
    increments_[j] = (y0[j] + h) - y0[j];
  }
  double* data = SUNSparseMatrix_Data(J);
  for (const std::vector<std::size_t>& columns : columns_of_color_) {
    std::copy_n(y0, n, yw);
    std::copy_n(yp0, n, ypw);
    for (const std::size_t j : columns) {
      yw[j] += increments_[j];
      ypw[j] += cj * increments_[j];
    }
    const int flag = residual_(t, work_y_, work_yp_, work_r_, user_data_);
    ++residual_evaluations_;
    if (flag != 0) return flag;
    for (const std::size_t j : columns) {
      for (auto k = pattern_.col_start[j]; k < pattern_.col_start[j + 1]; ++k) {
        const auto i = static_cast<std::size_t>(pattern_.row_index[static_cast<std::size_t>(k)]);
        data[k] = (rw[i] - r0[i]) / increments_[j];
      }
    }
  }
  return 0;
}

}  // namespace hdae::bench::raw
