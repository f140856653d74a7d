// What a change of unknowns at an event (EventContext::unknowns_changed) must leave as the run
// started: the crossings and time events, which the crossing table, the schedule and the
// chattering watch keep for the whole run, and a carry list that fits the new unknowns. And
// what a new sparsity pattern (EventContext::sparsity_changed) must keep: the unknowns, and
// whether there is a pattern at all.
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

/// ModelError unless the sparsity pattern `now` declares after EventContext::sparsity_changed
/// at t can replace the run's: n unknowns as before, every entry inside the residual, and a
/// pattern exactly when the model declared one before (had_pattern). A model without one runs
/// dense, and one with one may run sparse: neither can change its path in a run.
void check_pattern_change(const ModelStructure& now, std::size_t n, bool had_pattern, double t);

}  // namespace hdae::detail
