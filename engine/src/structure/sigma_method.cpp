// Pryce's Sigma-method on a signature matrix (docs/design.md, "Structure and index"): the
// transversal, then the smallest offsets.
#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>
#include <utility>

#include "hdae/structure.hpp"
#include "structure/transversal.hpp"

namespace hdae {
namespace {

using Offset = long long;

/// Pryce (BIT 2001), section 3, finds the smallest offsets by the fixed-point iteration
/// c_i = d_T(i) - sigma_iT(i), d_j = max_i (sigma_ij + c_i) from c = 0, which may need as many
/// sweeps over all entries as the index is high. Its limit is the smallest c >= 0 with
/// c_i >= c_k + sigma_kj - sigma_ij for every entry (k, j) in the transversal column j = T(i)
/// of row i: longest paths in the graph of these constraints, computed here in one pass.
/// The transversal's dual offsets (C, D) make every weight w = sigma_kj - sigma_ij + C_k - C_i
/// non-positive (sigma_kj <= D_j - C_k, sigma_ij = D_j - C_i), so with h_i = c_i - C_i the
/// rows can be finished in decreasing h, as Dijkstra's search finishes nodes in increasing
/// distance.
std::vector<Offset> longest_paths(const structure::RowAdjacency& a,
                                  const structure::HighestValueTransversal& t) {
  const std::size_t n = a.n;
  std::vector<std::size_t> row_of_col(n);
  std::vector<int> transversal_sigma(n);
  for (std::size_t i = 0; i < n; ++i) {
    row_of_col[t.col_of_row[i]] = i;
    for (const auto& arc : a.rows[i]) {
      if (arc.col == t.col_of_row[i]) transversal_sigma[i] = arc.sigma;
    }
  }
  std::vector<Offset> h(n);
  std::vector<char> finished(n, 0);
  std::priority_queue<std::pair<Offset, std::size_t>> heap;             // largest h first
  for (std::size_t i = 0; i < n; ++i) heap.emplace(h[i] = -t.c[i], i);  // c_i >= 0
  while (!heap.empty()) {
    const auto [hk, k] = heap.top();
    heap.pop();
    if (finished[k] != 0) continue;
    finished[k] = 1;
    for (const auto& arc : a.rows[k]) {  // row k constrains the row matched to arc.col
      const std::size_t i = row_of_col[arc.col];
      const Offset candidate = hk + t.c[k] + arc.sigma - transversal_sigma[i] - t.c[i];
      if (finished[i] == 0 && candidate > h[i]) heap.emplace(h[i] = candidate, i);
    }
  }
  for (std::size_t i = 0; i < n; ++i) h[i] += t.c[i];
  return h;
}

void smallest_offsets(const SignatureMatrix& s, const structure::RowAdjacency& a,
                      const structure::HighestValueTransversal& t, SigmaMethodResult& r) {
  const std::vector<Offset> c = longest_paths(a, t);
  r.c.assign(c.begin(), c.end());
  r.d.assign(s.n, 0);
  for (const SignatureEntry& e : s.entries) r.d[e.col] = std::max(r.d[e.col], e.sigma + r.c[e.row]);
  // d_j - c_i >= sigma_ij holds by construction, equality on the transversal whenever the
  // longest paths are right; it fails when some weight was positive, i.e. when the
  // transversal or its dual offsets were wrong.
  for (const SignatureEntry& e : s.entries) {
    if (r.transversal[e.row] == e.col && r.d[e.col] - r.c[e.row] != e.sigma) {
      throw std::logic_error(
          "Pryce's offsets do not hold on the transversal: not of highest value");
    }
  }
}

}  // namespace

SigmaMethodResult sigma_method(const SignatureMatrix& sigma) {
  const structure::RowAdjacency adjacency(sigma);
  SigmaMethodResult r;
  const std::vector<std::size_t> match = structure::maximum_matching(adjacency);
  r.has_transversal =
      std::none_of(match.begin(), match.end(), [&](std::size_t j) { return j == sigma.n; });
  if (!r.has_transversal) {
    r.transversal = match;
    structure::dulmage_mendelsohn_parts(adjacency, match, r);
    return r;
  }
  const structure::HighestValueTransversal transversal =
      structure::highest_value_transversal(adjacency);
  r.transversal = transversal.col_of_row;
  for (const SignatureEntry& e : sigma.entries) {
    if (r.transversal[e.row] == e.col) r.value += e.sigma;
  }
  smallest_offsets(sigma, adjacency, transversal, r);
  return r;
}

int structural_index(std::span<const int> c, std::span<const int> d) {
  // Pryce (BIT 2001), the definition of the structural index: max c_i, plus one when some
  // variable occurs undifferentiated only (d_j = 0), because such a variable needs one more
  // differentiation of the system to get its own derivative.
  const int max_c = c.empty() ? 0 : *std::max_element(c.begin(), c.end());
  const bool algebraic = std::any_of(d.begin(), d.end(), [](int dj) { return dj == 0; });
  return max_c + (algebraic ? 1 : 0);
}

}  // namespace hdae
