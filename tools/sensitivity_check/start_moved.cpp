#include "sensitivity_check/start_moved.hpp"

#include <stdexcept>

namespace hdae::sensitivity_check {

StartMoved::StartMoved(SimulationModel& model, std::size_t j, double delta)
    : model_(model), j_(j), delta_(delta) {
  copy_structure();
  if (j_ >= structure_.num_unknowns()) throw std::out_of_range("StartMoved: no such unknown");
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
  if (j_ < s.num_unknowns()) structure_.variables.set_start(j_, s.variables.start(j_) + delta_);
}

}  // namespace hdae::sensitivity_check
