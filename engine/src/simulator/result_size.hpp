// The size of a run's result in memory (SimulationOptions::max_result_bytes): judged before
// the run for the output grid, so that a grid of 10^8 rows is refused with a message, and
// counted as the run goes for what events add (their rows and the event log), so that a time
// event rescheduled without end stops the run instead of growing until memory runs out.
#pragma once

#include <cstddef>
#include <optional>

#include "hdae/options.hpp"
#include "hdae/result.hpp"
#include "hdae/status.hpp"

namespace hdae::detail {

/// OptionError when the grid rows of a run recording `columns` columns (time not counted),
/// held in memory, would take more than options.max_result_bytes; nothing for streamed rows.
void check_result_size(const SimulationOptions& options, std::size_t columns);

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
