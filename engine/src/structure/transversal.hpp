// Transversals of a sparse signature matrix (docs/design.md, "Structure and index").
//
// A transversal picks one entry in every row and every column. Whether one exists is a
// maximum-cardinality matching of the bipartite graph rows x columns; when none exists, the
// rows and columns an augmenting search can reach from what is left unmatched are the over-
// and under-determined parts of a Dulmage-Mendelsohn decomposition. Pryce's method needs a
// highest-value transversal (largest sum of sigma), a linear assignment problem solved here
// by successive shortest augmenting paths with dual potentials (the Hungarian method in its
// sparse, Dijkstra-based form), so that only the entries present are ever looked at.
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

/// A highest-value transversal; the matrix must have a perfect matching (maximum_matching
/// leaves no row unmatched). Returns the column of every row.
[[nodiscard]] std::vector<std::size_t> highest_value_transversal(const RowAdjacency& a);

/// Fills the over- and under-determined parts of `result` from a maximum matching that is
/// not perfect: rows reachable from unmatched rows by alternating paths (with the columns they
/// touch), and columns reachable from unmatched columns (with the rows they meet).
void dulmage_mendelsohn_parts(const RowAdjacency& a, const std::vector<std::size_t>& match,
                              SigmaMethodResult& result);

}  // namespace hdae::structure
