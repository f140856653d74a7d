// The coloured finite-difference Jacobian of the raw-IDA baseline (bench/raw/), written
// against SUNDIALS' arrays only, as a program that uses IDA with KLU directly would write it.
//
// Columns that share no row get one colour (Curtis, Powell and Reid 1974), greedily in
// column order; one residual call with every column of a colour perturbed gives all of their
// entries of dF/dy + cj dF/dyp. The increments follow IDA's dense difference quotient,
// h_j = max(sqrt(u) max(|y_j|, |h yp_j|), 1/ewt_j) with the sign of h yp_j, so KLU sees the
// entries the dense solver would. The engine does the same (engine/src/sundials/); this copy
// shares no code with it so that the benchmark compares against an independent program.
#pragma once

#include <cstddef>
#include <vector>

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_matrix.h>

namespace hdae::bench::raw {

/// Compressed-column pattern: the rows of column j are row_index[col_start[j] .. col_start[j+1]),
/// sorted and without duplicates.
struct CscPattern {
  std::size_t n = 0;
  std::vector<sunindextype> col_start;
  std::vector<sunindextype> row_index;

  [[nodiscard]] std::size_t nnz() const { return row_index.size(); }
  /// Pattern of the given (row, col) entries plus the diagonal.
  static CscPattern from_entries(std::size_t n,
                                 const std::vector<std::pair<std::size_t, std::size_t>>& entries);
};

class ColoredJacobian {
 public:
  explicit ColoredJacobian(CscPattern pattern);
  ColoredJacobian(const ColoredJacobian&) = delete;
  ColoredJacobian& operator=(const ColoredJacobian&) = delete;
  ~ColoredJacobian();

  [[nodiscard]] const CscPattern& pattern() const { return pattern_; }
  [[nodiscard]] std::size_t num_colors() const { return columns_of_color_.size(); }
  /// Residual calls made for Jacobians so far.
  [[nodiscard]] long residual_evaluations() const { return residual_evaluations_; }

  /// Binds the IDA instance, its residual and user data; allocates the work vectors.
  void attach(void* ida_mem, SUNContext ctx, IDAResFn residual, void* user_data);
  /// Writes the pattern into J (SUNMatZero clears a sparse matrix's index arrays too).
  void write_pattern(SUNMatrix J) const;
  /// Fills J = dF/dy + cj dF/dyp at (t, y, yp) where r = F(t, y, yp); returns the residual's flag.
  int fill(double t, double cj, N_Vector y, N_Vector yp, N_Vector r, SUNMatrix J);

 private:
  CscPattern pattern_;
  std::vector<std::vector<std::size_t>> columns_of_color_;
  std::vector<double> increments_;
  void* ida_mem_ = nullptr;
  IDAResFn residual_ = nullptr;
  void* user_data_ = nullptr;
  N_Vector work_y_ = nullptr;
  N_Vector work_yp_ = nullptr;
  N_Vector work_r_ = nullptr;
  long residual_evaluations_ = 0;
};

/// IDALsJacFn for a problem struct whose member `jacobian` points to its ColoredJacobian
/// (IDA hands the Jacobian function the residual's user data).
template <class Problem>
int colored_jacobian_fn(sunrealtype t, sunrealtype cj, N_Vector y, N_Vector yp, N_Vector r,
                        SUNMatrix J, void* user_data, N_Vector /*tmp1*/, N_Vector /*tmp2*/,
                        N_Vector /*tmp3*/) {
  return static_cast<Problem*>(user_data)->jacobian->fill(t, cj, y, yp, r, J);
}

}  // namespace hdae::bench::raw
