// Events of a result table and their alignment (compare.hpp): which rows are the limits at
// an event, how the rows split into continuous segments, how result events pair with
// reference events, and the piecewise-linear map from result time to reference time that
// makes paired events coincide.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "hdae/compare.hpp"

namespace hdae::compare {

/// One event instant: rows [first_row, last_row] share time t (first: left limit x^-,
/// last: right limit x^+; rows in between, which other tools may write, are not used).
struct EventInstant {
  double t = 0.0;
  std::size_t first_row = 0;
  std::size_t last_row = 0;
};

/// Runs of two or more consecutive rows with equal time.
[[nodiscard]] std::vector<EventInstant> find_events(std::span<const double> time);

/// Rows [first_row, last_row] (inclusive) of one continuous piece; times strictly increase
/// inside it except when it is a single row.
struct Segment {
  std::size_t first_row = 0;
  std::size_t last_row = 0;
};

/// The continuous segments between events: events.size() + 1 of them, the first from row 0
/// to the first event's left limit, the last from the last event's right limit to the end.
[[nodiscard]] std::vector<Segment> segments_between(const std::vector<EventInstant>& events,
                                                    std::size_t num_rows);

/// Piecewise-linear, increasing map from result time to reference time through nodes
/// (result t, reference t); outside the nodes it shifts by the nearest node's offset.
class TimeMap {
 public:
  TimeMap() = default;  ///< identity
  /// Nodes at the paired events plus identity anchors at the reference's start and stop,
  /// where they lie strictly outside every event.
  TimeMap(const std::vector<EventInstant>& reference_events,
          const std::vector<EventInstant>& result_events, double reference_start_s,
          double reference_stop_s);

  /// Reference time of result time t; exactly the reference event time at a result event.
  [[nodiscard]] double operator()(double t) const;

 private:
  std::vector<double> from_;  // result times, strictly increasing
  std::vector<double> to_;    // reference times, strictly increasing
};

/// Pairs events by order when both tables have the same number, with each pair's shift.
struct EventPairing {
  std::vector<EventShift> shifts;  ///< empty when the counts differ
  bool aligned = false;            ///< same count, every shift within the tolerance
  std::vector<std::string> problems;
};

[[nodiscard]] EventPairing pair_events(const std::vector<EventInstant>& reference_events,
                                       const std::vector<EventInstant>& result_events,
                                       double event_time_tol_s);

}  // namespace hdae::compare
