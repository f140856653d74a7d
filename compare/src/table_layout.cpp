// The layout of both tables' rows (table_layout.hpp).
#include "table_layout.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "tube.hpp"

namespace hdae::compare {

Layout make_layout(const ResultTable& reference, const ResultTable& result,
                   const CompareOptions& options, CompareReport& report) {
  Layout layout;
  report.reference_rows = reference.num_rows();
  report.result_rows = result.num_rows();
  if (reference.num_rows() == 0) report.problems.emplace_back("the reference has no rows");
  if (result.num_rows() == 0) report.problems.emplace_back("the result has no rows");
  if (reference.num_rows() == 0 || result.num_rows() == 0) return layout;

  const double t_start = reference.time().front();
  const double t_stop = reference.time().back();
  report.reference_start_s = t_start;
  report.reference_stop_s = t_stop;
  layout.delta_t = scaled_span(options.rel_time, t_start, t_stop);
  report.delta_t = layout.delta_t;

  const std::vector<EventInstant> reference_events = find_events(reference.time());
  const std::vector<EventInstant> result_events = find_events(result.time());
  report.reference_events = reference_events.size();
  report.result_events = result_events.size();

  TimeMap map;
  if (options.events == EventMatching::kAlign) {
    EventPairing pairing = pair_events(reference_events, result_events, options.event_time_tol_s);
    report.event_shifts = std::move(pairing.shifts);
    for (std::string& p : pairing.problems) report.problems.push_back(std::move(p));
    report.events_aligned = pairing.aligned;
  }
  if (report.events_aligned) {
    layout.reference_segments = segments_between(reference_events, reference.num_rows());
    layout.result_segments = segments_between(result_events, result.num_rows());
    map = TimeMap(reference_events, result_events, t_start, t_stop);
  } else {
    // One tube over the whole range, reaching across events (csv-compare's behaviour).
    layout.reference_segments = {Segment{0, reference.num_rows() - 1}};
    layout.result_segments = {Segment{0, result.num_rows() - 1}};
  }
  layout.result_time.reserve(result.num_rows());
  for (const double t : result.time()) layout.result_time.push_back(map(t));

  // The result must cover the reference's range up to the tube's width (plus round-off of
  // the times as another tool may have printed them).
  const double slack =
      layout.delta_t + std::max({1e-12 * std::abs(t_start), 1e-12 * std::abs(t_stop),
                                 scaled_span(1e-12, t_start, t_stop)});
  if (layout.result_time.front() > t_start + slack) {
    report.problems.push_back(
        fmt::format("the result starts at t = {}, after the reference's "
                    "start t = {}",
                    result.time().front(), t_start));
  }
  if (layout.result_time.back() < t_stop - slack) {
    report.problems.push_back(
        fmt::format("the result ends at t = {}, before the reference's "
                    "end t = {}",
                    result.time().back(), t_stop));
  }
  return layout;
}

}  // namespace hdae::compare
