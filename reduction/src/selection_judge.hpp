// The judgement of one state selection at every step end (hdae/index_reduction.hpp, dynamic
// selection): min over the stages of 1 / g, g the largest factor by which exchanging one dummy
// derivative (one its deeper stage did not force) for another candidate grows |det| of the
// stage's block of Pryce's system Jacobian (state_selection.hpp). What depends on the selection
// alone (each stage's rows, picks, other candidates and free picks) is laid out once per
// selection, so that a judgement of small stages allocates nothing.
#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Core>

#include "slot_layout.hpp"
#include "state_selection.hpp"

namespace hdae::reduction {

class SelectionJudge {
 public:
  SelectionJudge() = default;
  SelectionJudge(const SlotLayout& layout, const StateSelection& selection, bool exact);

  /// True when the judge was laid out for this layout's stages and this selection: the
  /// selection changes at events, and the layout with the mode.
  [[nodiscard]] bool fits(const SlotLayout& layout, const StateSelection& selection,
                          bool exact) const;

  struct Judgement {
    /// 1 right after a fresh selection, 0.5 where an exchange would double |det| of a stage's
    /// block, 0 where a block became singular; continuous in J.
    double quality = 1.0;
    /// The largest factor g itself, not clipped at 1 as the quality is (so that it shows a
    /// trend while the quality stands at 1); infinite where a block is singular, NaN when a
    /// stage is judged by blocks, whose judgement gives the quality alone.
    double growth = 0.0;
  };
  [[nodiscard]] Judgement judge(const SystemJacobian& jacobian,
                                const std::vector<double>& scale) const;

 private:
  /// A stage of at most kDenseRows rows: B (its rows, the picks) and A (its rows, the other
  /// candidates), gathered from J's columns through each row's place in the stage.
  struct DenseStage {
    std::vector<Eigen::Index> place;  ///< per row of J: its position in the stage, or -1
    std::vector<std::size_t> picked, other;
    std::vector<bool> free;  ///< per pick: a deeper stage did not force it
  };
  /// A stage judged within the blocks of its block triangular form (judged_by_blocks).
  struct LargeStage {
    int kappa = 0;
    std::vector<std::size_t> picked, forced;
  };
  /// The stage's largest factor g; infinite when its block is singular.
  [[nodiscard]] double dense_growth(const DenseStage& s, const SystemJacobian& jacobian,
                                    const std::vector<double>& scale) const;
  /// Column `column` of J at the stage's rows, scaled by its unknown's nominal value, into v.
  static void gather(const DenseStage& s, const SystemJacobian& jacobian,
                     const std::vector<double>& scale, std::size_t column, double* v);

  const SlotLayout* layout_ = nullptr;
  bool exact_ = false;
  /// What the judge was laid out for (fits()).
  std::vector<std::vector<std::size_t>> picked_, stage_rows_, stage_candidates_;
  std::vector<DenseStage> dense_;
  std::vector<LargeStage> large_;
  /// B's LU factors (column-major) and a column of A, kept between judgements: a stage of a
  /// few rows costs less than the set-up of a general factorisation (small_lu.hpp).
  mutable std::vector<double> lu_, column_;
  mutable std::vector<std::size_t> pivots_;
};

}  // namespace hdae::reduction
