// Helpers for the model tests (tests/models/): find the two result rows an event leaves in
// the table (left limit x^-(t_e), then right limit x^+(t_e), same time) and the event records
// of one kind.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "hdae/result.hpp"

namespace hdae::models::testing {

/// Row indices (left, right) of the event at time t: the first pair of consecutive rows that
/// both have exactly this time. Empty when there is none.
inline std::optional<std::pair<std::size_t, std::size_t>> event_rows(const ResultTable& table,
                                                                     double t) {
  for (std::size_t i = 0; i + 1 < table.num_rows(); ++i) {
    if (table.time(i) == t && table.time(i + 1) == t) return std::pair{i, i + 1};
  }
  return std::nullopt;
}

/// The row of the right limit x^+(t0): the last of the rows at the start time, which are two
/// (x^-(t0) with the start values, then x^+(t0)) when the initial jump changed the state.
inline std::size_t initial_row(const ResultTable& table) {
  std::size_t i = 0;
  while (i + 1 < table.num_rows() && table.time(i + 1) == table.time(0)) ++i;
  return i;
}

/// Value of a named column in row i.
inline double value(const ResultTable& table, std::size_t row, std::string_view column) {
  return table.value(row, table.column_index(column));
}

/// The event records of one kind, in order.
inline std::vector<const EventRecord*> events_of_kind(const SimulationResult& result,
                                                      EventKind kind) {
  std::vector<const EventRecord*> events;
  for (const EventRecord& e : result.events) {
    if (e.kind == kind) events.push_back(&e);
  }
  return events;
}

/// The jump record of a variable in an event, or nullptr when it did not jump.
inline const JumpRecord* find_jump(const EventRecord& event, std::string_view variable) {
  for (const JumpRecord& j : event.jumps) {
    if (j.variable == variable) return &j;
  }
  return nullptr;
}

}  // namespace hdae::models::testing
