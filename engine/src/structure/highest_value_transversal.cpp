// The highest-value transversal by the sparse Hungarian method in phases (transversal.hpp).
#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <stdexcept>
#include <utility>

#include "structure/augmenting_path.hpp"
#include "structure/transversal.hpp"

namespace hdae::structure {
namespace {

using Cost = long long;
constexpr Cost kUnreached = std::numeric_limits<Cost>::max();

/// Costs are top - sigma >= 0, so a minimum-cost perfect matching is a highest-value
/// transversal. Potentials u (rows) and v (columns) keep every reduced cost
/// cost - u_i - v_j non-negative and zero on matched entries; a perfect matching with such
/// potentials has minimum cost (complementary slackness).
class Assignment {
 public:
  explicit Assignment(const RowAdjacency& adjacency);
  /// Phases until every row is matched: shortest paths, potentials, tight augmentations.
  void solve();
  [[nodiscard]] HighestValueTransversal result() const;

 private:
  [[nodiscard]] Cost reduced(std::size_t i, const RowAdjacency::Arc& arc) const {
    return top_ - arc.sigma - u_[i] - v_[arc.col];
  }
  void relax(std::size_t i, Cost base);
  [[nodiscard]] Cost shortest_paths();
  void raise_potentials(Cost reach);
  void augment_tight();

  const RowAdjacency& a_;
  std::size_t n_;
  Cost top_ = 0;
  std::vector<Cost> u_, v_;
  std::vector<std::size_t> row_of_col_, col_of_row_, free_rows_;
  // Dijkstra's state: distances of columns, reset only where the last search touched them,
  // so that a phase costs what it explores and not n.
  std::vector<Cost> dist_;
  std::vector<std::size_t> touched_, finished_;
  using Item = std::pair<Cost, std::size_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> heap_;
  // Columns entered by the tight searches, marked with the phase number.
  std::vector<std::size_t> seen_;
  std::size_t phase_ = 0;
};

Assignment::Assignment(const RowAdjacency& adjacency)
    : a_(adjacency),
      n_(adjacency.n),
      u_(n_, 0),
      v_(n_, 0),
      row_of_col_(n_, n_),
      col_of_row_(n_, n_),
      dist_(n_, kUnreached),
      seen_(n_, 0) {
  for (const auto& row : a_.rows) {
    for (const auto& arc : row) top_ = std::max<Cost>(top_, arc.sigma);
  }
  // u_i = the row's smallest cost (v = 0), so the row's cheapest entries are tight and may be
  // matched greedily; most rows of a model are matched here.
  for (std::size_t i = 0; i < n_; ++i) {
    if (a_.rows[i].empty()) throw std::logic_error("highest-value transversal: an empty row");
    u_[i] = kUnreached;
    for (const auto& arc : a_.rows[i]) u_[i] = std::min(u_[i], top_ - arc.sigma);
    for (const auto& arc : a_.rows[i]) {
      if (reduced(i, arc) == 0 && row_of_col_[arc.col] == n_) {
        row_of_col_[arc.col] = i;
        col_of_row_[i] = arc.col;
        break;
      }
    }
    if (col_of_row_[i] == n_) free_rows_.push_back(i);
  }
}

void Assignment::relax(std::size_t i, Cost base) {
  for (const auto& arc : a_.rows[i]) {
    const Cost d = base + reduced(i, arc);
    if (d < dist_[arc.col]) {
      if (dist_[arc.col] == kUnreached) touched_.push_back(arc.col);
      dist_[arc.col] = d;
      heap_.emplace(d, arc.col);
    }
  }
}

/// Dijkstra over alternating paths in reduced costs from every unmatched row at once (all at
/// distance 0); returns the distance of the nearest unmatched column. Columns are finished in
/// the order of their distance, and the search stops at the first unmatched one.
Cost Assignment::shortest_paths() {
  for (const std::size_t j : touched_) dist_[j] = kUnreached;
  touched_.clear();
  finished_.clear();
  heap_ = {};
  for (const std::size_t s : free_rows_) relax(s, 0);
  while (!heap_.empty()) {
    const auto [d, j] = heap_.top();
    heap_.pop();
    if (d != dist_[j]) continue;  // a stale entry
    finished_.push_back(j);
    if (row_of_col_[j] == n_) return d;
    relax(row_of_col_[j], d);
  }
  throw std::logic_error("highest-value transversal: no augmenting path, no perfect matching");
}

/// Moves the potentials by the distances (each finished column and its row by reach - dist,
/// unmatched rows by reach): reduced costs stay non-negative, matched entries stay tight, and
/// every shortest augmenting path becomes tight.
void Assignment::raise_potentials(Cost reach) {
  for (const std::size_t s : free_rows_) u_[s] += reach;
  for (const std::size_t j : finished_) {
    const Cost rise = reach - dist_[j];
    v_[j] -= rise;
    if (row_of_col_[j] != n_) u_[row_of_col_[j]] += rise;
  }
}

/// Augments along tight paths from the unmatched rows; a column is entered once per phase, so
/// the phase's searches together cost O(entries). Every phase matches a row: unless an earlier
/// search of the phase did, the earlier ones failed and marked only columns from which no
/// unmatched column can be reached, none of them on the tight path that Dijkstra's search found
/// from its row.
void Assignment::augment_tight() {
  ++phase_;
  const auto tight = [this](std::size_t i, const RowAdjacency::Arc& arc) {
    return reduced(i, arc) == 0;
  };
  std::vector<std::size_t> still_free;
  for (const std::size_t s : free_rows_) {
    if (!augment(a_, s, col_of_row_, row_of_col_, seen_, phase_, tight)) still_free.push_back(s);
  }
  free_rows_ = std::move(still_free);
}

void Assignment::solve() {
  while (!free_rows_.empty()) {
    raise_potentials(shortest_paths());
    augment_tight();
  }
}

HighestValueTransversal Assignment::result() const {
  // sigma_ij <= top - u_i - v_j with equality on the matching: d_j = -v_j, c_i = u_i - top.
  HighestValueTransversal t{col_of_row_, std::vector<Cost>(n_), std::vector<Cost>(n_)};
  for (std::size_t k = 0; k < n_; ++k) {
    t.c[k] = u_[k] - top_;
    t.d[k] = -v_[k];
  }
  return t;
}

}  // namespace

HighestValueTransversal highest_value_transversal(const RowAdjacency& a) {
  Assignment assignment(a);
  assignment.solve();
  return assignment.result();
}

}  // namespace hdae::structure
