#include "structure/transversal.hpp"

#include <algorithm>

#include "structure/augmenting_path.hpp"

namespace hdae::structure {

RowAdjacency::RowAdjacency(const SignatureMatrix& s) : n(s.n), rows(s.n) {
  for (const SignatureEntry& e : s.entries) rows[e.row].push_back({e.col, e.sigma});
}

std::vector<std::size_t> maximum_matching(const RowAdjacency& a) {
  const std::size_t n = a.n;
  std::vector<std::size_t> match_row(n, n), match_col(n, n), seen(n, 0);
  const auto every_arc = [](std::size_t, const RowAdjacency::Arc&) { return true; };
  for (std::size_t i = 0; i < n; ++i) {
    // Cheap pass first: a free column in the row itself.
    for (const auto& arc : a.rows[i]) {
      if (match_col[arc.col] == n) {
        match_row[i] = arc.col;
        match_col[arc.col] = i;
        break;
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (match_row[i] == n) augment(a, i, match_row, match_col, seen, i + 1, every_arc);
  }
  return match_row;
}

namespace {

/// Column-wise adjacency: the rows of each column.
std::vector<std::vector<std::size_t>> rows_of_columns(const RowAdjacency& a) {
  std::vector<std::vector<std::size_t>> cols(a.n);
  for (std::size_t i = 0; i < a.n; ++i) {
    for (const auto& arc : a.rows[i]) cols[arc.col].push_back(i);
  }
  return cols;
}

std::vector<std::size_t> marked(const std::vector<char>& flags) {
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < flags.size(); ++k) {
    if (flags[k] != 0) out.push_back(k);
  }
  return out;
}

}  // namespace

void dulmage_mendelsohn_parts(const RowAdjacency& a, const std::vector<std::size_t>& match,
                              SigmaMethodResult& result) {
  const std::size_t n = a.n;
  std::vector<std::size_t> row_of_col(n, n);
  for (std::size_t i = 0; i < n; ++i) {
    if (match[i] != n) row_of_col[match[i]] = i;
  }
  // Over-determined: from unmatched rows, row -> any of its columns -> that column's row.
  std::vector<char> row_seen(n, 0), col_seen(n, 0);
  std::vector<std::size_t> queue;
  for (std::size_t i = 0; i < n; ++i) {
    if (match[i] == n) queue.push_back(i), row_seen[i] = 1;
  }
  for (std::size_t k = 0; k < queue.size(); ++k) {
    for (const auto& arc : a.rows[queue[k]]) {
      if (col_seen[arc.col] != 0) continue;
      col_seen[arc.col] = 1;
      const std::size_t next = row_of_col[arc.col];
      if (next != n && row_seen[next] == 0) row_seen[next] = 1, queue.push_back(next);
    }
  }
  result.overdetermined_rows = marked(row_seen);
  result.overdetermined_cols = marked(col_seen);
  // Under-determined: from unmatched columns, column -> any of its rows -> that row's column.
  const auto cols = rows_of_columns(a);
  std::fill(row_seen.begin(), row_seen.end(), 0);
  std::fill(col_seen.begin(), col_seen.end(), 0);
  queue.clear();
  for (std::size_t j = 0; j < n; ++j) {
    if (row_of_col[j] == n) queue.push_back(j), col_seen[j] = 1;
  }
  for (std::size_t k = 0; k < queue.size(); ++k) {
    for (const std::size_t i : cols[queue[k]]) {
      if (row_seen[i] != 0) continue;
      row_seen[i] = 1;
      const std::size_t next = match[i];
      if (next != n && col_seen[next] == 0) col_seen[next] = 1, queue.push_back(next);
    }
  }
  result.underdetermined_rows = marked(row_seen);
  result.underdetermined_cols = marked(col_seen);
}

}  // namespace hdae::structure
