// The sparsity pattern of the reduced system (hdae/index_reduction.hpp, step 2), which lets a
// large reduced model run with sparse Newton matrices (SimulationOptions::linear_solver).
#pragma once

#include <algorithm>

#include "hdae/model.hpp"
#include "hdae/structure.hpp"
#include "slot_layout.hpp"
#include "state_selection.hpp"

namespace hdae::reduction {

/// visit(q, k) for every derivative F_i^(q) (q = 0..c_i) of the signature entry's equation and
/// every slot x_j^(k) it holds: k up to q + sigma_ij, and up to d_j. Nothing for an equation
/// without rows of its own (an alias). The reduced Jacobian's entries and the pattern both
/// follow it.
template <class Visit>
void for_each_derivative_entry(const SlotLayout& layout, const SignatureEntry& e, Visit&& visit) {
  if (!layout.has_rows(e.row)) return;
  const int d = layout.d[e.col];
  for (int q = 0; q <= layout.c[e.row]; ++q) {
    for (int k = 0; k <= std::min(d, q + e.sigma); ++k) visit(q, k);
  }
}

/// Where d F_i^(q) / d x_j^(k) can be nonzero: for every entry of the signature, k up to
/// q + sigma_ij (and d_j), as reduced_jacobian.hpp differentiates; then each state row's two
/// entries, der(states[m]) and next[m]. The state rows follow the selection, so the pattern
/// changes when the states do.
[[nodiscard]] SparsityTable reduced_pattern(const SlotLayout& layout,
                                            const SignatureMatrix& signature,
                                            const StateSelection& selection);

/// True when the two patterns list the same entries in the same order.
[[nodiscard]] bool same_pattern(const SparsityTable& a, const SparsityTable& b);

}  // namespace hdae::reduction
