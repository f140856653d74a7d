// Polyline (polyline.hpp): interpolation and window extrema of one signal.
#include "polyline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hdae::compare {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

Polyline::Polyline(std::span<const double> t, std::span<const double> y)
    : t_(t), y_(y.first(t.size())) {
  const std::size_t n = t_.size();
  min_tree_.assign(2 * n, 0.0);
  max_tree_.assign(2 * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    min_tree_[n + i] = y_[i];
    max_tree_[n + i] = y_[i];
  }
  for (std::size_t i = n; i-- > 1;) {
    min_tree_[i] = std::min(min_tree_[2 * i], min_tree_[2 * i + 1]);
    max_tree_[i] = std::max(max_tree_[2 * i], max_tree_[2 * i + 1]);
  }
}

Interval Polyline::vertex_extrema(std::size_t first, std::size_t last) const {
  const std::size_t n = t_.size();
  Interval r{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (std::size_t lo = first + n, hi = last + n; lo < hi; lo /= 2, hi /= 2) {
    if (lo % 2 == 1) {
      r.lo = std::min(r.lo, min_tree_[lo]);
      r.hi = std::max(r.hi, max_tree_[lo]);
      ++lo;
    }
    if (hi % 2 == 1) {
      --hi;
      r.lo = std::min(r.lo, min_tree_[hi]);
      r.hi = std::max(r.hi, max_tree_[hi]);
    }
  }
  return r;
}

double Polyline::interpolate(std::size_t upper, double t) const {
  // t lies strictly between t_[upper - 1] and t_[upper].
  const double t0 = t_[upper - 1];
  const double t1 = t_[upper];
  // Differences of values near the ends of the double range overflow; halves do not.
  const double span = t1 - t0;
  const double w = std::isfinite(span) ? (t - t0) / span : (t / 2 - t0 / 2) / (t1 / 2 - t0 / 2);
  // std::lerp: exact at w = 0 and 1, no overflow between values of opposite sign.
  return std::lerp(y_[upper - 1], y_[upper], w);
}

Interval Polyline::value_at(double t) const {
  t = std::clamp(t, t_.front(), t_.back());
  const auto first = std::lower_bound(t_.begin(), t_.end(), t);
  const auto last = std::upper_bound(first, t_.end(), t);
  const auto i0 = static_cast<std::size_t>(first - t_.begin());
  const auto i1 = static_cast<std::size_t>(last - t_.begin());
  if (i0 != i1) {
    Interval r{y_[i0], y_[i0]};
    for (std::size_t i = i0; i < i1; ++i) {
      const double v = y_[i];
      if (std::isnan(v)) return {kNaN, kNaN};
      r.lo = std::min(r.lo, v);
      r.hi = std::max(r.hi, v);
    }
    return r;
  }
  const double v = interpolate(i0, t);
  return {v, v};
}

double Polyline::left_value(double t) const {
  t = std::clamp(t, t_.front(), t_.back());
  const auto first = std::lower_bound(t_.begin(), t_.end(), t);
  const auto i = static_cast<std::size_t>(first - t_.begin());
  return *first == t ? y_[i] : interpolate(i, t);
}

double Polyline::right_value(double t) const {
  t = std::clamp(t, t_.front(), t_.back());
  const auto last = std::upper_bound(t_.begin(), t_.end(), t);
  const auto i = static_cast<std::size_t>(last - t_.begin());
  return t_[i - 1] == t ? y_[i - 1] : interpolate(i, t);
}

Interval Polyline::extrema(double a, double b) const {
  a = std::max(a, t_.front());
  b = std::min(b, t_.back());
  if (!(a <= b)) return {kNaN, kNaN};
  // The rows inside the window, plus the curve's values where the window cuts it: the
  // maximum of a piecewise-linear function over an interval is at a vertex or an end.
  const auto first = std::lower_bound(t_.begin(), t_.end(), a);
  const auto last = std::upper_bound(first, t_.end(), b);
  Interval r = vertex_extrema(static_cast<std::size_t>(first - t_.begin()),
                              static_cast<std::size_t>(last - t_.begin()));
  for (const double end : {a, b}) {
    const Interval v = value_at(end);
    r.lo = std::min(r.lo, v.lo);
    r.hi = std::max(r.hi, v.hi);
  }
  return r;
}

}  // namespace hdae::compare
