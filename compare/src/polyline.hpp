// A piecewise-linear curve through the rows of one signal, the building block of the tube
// (compare.hpp): values at a time (an interval at a jump, where several rows share a time)
// and the least and greatest value over a time window. Window extrema use a segment tree
// over the vertices, so a tube of any width costs O(log n) per query instead of a scan of
// every row in the window.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace hdae::compare {

/// A closed interval [lo, hi]; a single value has lo == hi. NaN in either marks "unknown".
struct Interval {
  double lo = 0.0;
  double hi = 0.0;
};

/// The curve through (t[i], y[i]); t is non-decreasing, and rows with equal t form a
/// vertical piece (the left and right limits at an event). Holds views: t and y must outlive
/// the polyline.
class Polyline {
 public:
  Polyline(std::span<const double> t, std::span<const double> y);

  [[nodiscard]] bool empty() const { return t_.empty(); }
  [[nodiscard]] double front_t() const { return t_.front(); }
  [[nodiscard]] double back_t() const { return t_.back(); }

  /// Every value the curve takes at time t (clamped to [front_t, back_t]): the linear
  /// interpolation between the neighbouring rows, or [min, max] of the rows at exactly t.
  [[nodiscard]] Interval value_at(double t) const;
  /// The value approached from the left / right of t (first / last row at exactly t).
  [[nodiscard]] double left_value(double t) const;
  [[nodiscard]] double right_value(double t) const;

  /// Least and greatest value of the curve over [a, b] intersected with [front_t, back_t];
  /// {NaN, NaN} when the intersection is empty. Requires finite values.
  [[nodiscard]] Interval extrema(double a, double b) const;

 private:
  /// [min, max] of y over rows [first, last).
  [[nodiscard]] Interval vertex_extrema(std::size_t first, std::size_t last) const;
  [[nodiscard]] double interpolate(std::size_t upper, double t) const;

  std::span<const double> t_;
  std::span<const double> y_;
  // Segment tree, leaves at [n, 2n): node i covers its children 2i and 2i + 1.
  std::vector<double> min_tree_;
  std::vector<double> max_tree_;
};

}  // namespace hdae::compare
