#include "sparsity/sparsity_pattern.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace hdae::sparsity {

std::size_t SparsityPattern::find(std::size_t row, std::size_t col) const {
  const auto first = row_index.begin() + static_cast<std::ptrdiff_t>(col_start[col]);
  const auto last = row_index.begin() + static_cast<std::ptrdiff_t>(col_start[col + 1]);
  const auto it = std::lower_bound(first, last, row);
  if (it == last || *it != row) return nnz();
  return static_cast<std::size_t>(it - row_index.begin());
}

namespace {

/// Greedy colouring in column order: a column takes the smallest colour that no earlier column
/// sharing one of its rows has. The rows' columns come from the transposed pattern (flat
/// arrays), and a colour is marked taken for column j by writing j + 1 into taken_by, so the
/// colouring allocates a few arrays, not one list per row: at 10^6 unknowns, millions of small
/// lists left the heap fragmented for the rest of the run.
void colour_columns(SparsityPattern& p) {
  std::vector<Index> row_start(p.n + 1, 0);
  for (const Index r : p.row_index) ++row_start[r + 1];
  for (std::size_t r = 0; r < p.n; ++r) row_start[r + 1] += row_start[r];
  std::vector<Index> col_of(p.nnz());
  std::vector<Index> next(row_start.begin(), row_start.end() - 1);
  for (std::size_t j = 0; j < p.n; ++j) {
    for (std::size_t k = p.col_start[j]; k < p.col_start[j + 1]; ++k) {
      col_of[next[p.row_index[k]]++] = static_cast<Index>(j);  // ascending within each row
    }
  }
  std::vector<Index> color(p.n, 0);
  std::vector<std::size_t> taken_by;
  for (std::size_t j = 0; j < p.n; ++j) {
    for (std::size_t k = p.col_start[j]; k < p.col_start[j + 1]; ++k) {
      const std::size_t r = p.row_index[k];
      for (std::size_t m = row_start[r]; m < row_start[r + 1] && col_of[m] < j; ++m) {
        const std::size_t c = color[col_of[m]];
        if (c >= taken_by.size()) taken_by.resize(c + 1, 0);
        taken_by[c] = j + 1;
      }
    }
    std::size_t c = 0;
    while (c < taken_by.size() && taken_by[c] == j + 1) ++c;
    color[j] = static_cast<Index>(c);
    p.num_colors = std::max(p.num_colors, c + 1);
  }
  std::vector<std::size_t> per_color(p.num_colors, 0);
  for (const Index c : color) ++per_color[c];
  p.columns_of_color.assign(p.num_colors, {});
  for (std::size_t c = 0; c < p.num_colors; ++c) p.columns_of_color[c].reserve(per_color[c]);
  for (std::size_t j = 0; j < p.n; ++j)
    p.columns_of_color[color[j]].push_back(static_cast<Index>(j));
}

}  // namespace

void check_index_range(std::size_t count, const char* what) {
  if (count > std::numeric_limits<Index>::max()) {
    throw std::length_error("sparsity pattern with " + std::to_string(count) + " " + what +
                            ": at most " + std::to_string(std::numeric_limits<Index>::max()) +
                            " are supported");
  }
}

SparsityPattern finish_pattern(std::size_t n, std::vector<std::size_t> start,
                               std::vector<Index> rows) {
  SparsityPattern p;
  p.n = n;
  // Each column is sorted and its duplicates dropped, moving it down over the gaps the earlier
  // columns' duplicates left.
  p.col_start.assign(n + 1, 0);
  std::size_t kept = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const auto first = rows.begin() + static_cast<std::ptrdiff_t>(start[j]);
    const auto last = rows.begin() + static_cast<std::ptrdiff_t>(start[j + 1]);
    std::sort(first, last);
    const auto end = std::unique(first, last);
    for (auto it = first; it != end; ++it) rows[kept++] = *it;  // kept <= start[j]: no overlap
    p.col_start[j + 1] = static_cast<Index>(kept);
  }
  rows.resize(kept);
  rows.shrink_to_fit();
  p.row_index = std::move(rows);
  colour_columns(p);
  return p;
}

SparsityPattern build_pattern(std::size_t n, std::span<const Entry> entries) {
  return build_pattern_of(n, [entries](auto&& visit) {
    for (const auto& [row, col] : entries) visit(row, col);
  });
}

}  // namespace hdae::sparsity
