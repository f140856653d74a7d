// Compressed-column pattern of dF/dx + c dF/d(der_x) and its column colouring
// (Curtis, Powell and Reid 1974): columns that share no row get the same colour, so one
// residual evaluation with all columns of a colour perturbed at once yields all of their
// entries. A finite-difference Jacobian then costs (number of colours) residual calls on top
// of the base residual, independent of the model size for banded or chain-like models.
#pragma once

#include <cstddef>
#include <vector>

#include "hdae/model.hpp"

namespace hdae::detail {

struct SparsityPattern {
  std::size_t n = 0;
  std::vector<std::size_t> col_start;  ///< size n + 1
  std::vector<std::size_t> row_index;  ///< sorted within each column, no duplicates
  std::vector<std::size_t> color;      ///< colour of each column
  std::size_t num_colors = 0;

  [[nodiscard]] std::size_t nnz() const { return row_index.size(); }
  /// Position of (row, col) in row_index, or nnz() when structurally zero.
  [[nodiscard]] std::size_t find(std::size_t row, std::size_t col) const;
};

/// Pattern of the declared entries plus the diagonal (kept so that every row and column is
/// present in the sparse factorisation even for rows that switch kind at events).
[[nodiscard]] SparsityPattern make_pattern(const ModelStructure& structure);

}  // namespace hdae::detail
