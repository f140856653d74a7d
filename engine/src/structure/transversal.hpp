// Transversals of a sparse signature matrix (docs/design.md, "Structure and index").
//
// A transversal picks one entry in every row and every column. Whether one exists is a
// maximum-cardinality matching of the bipartite graph rows x columns; when none exists, the
// rows and columns an augmenting search can reach from what is left unmatched are the over-
// and under-determined parts of a Dulmage-Mendelsohn decomposition. Pryce's method needs a
// highest-value transversal (largest sum of sigma), a linear assignment problem. It is solved
// here by the Hungarian method in a sparse, phase-wise form: dual potentials keep every
// reduced cost non-negative; each phase runs one Dijkstra search from all unmatched rows at
// once, raises the potentials so that the shortest augmenting paths become tight (zero
// reduced cost), and then augments along as many disjoint tight paths as a depth-first search
// finds. A phase costs O(entries log n) whatever the number of rows it matches, and a long
// chain needs a handful of phases where one search per row swept the chain again and again.
#pragma once

#include <cstddef>
#include <vector>

#include "hdae/structure.hpp"

namespace hdae::structure {

/// Row-wise adjacency of a signature matrix: (column, sigma) per row.
struct RowAdjacency {
  struct Arc {
    std::size_t col = 0;
    int sigma = 0;
  };
  explicit RowAdjacency(const SignatureMatrix& s);
  std::size_t n = 0;
  std::vector<std::vector<Arc>> rows;
};

/// A maximum matching: match[i] is the column of row i, or n when row i stays unmatched.
[[nodiscard]] std::vector<std::size_t> maximum_matching(const RowAdjacency& a);

/// A highest-value transversal with the dual solution that proves it: offsets (not the
/// smallest, possibly negative) with d_j - c_i >= sigma_ij on every entry and equality on the
/// transversal. By LP duality no transversal has a larger value.
struct HighestValueTransversal {
  std::vector<std::size_t> col_of_row;
  std::vector<long long> c, d;
};

/// A highest-value transversal; the matrix must have a perfect matching (maximum_matching
/// leaves no row unmatched), else std::logic_error.
[[nodiscard]] HighestValueTransversal highest_value_transversal(const RowAdjacency& a);

/// Fills the over- and under-determined parts of `result` from a maximum matching that is
/// not perfect: rows reachable from unmatched rows by alternating paths (with the columns they
/// touch), and columns reachable from unmatched columns (with the rows they meet).
void dulmage_mendelsohn_parts(const RowAdjacency& a, const std::vector<std::size_t>& match,
                              SigmaMethodResult& result);

}  // namespace hdae::structure
