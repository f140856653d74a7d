// What a change of unknowns at an event (EventContext::unknowns_changed) must leave as the run
// started: the crossings and time events, which the crossing table, the schedule and the
// chattering watch keep for the whole run, and a carry list that fits the new unknowns.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "hdae/model.hpp"
#include "hdae/options.hpp"

namespace hdae::detail {

class StructureChange {
 public:
  explicit StructureChange(const ModelStructure& start)
      : crossings_(start.crossings), time_events_(start.time_events) {}

  /// ModelError unless `now`, the model's structure after the change at t, can take over from
  /// the run's: valid, with the run's crossings and time events and a linear solver the options
  /// allow, and previous (one entry per new unknown) naming unknowns among the `before` ones.
  void check(const ModelStructure& now, const SimulationOptions& options, double t,
             std::span<const std::size_t> previous, std::size_t before) const;

 private:
  std::vector<CrossingInfo> crossings_;
  std::vector<TimeEventInfo> time_events_;
};

}  // namespace hdae::detail
