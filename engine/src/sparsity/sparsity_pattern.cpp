#include "sparsity/sparsity_pattern.hpp"

#include <algorithm>

namespace hdae::sparsity {

std::size_t SparsityPattern::find(std::size_t row, std::size_t col) const {
  const auto first = row_index.begin() + static_cast<std::ptrdiff_t>(col_start[col]);
  const auto last = row_index.begin() + static_cast<std::ptrdiff_t>(col_start[col + 1]);
  const auto it = std::lower_bound(first, last, row);
  if (it == last || *it != row) return nnz();
  return static_cast<std::size_t>(it - row_index.begin());
}

namespace {

/// Greedy colouring in column order: a column takes the smallest colour not yet used by a
/// column sharing one of its rows; colors_in_row[row] lists the colours already in that row.
void colour_columns(SparsityPattern& p) {
  std::vector<std::vector<std::size_t>> colors_in_row(p.n);
  p.color.assign(p.n, 0);
  std::vector<char> taken;
  for (std::size_t j = 0; j < p.n; ++j) {
    taken.assign(p.num_colors + 1, 0);
    for (std::size_t k = p.col_start[j]; k < p.col_start[j + 1]; ++k) {
      for (const std::size_t c : colors_in_row[p.row_index[k]]) taken[c] = 1;
    }
    std::size_t c = 0;
    while (taken[c] != 0) ++c;
    p.color[j] = c;
    p.num_colors = std::max(p.num_colors, c + 1);
    for (std::size_t k = p.col_start[j]; k < p.col_start[j + 1]; ++k) {
      colors_in_row[p.row_index[k]].push_back(c);
    }
  }
  p.columns_of_color.assign(p.num_colors, {});
  for (std::size_t j = 0; j < p.n; ++j) p.columns_of_color[p.color[j]].push_back(j);
}

}  // namespace

SparsityPattern build_pattern(std::size_t n, std::span<const Entry> entries) {
  SparsityPattern p;
  p.n = n;
  std::vector<std::vector<std::size_t>> rows_of_col(n);
  for (std::size_t j = 0; j < n; ++j) rows_of_col[j].push_back(j);
  for (const auto& [row, col] : entries) rows_of_col[col].push_back(row);

  p.col_start.assign(n + 1, 0);
  for (std::size_t j = 0; j < n; ++j) {
    auto& rows = rows_of_col[j];
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    p.row_index.insert(p.row_index.end(), rows.begin(), rows.end());
    p.col_start[j + 1] = p.row_index.size();
  }
  colour_columns(p);
  return p;
}

}  // namespace hdae::sparsity
