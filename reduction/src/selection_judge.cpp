#include "selection_judge.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "small_lu.hpp"

namespace hdae::reduction {

SelectionJudge::SelectionJudge(const SlotLayout& layout, const StateSelection& selection,
                               bool exact)
    : layout_(&layout),
      exact_(exact),
      picked_(selection.picked),
      stage_rows_(layout.stage_rows),
      stage_candidates_(layout.stage_candidates) {
  for (int kappa = 1; kappa <= layout.max_c; ++kappa) {
    const auto k = static_cast<std::size_t>(kappa);
    const std::vector<std::size_t>& rows = layout.stage_rows[k];
    if (layout.stage_candidates[k].size() == rows.size()) continue;  // no choice
    const std::vector<std::size_t> none;
    const auto& forced = kappa < layout.max_c ? selection.picked[k + 1] : none;
    if (judged_by_blocks(layout, kappa)) {
      large_.push_back({kappa, selection.picked[k], forced});
      continue;
    }
    DenseStage s;
    s.place.assign(layout.n, -1);
    for (std::size_t r = 0; r < rows.size(); ++r) s.place[rows[r]] = static_cast<Eigen::Index>(r);
    s.picked = selection.picked[k];
    std::vector<char> mark(layout.n, 0);  // 1: picked, 2: forced
    for (const std::size_t c : s.picked) mark[c] = 1;
    for (const std::size_t c : forced) mark[c] = 2;
    for (const std::size_t c : layout.stage_candidates[k]) {
      if (mark[c] == 0) s.other.push_back(c);
    }
    for (const std::size_t c : s.picked) s.free.push_back(mark[c] == 1);
    if (!s.other.empty()) dense_.push_back(std::move(s));
  }
}

bool SelectionJudge::fits(const SlotLayout& layout, const StateSelection& selection,
                          bool exact) const {
  return layout_ == &layout && exact_ == exact && picked_ == selection.picked &&
         stage_rows_ == layout.stage_rows && stage_candidates_ == layout.stage_candidates;
}

SelectionJudge::Judgement SelectionJudge::judge(const SystemJacobian& jacobian,
                                                const std::vector<double>& scale) const {
  Judgement j;
  for (const DenseStage& s : dense_)
    j.growth = std::max(j.growth, dense_growth(s, jacobian, scale));
  j.quality = j.growth > 1.0 ? 1.0 / j.growth : 1.0;
  for (const LargeStage& s : large_) {
    j.quality = std::min(j.quality, large_stage_quality(jacobian, scale, *layout_, s.kappa,
                                                        s.picked, s.forced, exact_));
    j.growth = std::numeric_limits<double>::quiet_NaN();
  }
  return j;
}

void SelectionJudge::gather(const DenseStage& s, const SystemJacobian& jacobian,
                            const std::vector<double>& scale, std::size_t column, double* v) {
  std::fill(v, v + s.picked.size(), 0.0);
  for (SystemJacobian::InnerIterator it(jacobian, static_cast<Eigen::Index>(column)); it; ++it) {
    const Eigen::Index r = s.place[static_cast<std::size_t>(it.row())];
    if (r >= 0) v[r] = it.value() * scale[column];
  }
}

double SelectionJudge::dense_growth(const DenseStage& s, const SystemJacobian& jacobian,
                                    const std::vector<double>& scale) const {
  // By Cramer's rule, exchanging pick p for candidate c scales |det B| by |(B^-1 A)_pc|.
  const std::size_t n = s.picked.size();
  lu_.resize(n * n), column_.resize(n), pivots_.resize(n);
  for (std::size_t c = 0; c < n; ++c) gather(s, jacobian, scale, s.picked[c], &lu_[c * n]);
  if (!small_lu(lu_, n, pivots_)) return std::numeric_limits<double>::infinity();
  double growth = 0.0;
  for (const std::size_t c : s.other) {
    gather(s, jacobian, scale, c, column_.data());
    small_lu_solve(lu_, n, pivots_, column_);
    for (std::size_t p = 0; p < n; ++p) {
      if (s.free[p]) growth = std::max(growth, std::abs(column_[p]));
    }
  }
  return growth;
}

}  // namespace hdae::reduction
