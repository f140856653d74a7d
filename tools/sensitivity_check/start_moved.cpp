#include "sensitivity_check/start_moved.hpp"

#include <cmath>
#include <stdexcept>

namespace hdae::sensitivity_check {
namespace {

/// A moved start value that the consistent start brings back to within this share of the move
/// was set back: the rest is the projection's rounding and its terms of second order.
constexpr double kSetBack = 1e-6;

}  // namespace

StartMoved::StartMoved(SimulationModel& model, std::size_t j, double delta)
    : model_(model), j_(j), delta_(delta) {
  if (j_ >= model_.structure().num_unknowns()) {
    throw std::out_of_range("StartMoved: no such unknown");
  }
  // A model that makes its start consistent itself (an index-reduced model) moves the start
  // values derived from this one too, as the sensitivity run's start does; its states' rows
  // could not jump at t0 to follow a lone moved value.
  model_.reset();
  const double start = model_.structure().variables.start(j_);
  if (model_.vary_start(j_, start + delta_)) {
    const std::span<const double> moved = model_.structure().variables.starts();
    starts_.assign(moved.begin(), moved.end());
    model_.vary_start(j_, start);
    // A start value that the consistent start sets back (a guess, or one the rows fix) moves
    // nothing to first order: both perturbed runs start as the model does, rather than from
    // points that differ by the projection's rounding, which the runs' step control would
    // amplify to their error over the step.
    if (std::abs(starts_[j_] - start) <= kSetBack * std::abs(delta_)) {
      const std::span<const double> base = model_.structure().variables.starts();
      starts_.assign(base.begin(), base.end());
    }
  }
  copy_structure();
}

void StartMoved::on_event(EventContext& event) {
  model_.on_event(event);
  copy_structure();
}

void StartMoved::reset() {
  model_.reset();
  copy_structure();
}

void StartMoved::copy_structure() {
  const ModelStructure& s = model_.structure();
  structure_ = s;
  if (starts_.size() == s.num_unknowns()) {
    for (std::size_t k = 0; k < starts_.size(); ++k) structure_.variables.set_start(k, starts_[k]);
  } else if (j_ < s.num_unknowns()) {
    structure_.variables.set_start(j_, s.variables.start(j_) + delta_);
  }
}

}  // namespace hdae::sensitivity_check
