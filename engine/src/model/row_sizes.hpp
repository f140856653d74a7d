// The sizes of the rows' terms against which the consistent derivatives judge the f_d rows
// (consistent_derivatives.cpp, docs/design.md "General rows and singular mass matrices"):
// each row's own, |b_d| + |M_d| |der_x|, unless the model says more. A row that is the
// derivative of another (a sensitivity row, sensitivity_model.hpp) is a difference quotient
// of that row's terms: its own terms may cancel to nothing (a source that moves a row's
// terms in step) while it carries the rounding of the terms it was taken from, which no
// Newton step removes. Such a model implements this interface, and the reinitializer hands
// it to the solves (reinit::JumpProblem::row_sizes).
#pragma once

#include <span>

namespace hdae::detail {

class RowSizes {
 public:
  /// sizes holds every row's own size; raises those of rows whose rounding is larger.
  virtual void widen_row_sizes(std::span<double> sizes) const = 0;

 protected:
  RowSizes() = default;
  RowSizes(const RowSizes&) = default;
  RowSizes& operator=(const RowSizes&) = default;
  ~RowSizes() = default;
};

}  // namespace hdae::detail
