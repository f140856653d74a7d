// Polyline (polyline.hpp): interpolation and window extrema of one signal.
#include "polyline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hdae::compare {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Fraction of the way from t0 to t1 at which t lies (t0 < t < t1).
double weight(double t0, double t1, double t) {
  // Differences of values near the ends of the double range overflow; halves do not.
  const double span = t1 - t0;
  return std::isfinite(span) ? (t - t0) / span : (t / 2 - t0 / 2) / (t1 / 2 - t0 / 2);
}

}  // namespace

TimeProbe locate(std::span<const double> t, double time) {
  time = std::clamp(time, t.front(), t.back());
  const auto first = std::lower_bound(t.begin(), t.end(), time);
  const auto last = std::upper_bound(first, t.end(), time);
  TimeProbe p;
  p.first = static_cast<std::size_t>(first - t.begin());
  p.last = static_cast<std::size_t>(last - t.begin());
  if (p.first == p.last) p.weight = weight(t[p.last - 1], t[p.last], time);
  return p;
}

WindowProbe locate_window(std::span<const double> t, double a, double b) {
  a = std::max(a, t.front());
  b = std::min(b, t.back());
  WindowProbe w;
  w.empty = !(a <= b);
  if (w.empty) return w;
  w.first = static_cast<std::size_t>(std::lower_bound(t.begin(), t.end(), a) - t.begin());
  w.last = static_cast<std::size_t>(
      std::upper_bound(t.begin() + static_cast<std::ptrdiff_t>(w.first), t.end(), b) - t.begin());
  w.a = locate(t, a);
  w.b = locate(t, b);
  return w;
}

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

Interval Polyline::tree_extrema(std::size_t first, std::size_t last) const {
  Interval r{kInf, -kInf};
  const std::size_t n = t_.size();
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

Interval Polyline::value_at(double t) const { return value_at(locate(t_, t)); }

double Polyline::left_value(double t) const {
  const TimeProbe at = locate(t_, t);
  return at.first != at.last ? y_[at.first] : value_at(at).lo;
}

double Polyline::right_value(double t) const {
  const TimeProbe at = locate(t_, t);
  return at.first != at.last ? y_[at.last - 1] : value_at(at).lo;
}

Interval Polyline::extrema(double a, double b) const { return extrema(locate_window(t_, a, b)); }

}  // namespace hdae::compare
