// The tube of one signal (compare.hpp): its half-height from the reference's range, and where a
// result value lies relative to it at one time. compare_results checks every point this way and
// trace_signal samples the same tube for a plot, so both see one definition.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <string_view>

#include "event_alignment.hpp"
#include "hdae/compare.hpp"
#include "polyline.hpp"

namespace hdae::compare {

/// factor * (hi - lo) for lo <= hi without overflow: the span of values near the ends of
/// the double range overflows to inf, which would make every tube (or time window) infinite
/// however small the factor; halves do not overflow. Inf only when the product itself does.
[[nodiscard]] double scaled_span(double factor, double lo, double hi);

/// Tube half-height of one signal: max(rel * range over the reference, abs), with the
/// signal's own tolerances where given. Non-finite reference values do not count.
[[nodiscard]] double tube_height(std::string_view name, std::span<const double> reference,
                                 const CompareOptions& options);

/// The rows of one segment.
[[nodiscard]] inline std::span<const double> rows_of(std::span<const double> values,
                                                     const Segment& s) {
  return values.subspan(s.first_row, s.last_row - s.first_row + 1);
}

[[nodiscard]] inline Polyline segment_polyline(std::span<const double> time,
                                               std::span<const double> values, const Segment& s) {
  return Polyline(rows_of(time, s), rows_of(values, s));
}

/// The tube at tau and where a result value (an interval at a jump) lies relative to it.
struct PointCheck {
  double lower = 0.0;
  double upper = 0.0;
  double outside = 0.0;    ///< distance beyond the tube; 0 inside; infinite for NaN
  double deviation = 0.0;  ///< distance to the reference's value(s) at tau
};

/// The tube over `window` (the window [tau - delta_t, tau + delta_t] on the reference's time
/// axis) and a result value at tau, where the reference is at `at`. Inline: it runs once per
/// point checked of every signal.
[[nodiscard]] inline PointCheck check_point(const Polyline& reference, const WindowProbe& window,
                                            const TimeProbe& at, Interval result, double delta_y) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  PointCheck c;
  const Interval extrema = reference.extrema(window);
  c.lower = extrema.lo - delta_y;
  c.upper = extrema.hi + delta_y;
  if (std::isnan(result.lo) || std::isnan(result.hi)) {
    c.outside = kInf;
    c.deviation = kInf;
    return c;
  }
  c.outside = std::max({0.0, result.lo - c.upper, c.lower - result.hi});
  const Interval v = reference.value_at(at);
  c.deviation = std::max({0.0, result.lo - v.hi, v.lo - result.hi});
  return c;
}

/// The same at a time not located beforehand.
[[nodiscard]] inline PointCheck check_point(const Polyline& reference, double tau, Interval result,
                                            double delta_t, double delta_y) {
  return check_point(reference, locate_window(reference.time(), tau - delta_t, tau + delta_t),
                     locate(reference.time(), tau), result, delta_y);
}

}  // namespace hdae::compare
