// The reduced model's state selection at run time (hdae/index_reduction.hpp, step 3): its
// system Jacobian, fresh selections, the judgement at step ends and the age of IDA's Newton
// matrix that the same Jacobian tells.
#include <utility>

#include "hdae/index_reduction.hpp"
#include "reduced_model_state.hpp"
#include "system_jacobian.hpp"

namespace hdae {

using reduction::StateSelection;

namespace {

/// A change of Pryce's system Jacobian, as a fraction of its largest entry, after which IDA's
/// Newton matrix counts as aged (IndexReducedModel::newton_matrix_aged).
constexpr double kAgedChange = 0.02;

/// Up to this many unknowns the fresh state selection is judged from difference quotients.
constexpr std::size_t kDifferenceSelection = 200;

}  // namespace

StateSelection IndexReducedModel::Impl::fresh_selection(double t, std::span<const double> slots,
                                                        const StateSelection* previous) const {
  // A small model is judged from difference quotients, as its runs always were: where two
  // choices tie exactly (the slider crank at theta = 0, theta against yA) round-off decides,
  // and the jets' round-off would pick the other one and add a change of states to its runs.
  // A large one from the jets (the quotients cost one residual per unknown), and from its
  // previous selection by exchanges (orthogonalising its blocks afresh costs with their cube).
  if (layout.n <= kDifferenceSelection) {
    return reduction::select_states(
        reduction::system_jacobian(*original, layout, mode.signature, t, slots), scale, layout,
        equation_names, false);
  }
  return reduction::select_states(system_at(t, slots), scale, layout, equation_names, exact,
                                  previous);
}

reduction::SystemJacobian IndexReducedModel::Impl::system_at(double t,
                                                             std::span<const double> slots) const {
  reduction::SystemJacobian j;
  system_at(t, slots, j);
  return j;
}

void IndexReducedModel::Impl::system_at(double t, std::span<const double> slots,
                                        reduction::SystemJacobian& j) const {
  if (!exact) {
    j = reduction::system_jacobian(*original, layout, mode.signature, t, slots);
  } else {
    exact_jacobian.system(*original, t, slots, j);
  }
}

double IndexReducedModel::Impl::quality_now(double t, std::span<const double> slots, bool fresh) {
  if (!judge.fits(layout, selection, exact)) {
    judge = reduction::SelectionJudge(layout, selection, exact);
    watch.forget();
  }
  if (!fresh && watch.can_wait(t, 1.0 / options.switch_ratio)) {
    if (watch.expected_change(t) > kAgedChange) aged = true;
    return quality;
  }
  reduction::SystemJacobian& j = at_step_end;
  system_at(t, slots, j);
  // Pryce's system Jacobian holds the rows' dependence on the highest derivatives, the part
  // of IDA's Newton matrix that turns with the motion (a rod's direction). Once an entry has
  // moved by kAgedChange of the largest, Newton with the old matrix gains fewer than about
  // two digits per iteration, and its iterates' error in the algebraic unknowns reaches the
  // error test.
  double change = 0.0;
  if (at_setup.nonZeros() == j.nonZeros() && j.nonZeros() > 0) {
    const double size = at_setup.coeffs().cwiseAbs().maxCoeff();
    const double moved = (j.coeffs() - at_setup.coeffs()).cwiseAbs().maxCoeff();
    if (moved > kAgedChange * size) aged = true;
    if (size > 0.0) change = moved / size;
  }
  const reduction::SelectionJudge::Judgement judgement = judge.judge(j, scale);
  watch.judged(t, judgement.growth, change);
  return judgement.quality;
}

bool IndexReducedModel::newton_matrix_aged() { return std::exchange(impl_->aged, false); }

}  // namespace hdae
