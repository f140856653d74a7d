// What the model asks for in SimulationModel::on_event (through hdae::EventContext): row kinds,
// another sparsity pattern, time events, termination and another pass. The event iteration
// (event_iteration.hpp) hands one EventRequests per pass to the context and applies it after
// the call.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hdae/model.hpp"
#include "hdae/result.hpp"

namespace hdae::detail {

struct EventRequests {
  std::vector<RowKind>* row_kinds = nullptr;
  std::vector<double>* time_event_times = nullptr;  ///< NaN = not scheduled
  const ModelStructure* structure = nullptr;
  bool row_kinds_changed = false;
  bool reformulated = false;      ///< EventContext::reformulated
  bool sparsity_changed = false;  ///< EventContext::sparsity_changed
  bool terminate = false;
  std::string terminate_reason;
  bool another_pass = false;
  std::vector<std::size_t> impulse_sources;  ///< variables marked by EventContext::impulse
  /// EventContext::impulses_integrated: the model made the jump itself (variable, integral).
  bool impulses_integrated = false;
  std::vector<std::pair<std::size_t, double>> integrated_impulses;
  /// A run with sensitivities: d(t_event)/d(p) per sensitivity, for the event's record.
  std::vector<TimeSensitivity> time_sensitivities;
  /// EventContext::unknowns_changed: per new unknown, its index before (or kNewUnknown).
  std::optional<std::vector<std::size_t>> previous_unknowns;
};

}  // namespace hdae::detail
