// The crossing helpers of hdae::Evaluation (positive / negative / change / edge): each call
// records the crossing's value in the run's CrossingTable (crossing_table.hpp), which keeps
// the Boolean frozen between events and hands IDA the value itself (plus a round-off offset
// after a restart, crossing_table.hpp).
#include "events/crossing_table.hpp"
#include "hdae/model.hpp"

namespace hdae {

bool Evaluation::update(Crossing c, double value) {
  if (crossings_ == nullptr) return value > 0.0;
  if (crossing_values_ == CrossingValues::kFrozen) {
    return crossings_->value(index("crossing", c.index, crossings_->size()));
  }
  return crossings_->update(index("crossing", c.index, crossings_->size()), value, phase_);
}

bool Evaluation::positive(Crossing c, double value) { return update(c, value); }

bool Evaluation::negative(Crossing c, double value) { return update(c, -value); }

bool Evaluation::change(Crossing c, double value) {
  update(c, value);
  return is_event() && crossings_ != nullptr && crossings_->flipped(c.index);
}

bool Evaluation::edge(Crossing c, double value) {
  const bool now = update(c, value);
  return is_event() && crossings_ != nullptr && now && !crossings_->previous(c.index);
}

}  // namespace hdae
