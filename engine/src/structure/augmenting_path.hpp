// One augmenting path of a bipartite matching (rows x columns of a signature matrix), found
// by depth-first search over the arcs a caller allows: all of them for a maximum matching, the
// tight ones (zero reduced cost) for the highest-value transversal.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "structure/transversal.hpp"

namespace hdae::structure {

/// Searches an alternating path from the unmatched row `start` to an unmatched column over the
/// arcs (row, arc) for which usable(row, arc) holds, and flips the matching along it. Kuhn's
/// search with a lookahead, as in Duff's MC21: a row entered first looks for a free column
/// among all its usable arcs, so the search does not wander down a long chain of matched rows
/// when a free column is one step away. Iterative, so that a long chain model does not exhaust
/// the stack. A column is entered at most once per value of `stamp` (seen_in[j] == stamp
/// marks it): the caller decides whether marks persist across searches. match_row[i] and
/// match_col[j] hold a.n when unmatched. Returns true when `start` got matched.
template <class Usable>
bool augment(const RowAdjacency& a, std::size_t start, std::vector<std::size_t>& match_row,
             std::vector<std::size_t>& match_col, std::vector<std::size_t>& seen_in,
             std::size_t stamp, const Usable& usable) {
  const std::size_t n = a.n;
  // Stack of (row, next arc to try); the column by which each level above the first was
  // entered is in `via`.
  std::vector<std::pair<std::size_t, std::size_t>> stack{{start, 0}};
  std::vector<std::size_t> via;
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
        if (match_col[arc.col] == n && usable(i, arc)) {
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
    const RowAdjacency::Arc& arc = a.rows[i][next++];
    const std::size_t j = arc.col;
    if (seen_in[j] == stamp || !usable(i, arc)) continue;
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

}  // namespace hdae::structure
