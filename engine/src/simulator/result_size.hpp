// The size of a run's result in memory (SimulationOptions::max_result_bytes) as the run goes:
// what events add (their rows and the event log) is counted, so that a time event rescheduled
// without end stops the run instead of growing until memory runs out. The output grid's rows
// are judged before the run (SimulationOptions::check_result_size).
#pragma once

#include <cstddef>
#include <optional>

#include "hdae/options.hpp"
#include "hdae/result.hpp"
#include "hdae/status.hpp"

namespace hdae::detail {

/// The bytes the result holds in memory as events add to it: the table's rows (when the run
/// keeps them) and the event log's records, against options.max_result_bytes.
class ResultBudget {
 public:
  ResultBudget(const SimulationOptions& options, std::size_t columns);

  /// Counts an event's record; with the table at table_rows rows, Outcome::kResultLimit at t
  /// once the two together take more than the limit.
  [[nodiscard]] std::optional<SimulationStatus> after_event(double t, const EventRecord& record,
                                                            std::size_t table_rows,
                                                            std::size_t events);

 private:
  double limit_;
  double row_bytes_;  ///< 0 when the rows are streamed, not held
  double event_bytes_ = 0.0;
};

/// The heap and object bytes of one event record.
[[nodiscard]] double held_bytes(const EventRecord& record);

}  // namespace hdae::detail
