// The time events of a run: when each declared time event is scheduled (the model schedules,
// moves and cancels them in on_event through hdae::EventContext) and which ones fired at the
// current instant.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "hdae/model.hpp"

namespace hdae::detail {

class TimeEventSchedule {
 public:
  explicit TimeEventSchedule(const ModelStructure& structure);

  /// The earliest scheduled time, +infinity when none is.
  [[nodiscard]] double next() const;
  /// Marks the events due at t (scheduled at or before t, within round-off) as fired and
  /// unschedules them; true if any.
  bool collect_due(double t);
  /// Forgets which events fired (after the model has seen them).
  void clear_fired();
  /// Names of the events marked fired.
  void append_fired_names(std::vector<std::string>& names) const;

  /// Scheduled times, NaN for "not scheduled"; written through EventRequests.
  [[nodiscard]] std::vector<double>& times() { return times_; }
  [[nodiscard]] std::span<const bool> fired() const { return {fired_.get(), times_.size()}; }

 private:
  const ModelStructure& structure_;
  std::vector<double> times_;
  std::unique_ptr<bool[]> fired_;
};

}  // namespace hdae::detail
