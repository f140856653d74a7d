// Pryce's Sigma-method on a signature matrix (docs/design.md, "Structure and index"): the
// transversal, then the smallest offsets by fixed-point iteration.
#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "hdae/structure.hpp"
#include "structure/transversal.hpp"

namespace hdae {
namespace {

/// Pryce (BIT 2001), section 3: starting from c = 0, alternate d_j = max_i (sigma_ij + c_i)
/// over the entries of column j and c_i = d_T(i) - sigma_iT(i) until nothing changes. Every
/// step only raises offsets, and with a highest-value transversal the iteration stops at the
/// smallest offsets satisfying d_j - c_i >= sigma_ij with equality on the transversal.
void smallest_offsets(const SignatureMatrix& s, SigmaMethodResult& r) {
  const std::size_t n = s.n;
  std::vector<int> transversal_sigma(n, 0);
  int top = 0;
  for (const SignatureEntry& e : s.entries) {
    if (r.transversal[e.row] == e.col) transversal_sigma[e.row] = e.sigma;
    top = std::max(top, e.sigma);
  }
  r.c.assign(n, 0);
  r.d.assign(n, 0);
  // Each pass that changes anything raises some c_i by at least 1, and no c_i of a
  // highest-value transversal exceeds n * (top + 1); more passes mean a wrong transversal.
  const std::size_t max_passes = (n + 1) * static_cast<std::size_t>(top + 1) + 2;
  for (std::size_t pass = 0; pass < max_passes; ++pass) {
    std::fill(r.d.begin(), r.d.end(), 0);
    for (const SignatureEntry& e : s.entries)
      r.d[e.col] = std::max(r.d[e.col], e.sigma + r.c[e.row]);
    bool changed = false;
    for (std::size_t i = 0; i < n; ++i) {
      const int ci = r.d[r.transversal[i]] - transversal_sigma[i];
      if (ci != r.c[i]) r.c[i] = ci, changed = true;
    }
    if (!changed) return;
  }
  throw std::logic_error(
      "Pryce's offset iteration did not settle: transversal not of highest value");
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
  r.transversal = structure::highest_value_transversal(adjacency);
  for (const SignatureEntry& e : sigma.entries) {
    if (r.transversal[e.row] == e.col) r.value += e.sigma;
  }
  smallest_offsets(sigma, r);
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
