// Which slots are states and which are dummy derivatives (hdae/index_reduction.hpp, steps 3
// and 4), from Pryce's system Jacobian J_ij = d F_i / d x_j^(d_j - c_i) at a point.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "slot_layout.hpp"

namespace hdae::reduction {

/// Pryce's system Jacobian J_ij = d F_i / d x_j^(d_j - c_i), n x n, column-major. Sparse: the
/// selection of a large model judges blocks with as many rows as it has constraints.
using SystemJacobian = Eigen::SparseMatrix<double>;

struct StateSelection {
  /// picked[kappa] (kappa = 1..max c): the unknowns j whose x_j^(d_j - kappa) is algebraic;
  /// picked[0] is unused (stage 0 makes every x_j^(d_j) algebraic).
  std::vector<std::vector<std::size_t>> picked;
  /// The states, ordered by original unknown and derivative: row m of the state rows reads
  /// der(states[m]) = next[m], the reduced system's unknowns of x_j^(k) and x_j^(k+1).
  std::vector<std::size_t> states, next;
  std::vector<bool> algebraic;  ///< per unknown of the reduced system

  friend bool operator==(const StateSelection& a, const StateSelection& b) {
    return a.picked == b.picked;
  }
};

/// True when some stage has more candidates than rows, so the selection may have to change.
[[nodiscard]] bool has_choice(const SlotLayout& layout);

/// The selection at J (columns scaled by scale_j, the unknowns' nominal values): deepest stage
/// first, each stage keeping the picks of the stage below and adding, by column-pivoted
/// orthogonalisation, the candidates that keep the block best conditioned; then exchanging
/// picks for candidates while one exchange grows |det| of the block, so that no single
/// exchange improves it (a locally largest volume). Where J is `exact` (from jets, not
/// difference quotients), a stage of more than 40 rows does the same within the diagonal
/// blocks of its block triangular form (block_selection.hpp), else with a sparse LU. Throws
/// ModelError naming the rows of a stage whose block is singular for every choice. With
/// `previous`, a stage whose forced columns are all among its previous picks starts the
/// exchanges from those picks instead of orthogonalising afresh: a selection that has become a
/// poor choice is usually a few exchanges away from a good one.
[[nodiscard]] StateSelection select_states(const SystemJacobian& jacobian,
                                           const std::vector<double>& scale,
                                           const SlotLayout& layout,
                                           const std::vector<std::string>& equation_names,
                                           bool exact, const StateSelection* previous = nullptr);

/// A stage with more rows than this is judged within the diagonal blocks of its block
/// triangular form (block_selection.hpp): judged as a whole, it costs with the square of its
/// rows at every step end and with their cube at a fresh selection.
inline constexpr std::size_t kDenseRows = 40;

/// True when stage kappa has more than kDenseRows rows.
[[nodiscard]] bool judged_by_blocks(const SlotLayout& layout, int kappa);

/// The quality of a stage judged by blocks (selection_judge.hpp gives the selection's): 1 / g,
/// g the largest factor by which an exchange within a diagonal block of the block triangular
/// form of its picks grows that block's |det|, one small LU per block (block_selection.hpp;
/// where J is not `exact`, as block_quality says).
[[nodiscard]] double large_stage_quality(const SystemJacobian& jacobian,
                                         const std::vector<double>& scale, const SlotLayout& layout,
                                         int kappa, const std::vector<std::size_t>& picked,
                                         const std::vector<std::size_t>& forced, bool exact);

}  // namespace hdae::reduction
