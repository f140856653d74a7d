#include "structure/transversal.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

namespace hdae::structure {

RowAdjacency::RowAdjacency(const SignatureMatrix& s) : n(s.n), rows(s.n) {
  for (const SignatureEntry& e : s.entries) rows[e.row].push_back({e.col, e.sigma});
}

namespace {

/// Depth-first search for an augmenting path from row i (Kuhn's algorithm with a lookahead,
/// as in Duff's MC21: a row entered first looks for a free column among all its entries, so
/// the search does not wander down a long chain of matched rows when a free column is one
/// step away), iterative so that a long chain model does not exhaust the stack. Returns true
/// when row i got matched.
bool augment(const RowAdjacency& a, std::size_t start, std::vector<std::size_t>& match_row,
             std::vector<std::size_t>& match_col, std::vector<std::size_t>& seen_in,
             std::size_t stamp) {
  const std::size_t n = a.n;
  // Stack of (row, next arc to try); parent column recorded per level.
  std::vector<std::pair<std::size_t, std::size_t>> stack{{start, 0}};
  std::vector<std::size_t> via;  // column by which each level above the first was entered
  const auto flip = [&](std::size_t free_col) {
    via.push_back(free_col);
    for (std::size_t level = 0; level < stack.size(); ++level) {
      const std::size_t row = stack[level].first;
      match_row[row] = via[level];
      match_col[via[level]] = row;
    }
  };
  while (!stack.empty()) {
    auto& [i, next] = stack.back();
    if (next == 0) {
      for (const auto& arc : a.rows[i]) {
        if (match_col[arc.col] == n) {
          flip(arc.col);
          return true;
        }
      }
    }
    if (next == a.rows[i].size()) {
      stack.pop_back();
      if (!via.empty()) via.pop_back();
      continue;
    }
    const std::size_t j = a.rows[i][next++].col;
    if (seen_in[j] == stamp) continue;
    seen_in[j] = stamp;
    if (match_col[j] == n) {  // free column: flip the path
      flip(j);
      return true;
    }
    via.push_back(j);
    stack.emplace_back(match_col[j], 0);
  }
  return false;
}

}  // namespace

std::vector<std::size_t> maximum_matching(const RowAdjacency& a) {
  const std::size_t n = a.n;
  std::vector<std::size_t> match_row(n, n), match_col(n, n), seen(n, 0);
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
    if (match_row[i] == n) augment(a, i, match_row, match_col, seen, i + 1);
  }
  return match_row;
}

namespace {

/// State of the assignment: costs are (max sigma - sigma) >= 0, so a minimum-cost perfect
/// matching is a highest-value transversal. Potentials keep every reduced cost
/// cost - u_i - v_j non-negative and zero on matched entries.
struct Assignment {
  explicit Assignment(const RowAdjacency& adjacency);
  void match_row(std::size_t s);

  const RowAdjacency& a;
  int top = 0;
  std::vector<double> u, v;
  std::vector<std::size_t> row_of_col, col_of_row;
};

Assignment::Assignment(const RowAdjacency& adjacency)
    : a(adjacency), u(a.n, 0.0), v(a.n, 0.0), row_of_col(a.n, a.n), col_of_row(a.n, a.n) {
  for (const auto& row : a.rows) {
    for (const auto& arc : row) top = std::max(top, arc.sigma);
  }
  // u_i = the row's smallest cost; its tight entries may be matched greedily.
  for (std::size_t i = 0; i < a.n; ++i) {
    int best = std::numeric_limits<int>::max();
    for (const auto& arc : a.rows[i]) best = std::min(best, top - arc.sigma);
    u[i] = best;
    for (const auto& arc : a.rows[i]) {
      if (top - arc.sigma == best && row_of_col[arc.col] == a.n) {
        row_of_col[arc.col] = i;
        col_of_row[i] = arc.col;
        break;
      }
    }
  }
}

/// One augmentation from the free row s: Dijkstra over alternating paths in reduced costs,
/// stopped at the first free column; then the potentials move by the distances so that the
/// new path is tight, and the matching flips along it.
void Assignment::match_row(std::size_t s) {
  const std::size_t n = a.n;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(n, kInf);
  std::vector<std::size_t> pred(n, n);
  std::vector<char> done(n, 0);
  std::vector<std::size_t> finished;
  using Item = std::pair<double, std::size_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
  const auto relax = [&](std::size_t i, double base) {
    for (const auto& arc : a.rows[i]) {
      const double d = base + (top - arc.sigma) - u[i] - v[arc.col];
      if (!done[arc.col] && d < dist[arc.col]) {
        dist[arc.col] = d;
        pred[arc.col] = i;
        heap.emplace(d, arc.col);
      }
    }
  };
  relax(s, 0.0);
  std::size_t sink = n;
  while (!heap.empty() && sink == n) {
    const auto [d, j] = heap.top();
    heap.pop();
    if (done[j] || d > dist[j]) continue;
    done[j] = 1;
    finished.push_back(j);
    if (row_of_col[j] == n) {
      sink = j;
    } else {
      relax(row_of_col[j], d);
    }
  }
  // The caller checked for a perfect matching, so a free column is always reached.
  const double total = dist[sink];
  u[s] += total;
  for (const std::size_t j : finished) {
    if (j == sink) continue;
    v[j] -= total - dist[j];
    u[row_of_col[j]] += total - dist[j];
  }
  for (std::size_t j = sink; j != n;) {
    const std::size_t i = pred[j];
    const std::size_t previous = col_of_row[i];
    row_of_col[j] = i;
    col_of_row[i] = j;
    j = i == s ? n : previous;
  }
}

}  // namespace

std::vector<std::size_t> highest_value_transversal(const RowAdjacency& a) {
  Assignment assignment(a);
  for (std::size_t i = 0; i < a.n; ++i) {
    if (assignment.col_of_row[i] == a.n) assignment.match_row(i);
  }
  return assignment.col_of_row;
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
