// build_pattern (sparsity/sparsity_pattern.hpp): compressed columns, sorted and without
// duplicates, the diagonal of rows and columns without entries, and the greedy column colouring.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "sparsity/sparsity_pattern.hpp"

namespace hdae::sparsity {
namespace {

/// The colour of each column, read from the columns of each colour.
std::vector<std::size_t> colours_of(const SparsityPattern& p) {
  std::vector<std::size_t> colour(p.n, p.num_colors);
  for (std::size_t c = 0; c < p.num_colors; ++c) {
    for (const Index j : p.columns_of_color[c]) colour[j] = c;
  }
  return colour;
}

TEST_CASE("build_pattern sorts each column, drops duplicates and adds the diagonal of empty rows") {
  // Entries out of order, one repeated, one on the diagonal; row and column 3 have none. By
  // hand: column 0 holds rows {0, 2}, column 1 row {0}, column 2 row {1}, column 3 its diagonal
  // alone; no other diagonal is added (row 1 has an entry, in column 2).
  const std::vector<Entry> entries = {{2, 0}, {0, 1}, {1, 2}, {2, 0}, {0, 0}};
  const SparsityPattern p = build_pattern(4, entries);
  CHECK(p.col_start == std::vector<Index>{0, 2, 3, 4, 5});
  CHECK(p.row_index == std::vector<Index>{0, 2, 0, 1, 3});
  CHECK(p.find(2, 0) == 1);
  CHECK(p.find(2, 1) == p.nnz());
  CHECK(p.find(1, 1) == p.nnz());
}

TEST_CASE("the greedy colouring of a tridiagonal pattern is j mod 3") {
  // Column j holds rows j-1, j, j+1: it shares a row with columns j-2 .. j+2, so in column
  // order the smallest free colour is j mod 3 (by hand for j = 0..3: 0, 1, 2, 0).
  const std::size_t n = 10;
  std::vector<Entry> entries;
  for (std::size_t j = 0; j < n; ++j) entries.emplace_back(j, j);
  for (std::size_t j = 0; j + 1 < n; ++j) {
    entries.emplace_back(j + 1, j);
    entries.emplace_back(j, j + 1);
  }
  const SparsityPattern p = build_pattern(n, entries);
  REQUIRE(p.num_colors == 3);
  const std::vector<std::size_t> colour = colours_of(p);
  for (std::size_t j = 0; j < n; ++j) CHECK(colour[j] == j % 3);
  CHECK(p.columns_of_color[0] == std::vector<Index>{0, 3, 6, 9});
  CHECK(p.columns_of_color[2] == std::vector<Index>{2, 5, 8});
}

TEST_CASE("on a random pattern every colour is the smallest one no earlier neighbour has") {
  // The definition of the greedy colouring, checked column by column with sets of rows.
  std::mt19937 random(7);
  const std::size_t n = 60;
  std::vector<Entry> entries;
  std::uniform_int_distribution<std::size_t> index(0, n - 1);
  for (int k = 0; k < 200; ++k) entries.emplace_back(index(random), index(random));
  const SparsityPattern p = build_pattern(n, entries);
  const std::vector<std::size_t> colour = colours_of(p);
  std::vector<std::set<std::size_t>> rows(n);
  std::vector<bool> row_has_entry(n, false);
  for (const auto& [r, c] : entries) {
    rows[c].insert(r);
    row_has_entry[r] = true;
  }
  // The diagonal of every row or column without an entry.
  for (std::size_t j = 0; j < n; ++j) {
    if (rows[j].empty() || !row_has_entry[j]) rows[j].insert(j);
  }
  std::size_t colours = 0;
  for (std::size_t j = 0; j < n; ++j) {
    CHECK(std::vector<std::size_t>(rows[j].begin(), rows[j].end()) ==
          std::vector<std::size_t>(
              p.row_index.begin() + static_cast<std::ptrdiff_t>(p.col_start[j]),
              p.row_index.begin() + static_cast<std::ptrdiff_t>(p.col_start[j + 1])));
    std::set<std::size_t> taken;
    for (std::size_t i = 0; i < j; ++i) {
      for (const std::size_t r : rows[i]) {
        if (rows[j].count(r) != 0) taken.insert(colour[i]);
      }
    }
    std::size_t expected = 0;
    while (taken.count(expected) != 0) ++expected;
    CHECK(colour[j] == expected);
    colours = std::max(colours, expected + 1);
  }
  CHECK(p.num_colors == colours);
  std::size_t listed = 0;
  for (std::size_t c = 0; c < p.num_colors; ++c) {
    CHECK(std::is_sorted(p.columns_of_color[c].begin(), p.columns_of_color[c].end()));
    listed += p.columns_of_color[c].size();
  }
  CHECK(listed == n);
}

}  // namespace
}  // namespace hdae::sparsity
