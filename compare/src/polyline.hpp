// A piecewise-linear curve through the rows of one signal, the building block of the tube
// (compare.hpp): values at a time (an interval at a jump, where several rows share a time)
// and the least and greatest value over a time window.
//
// Where a time falls among the rows depends on the time axis alone, which every signal of a
// table shares; locate() and locate_window() find it once (binary searches), and the values
// of each signal then cost a few operations per point. Window extrema scan the rows when a
// window holds few of them (the usual tube, a thousandth of the time range wide) and use a
// segment tree over the vertices otherwise, so a tube of any width costs O(log n) per query.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace hdae::compare {

/// A closed interval [lo, hi]; a single value has lo == hi. NaN in either marks "unknown".
struct Interval {
  double lo = 0.0;
  double hi = 0.0;
};

/// Where a time (clamped to the axis) falls on a non-decreasing time axis.
struct TimeProbe {
  std::size_t first = 0;  ///< rows [first, last) lie exactly at the time
  std::size_t last = 0;   ///< first == last: the time lies between rows last - 1 and last,
  double weight = 0.0;    ///< at this fraction of the way from the one to the other
};

/// The rows of a window [a, b] intersected with the axis, and where its ends fall.
struct WindowProbe {
  bool empty = true;      ///< the intersection is empty
  std::size_t first = 0;  ///< rows [first, last) lie in the window
  std::size_t last = 0;
  TimeProbe a;
  TimeProbe b;
};

/// Locates time on the axis t (non-decreasing, not empty).
[[nodiscard]] TimeProbe locate(std::span<const double> t, double time);
/// Locates the window [a, b] on the axis t (non-decreasing, not empty).
[[nodiscard]] WindowProbe locate_window(std::span<const double> t, double a, double b);
/// Every value the curve through the rows y takes at a located time: the linear
/// interpolation between the neighbouring rows, or [min, max] of the rows at exactly that
/// time ({NaN, NaN} when one of them is NaN). Inline: it runs a few times per point checked.
[[nodiscard]] inline Interval value_at(std::span<const double> y, const TimeProbe& at) {
  if (at.first == at.last) {
    // std::lerp: exact at weight 0 and 1, no overflow between values of opposite sign.
    const double v = std::lerp(y[at.last - 1], y[at.last], at.weight);
    return {v, v};
  }
  Interval r{y[at.first], y[at.first]};
  for (std::size_t i = at.first; i < at.last; ++i) {
    const double v = y[i];
    if (std::isnan(v)) return {v, v};
    r.lo = std::min(r.lo, v);
    r.hi = std::max(r.hi, v);
  }
  return r;
}

/// The curve through (t[i], y[i]); t is non-decreasing, and rows with equal t form a
/// vertical piece (the left and right limits at an event). Holds views: t and y must outlive
/// the polyline.
class Polyline {
 public:
  Polyline(std::span<const double> t, std::span<const double> y);

  [[nodiscard]] bool empty() const { return t_.empty(); }
  [[nodiscard]] double front_t() const { return t_.front(); }
  [[nodiscard]] double back_t() const { return t_.back(); }
  [[nodiscard]] std::span<const double> time() const { return t_; }

  /// Every value the curve takes at time t (clamped to [front_t, back_t]), see value_at above.
  [[nodiscard]] Interval value_at(double t) const;
  [[nodiscard]] Interval value_at(const TimeProbe& at) const { return compare::value_at(y_, at); }
  /// The value approached from the left / right of t (first / last row at exactly t).
  [[nodiscard]] double left_value(double t) const;
  [[nodiscard]] double right_value(double t) const;

  /// Least and greatest value of the curve over [a, b] intersected with [front_t, back_t];
  /// {NaN, NaN} when the intersection is empty. Requires finite values.
  [[nodiscard]] Interval extrema(double a, double b) const;
  /// The same for a window located on this polyline's time axis.
  [[nodiscard]] Interval extrema(const WindowProbe& window) const {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    if (window.empty) return {kNaN, kNaN};
    // The rows inside the window, plus the curve's values where the window cuts it: the
    // maximum of a piecewise-linear function over an interval is at a vertex or an end.
    const Interval a = value_at(window.a);
    const Interval b = value_at(window.b);
    Interval r{std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
    if (window.last - window.first > kScannedRows) {
      const Interval v = tree_extrema(window.first, window.last);
      return {std::min(r.lo, v.lo), std::max(r.hi, v.hi)};
    }
    for (std::size_t i = window.first; i < window.last; ++i) {
      r.lo = std::min(r.lo, y_[i]);
      r.hi = std::max(r.hi, y_[i]);
    }
    return r;
  }

 private:
  /// Windows holding at most this many rows are scanned: cheaper than the segment tree's
  /// two walks of log2(n) levels.
  static constexpr std::size_t kScannedRows = 16;

  /// [min, max] of y over rows [first, last), from the segment tree.
  [[nodiscard]] Interval tree_extrema(std::size_t first, std::size_t last) const;

  std::span<const double> t_;
  std::span<const double> y_;
  // Segment tree, leaves at [n, 2n): node i covers its children 2i and 2i + 1.
  std::vector<double> min_tree_;
  std::vector<double> max_tree_;
};

}  // namespace hdae::compare
