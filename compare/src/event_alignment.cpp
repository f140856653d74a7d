// Event instants, segments, pairing and the time map (event_alignment.hpp).
#include "event_alignment.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace hdae::compare {

std::vector<EventInstant> find_events(std::span<const double> time) {
  std::vector<EventInstant> events;
  std::size_t i = 0;
  while (i + 1 < time.size()) {
    if (time[i + 1] != time[i]) {
      ++i;
      continue;
    }
    std::size_t last = i + 1;
    while (last + 1 < time.size() && time[last + 1] == time[i]) ++last;
    events.push_back(EventInstant{time[i], i, last});
    i = last;
  }
  return events;
}

std::vector<Segment> segments_between(const std::vector<EventInstant>& events,
                                      std::size_t num_rows) {
  std::vector<Segment> segments;
  segments.reserve(events.size() + 1);
  std::size_t first = 0;
  for (const EventInstant& e : events) {
    segments.push_back(Segment{first, e.first_row});
    first = e.last_row;
  }
  segments.push_back(Segment{first, num_rows == 0 ? 0 : num_rows - 1});
  return segments;
}

TimeMap::TimeMap(const std::vector<EventInstant>& reference_events,
                 const std::vector<EventInstant>& result_events, double reference_start_s,
                 double reference_stop_s) {
  const std::size_t n = std::min(reference_events.size(), result_events.size());
  // The anchors keep the start and the stop where they are; an event sitting on (or within
  // its shift of) the start or stop takes the anchor's place.
  if (n == 0 || (reference_start_s < reference_events.front().t &&
                 reference_start_s < result_events.front().t)) {
    from_.push_back(reference_start_s);
    to_.push_back(reference_start_s);
  }
  for (std::size_t k = 0; k < n; ++k) {
    from_.push_back(result_events[k].t);
    to_.push_back(reference_events[k].t);
  }
  if (reference_stop_s > to_.back() && reference_stop_s > from_.back()) {
    from_.push_back(reference_stop_s);
    to_.push_back(reference_stop_s);
  }
}

double TimeMap::operator()(double t) const {
  if (from_.empty()) return t;
  if (t <= from_.front())
    return t == from_.front() ? to_.front() : t + (to_.front() - from_.front());
  if (t >= from_.back()) return t == from_.back() ? to_.back() : t + (to_.back() - from_.back());
  const auto upper = std::upper_bound(from_.begin(), from_.end(), t);
  const auto k = static_cast<std::size_t>(upper - from_.begin());
  if (from_[k - 1] == t) return to_[k - 1];
  // Between two unshifted nodes the map is the identity; keep it exact.
  if (from_[k - 1] == to_[k - 1] && from_[k] == to_[k]) return t;
  const double span = from_[k] - from_[k - 1];
  // Halves where a span near the ends of the double range overflows.
  const double w = std::isfinite(span)
                       ? (t - from_[k - 1]) / span
                       : (t / 2 - from_[k - 1] / 2) / (from_[k] / 2 - from_[k - 1] / 2);
  // Stay inside the node interval whatever the rounding, so a mapped row never leaves its
  // segment.
  return std::clamp(std::lerp(to_[k - 1], to_[k], w), to_[k - 1], to_[k]);
}

EventPairing pair_events(const std::vector<EventInstant>& reference_events,
                         const std::vector<EventInstant>& result_events, double event_time_tol_s) {
  EventPairing pairing;
  if (reference_events.size() != result_events.size()) {
    std::string problem =
        fmt::format("the reference has {} event{}, the result {}", reference_events.size(),
                    reference_events.size() == 1 ? "" : "s", result_events.size());
    // Point at the first event that does not pair up, which is where to look.
    const std::size_t n = std::min(reference_events.size(), result_events.size());
    std::size_t k = 0;
    while (k < n && std::abs(result_events[k].t - reference_events[k].t) <= event_time_tol_s) ++k;
    if (k < n) {
      problem += fmt::format("; event {} is at t = {} in the reference, t = {} in the result",
                             k + 1, reference_events[k].t, result_events[k].t);
    } else if (k < reference_events.size()) {
      problem += fmt::format("; the result has no event near t = {}", reference_events[k].t);
    } else {
      problem += fmt::format("; the reference has no event near t = {}", result_events[k].t);
    }
    pairing.problems.push_back(std::move(problem));
    return pairing;
  }
  pairing.aligned = true;
  for (std::size_t k = 0; k < reference_events.size(); ++k) {
    EventShift s;
    s.index = k;
    s.reference_t = reference_events[k].t;
    s.result_t = result_events[k].t;
    s.shift_s = s.result_t - s.reference_t;
    s.within_tolerance = std::abs(s.shift_s) <= event_time_tol_s;
    if (!s.within_tolerance) {
      pairing.aligned = false;
      pairing.problems.push_back(fmt::format(
          "event {} is at t = {} in the reference, t = {} in the result: shift {:.3g} s "
          "exceeds event_time_tol_s = {:g} s",
          k + 1, s.reference_t, s.result_t, s.shift_s, event_time_tol_s));
    }
    pairing.shifts.push_back(s);
  }
  return pairing;
}

}  // namespace hdae::compare
