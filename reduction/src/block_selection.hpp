// The state selection of a stage with many rows (state_selection.hpp), judged within the
// diagonal blocks of the block triangular form of its picked columns.
//
// The largest growth of |det B| over all single exchanges of a pick for a candidate needs
// B^-1 A, which is dense even where B and A are sparse: a chain's rods couple every link to
// the links beyond it. Its cost grows with the square of the stage's rows at every step end,
// and a fresh column-pivoted orthogonalisation with their cube. Permuted to block upper
// triangular form (Duff and Reid's; SuiteSparse's BTF), det B is the product of the
// determinants of the diagonal blocks. A candidate whose rows lie in block k and the blocks
// before it can take the place of a pick of block k and the form stays: |det B| then changes
// by the factor that |det| of block k changes, which block k alone gives. A large stage is
// judged by these exchanges only, each block with its own small dense LU. The cost is linear
// in the rows where the blocks stay small (the closed loops of a mechanism); the judgement is
// exact for exchanges that keep the structure and does not see those that would join blocks.
#pragma once

#include <cstddef>
#include <vector>

#include "state_selection.hpp"

namespace hdae::reduction {

/// An exchange counts when it grows |det| by more than round-off; |det| then grows with every
/// exchange, which ends a search for a locally largest volume.
inline constexpr double kExchangeGain = 1.0 + 1e-9;

/// One stage of the selection: its rows by its candidates of J, each column scaled by its
/// unknown's nominal value, and the candidates a deeper stage picked (every choice keeps them).
struct SelectionStage {
  SystemJacobian block;
  std::vector<bool> forced;
  /// Whether the entries are exact (from the jets) rather than difference quotients, whose
  /// noise sets how small an entry may be and still count (block_selection.cpp).
  bool exact = true;
};

/// One candidate per row (positions among the stage's candidates), forming a block of locally
/// largest volume within its diagonal blocks. From `start`, or where it is empty from a
/// maximum transversal taking the forced candidates first and the others by decreasing norm:
/// a numerically singular diagonal block is picked afresh by column pivoting over the
/// candidates it may take; then picks are exchanged within blocks while one exchange grows
/// |det|. Empty when a block is singular for every choice it may take, or the forced
/// candidates cannot all be picked: the stage is then judged as a whole.
[[nodiscard]] std::vector<std::size_t> block_picks(const SelectionStage& stage,
                                                   std::vector<std::size_t> start);

/// min over the diagonal blocks of 1 / g, g the largest factor by which exchanging one of the
/// block's free picks for a candidate it may take grows the block's |det| (1 when none grows
/// it; 0 when a block is singular).
[[nodiscard]] double block_quality(const SelectionStage& stage,
                                   const std::vector<std::size_t>& picked);

}  // namespace hdae::reduction
