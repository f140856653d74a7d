// Compressed-column pattern of a square Jacobian and its column colouring (Curtis, Powell and
// Reid 1974): columns that share no row get the same colour, so one function evaluation with
// all columns of a colour perturbed at once yields all of their entries. A finite-difference
// Jacobian then costs (number of colours) evaluations on top of the base one, independent of
// the size for banded or chain-like problems (coloured_differences.hpp).
//
// The lowest layer of the engine: it knows neither models nor SUNDIALS, so that the IDA
// Jacobian (sundials/) and the re-initialization's matrices (reinit/) share one pattern type
// and one colouring.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace hdae::sparsity {

/// The row and column numbers a pattern stores: 32 bits, half the memory of std::size_t per
/// entry (a chain of 10^6 masses has 8 10^6 entries). build_pattern throws std::length_error
/// for a matrix with 2^32 or more columns or entries.
using Index = std::uint32_t;

struct SparsityPattern {
  std::size_t n = 0;
  std::vector<Index> col_start;  ///< size n + 1
  std::vector<Index> row_index;  ///< sorted within each column, no duplicates
  std::size_t num_colors = 0;
  std::vector<std::vector<Index>> columns_of_color;  ///< the columns of each colour, ascending

  [[nodiscard]] std::size_t nnz() const { return row_index.size(); }
  /// Position of (row, col) in row_index, or nnz() when structurally zero.
  [[nodiscard]] std::size_t find(std::size_t row, std::size_t col) const;
};

/// (row, column) of one structurally non-zero entry.
using Entry = std::pair<std::size_t, std::size_t>;

/// The compressed columns of an n x n pattern from its entries listed column by column in
/// rows (column j in rows[start[j] .. start[j + 1]), in any order and with repeats, its diagonal
/// among them): sorted, repeats dropped, coloured.
[[nodiscard]] SparsityPattern finish_pattern(std::size_t n, std::vector<std::size_t> start,
                                             std::vector<Index> rows);

/// Throws std::length_error when count does not fit an Index (what names what is counted).
void check_index_range(std::size_t count, const char* what);

/// Pattern of an n x n matrix with the entries for_each_entry(visit) lists by calling
/// visit(row, col) (it is called twice: to count and to place), plus the diagonal entry of every
/// row or column that has no entry (so that a sparse factorisation sees each of them),
/// coloured greedily in column order. Entries must lie inside the matrix. The diagonal is not
/// added elsewhere: where a row is matched to another column than its own (the rows of a model
/// reduced in index), an explicit zero there makes KLU's ordering count on pivots that its
/// pivoting then has to move, and the factors fill in.
template <class ForEachEntry>
[[nodiscard]] SparsityPattern build_pattern_of(std::size_t n, ForEachEntry&& for_each_entry) {
  check_index_range(n, "columns");
  // Compressed columns in two passes over the entries (counts, then places), each column
  // holding its diagonal entry, when it has one, first.
  std::vector<std::size_t> start(n + 1, 0);
  std::vector<char> row_has_entry(n, 0);
  for_each_entry([&start, &row_has_entry](std::size_t row, std::size_t col) {
    ++start[col + 1];
    row_has_entry[row] = 1;
  });
  std::vector<char> diagonal(n, 0);
  for (std::size_t j = 0; j < n; ++j) {
    diagonal[j] = static_cast<char>(start[j + 1] == 0 || row_has_entry[j] == 0);
    start[j + 1] += static_cast<std::size_t>(diagonal[j]);
  }
  for (std::size_t j = 0; j < n; ++j) start[j + 1] += start[j];
  check_index_range(start[n], "entries");
  std::vector<Index> rows(start[n]);
  std::vector<std::size_t> next(start.begin(), start.end() - 1);
  for (std::size_t j = 0; j < n; ++j) {
    if (diagonal[j] != 0) rows[next[j]++] = static_cast<Index>(j);
  }
  for_each_entry(
      [&](std::size_t row, std::size_t col) { rows[next[col]++] = static_cast<Index>(row); });
  return finish_pattern(n, std::move(start), std::move(rows));
}

/// The same from a list of entries.
[[nodiscard]] SparsityPattern build_pattern(std::size_t n, std::span<const Entry> entries);

}  // namespace hdae::sparsity
