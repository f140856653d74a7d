#include <algorithm>

#include "hdae/structure.hpp"

namespace hdae {

int SignatureMatrix::sigma(std::size_t row, std::size_t col) const {
  const auto less = [](const SignatureEntry& e, std::pair<std::size_t, std::size_t> key) {
    return std::pair(e.row, e.col) < key;
  };
  const auto it = std::lower_bound(entries.begin(), entries.end(), std::pair(row, col), less);
  if (it == entries.end() || it->row != row || it->col != col) return kAbsent;
  return it->sigma;
}

namespace {

/// Largest sigma first within a position, so that unique() keeps it.
bool before(const SignatureEntry& a, const SignatureEntry& b) {
  if (a.row != b.row) return a.row < b.row;
  if (a.col != b.col) return a.col < b.col;
  return a.sigma > b.sigma;
}

/// Entries bucketed by row in one counting pass, then each row's few entries sorted: linear
/// in the entries, where one sort of all of them took a tenth of the structure analysis of a
/// model of 10^5 unknowns.
void sort_by_rows(std::size_t n, std::vector<SignatureEntry>& entries) {
  std::vector<std::size_t> start(n + 1, 0);
  for (const SignatureEntry& e : entries) ++start[e.row + 1];
  for (std::size_t i = 0; i < n; ++i) start[i + 1] += start[i];
  std::vector<SignatureEntry> sorted(entries.size());
  std::vector<std::size_t> next(start.begin(), start.end() - 1);
  for (const SignatureEntry& e : entries) sorted[next[e.row]++] = e;
  for (std::size_t i = 0; i < n; ++i) {
    std::sort(sorted.begin() + static_cast<std::ptrdiff_t>(start[i]),
              sorted.begin() + static_cast<std::ptrdiff_t>(start[i + 1]), before);
  }
  entries = std::move(sorted);
}

}  // namespace

void SignatureMatrix::normalize() {
  const bool rows_in_range = std::all_of(entries.begin(), entries.end(),
                                         [&](const SignatureEntry& e) { return e.row < n; });
  if (rows_in_range) {
    sort_by_rows(n, entries);
  } else {
    std::sort(entries.begin(), entries.end(), before);
  }
  const auto same_place = [](const SignatureEntry& a, const SignatureEntry& b) {
    return a.row == b.row && a.col == b.col;
  };
  entries.erase(std::unique(entries.begin(), entries.end(), same_place), entries.end());
}

}  // namespace hdae
