// Taylor jets: a quantity and its first Depth derivatives along one curve t -> (t, x(t)), for
// the exact time derivatives of equations that index reduction needs (docs/design.md, "Index
// reduction").
//
// The differentiation rules are Eigen's forward-mode AutoDiffScalar, nested Depth times: the
// derivative part of each level is a one-element vector holding the next level. This class
// only makes that nesting pleasant to write equations with: every operation evaluates at once
// (no expression templates, whose nested forms refuse to mix with plain doubles), constants
// convert implicitly, and comparisons look at the value, so a residual template
//
//   template <class S> void residuals(Equations<S>& e) const {
//     e.set(rod_, e.x(x_) * e.x(x_) + e.x(y_) * e.x(y_) - L * L);
//   }
//
// compiles for S = double and for S = Jet<1>, Jet<2>, Jet<3> alike. Functions are found by
// argument-dependent lookup: write `using std::sin; sin(v)`.
#pragma once

#include <cmath>
#include <cstdlib>
#include <type_traits>

#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

namespace hdae {

namespace detail {
template <int Depth>
struct NestedAutoDiff {
  using type = Eigen::AutoDiffScalar<Eigen::Matrix<typename NestedAutoDiff<Depth - 1>::type, 1, 1>>;
};
template <>
struct NestedAutoDiff<0> {
  using type = double;
};
}  // namespace detail

template <int Depth>
class Jet {
  static_assert(Depth >= 1 && Depth <= 3, "jets of depth 1 to 3");

 public:
  using Nested = typename detail::NestedAutoDiff<Depth>::type;

  Jet() : a_(constant<Depth>(0.0)) {}
  Jet(double value) : a_(constant<Depth>(value)) {}  // NOLINT(google-explicit-constructor)
  explicit Jet(Nested a) : a_(std::move(a)) {}

  /// A jet from the derivatives d[0] (value), d[1], ..., d[Depth] of the quantity.
  [[nodiscard]] static Jet from_derivatives(const double* d) { return Jet(build<Depth>(d)); }
  /// A jet whose outermost level is a direction in the unknowns rather than time: a quantity
  /// along the curve (its value and first Depth - 1 time derivatives d[0..Depth-1]) and its
  /// derivative in that direction (likewise, e[0..Depth-1]). Evaluated through a model, the
  /// residual's direction_derivative(m) is the m-th time derivative of its derivative in that
  /// direction: the exact Jacobians of the index reduction (hdae/index_reduction.hpp).
  [[nodiscard]] static Jet with_direction(const double* d, const double* e) {
    Nested j;
    j.value() = build<Depth - 1>(d);
    j.derivatives()(0) = build<Depth - 1>(e);
    return Jet(std::move(j));
  }
  /// The q-th derivative (q <= Depth); q = 0 is the value.
  [[nodiscard]] double derivative(int q) const { return take<Depth>(a_, q); }
  /// For a jet made by with_direction: the q-th time derivative (q < Depth) of its derivative
  /// in the direction.
  [[nodiscard]] double direction_derivative(int q) const {
    return take<Depth - 1>(a_.derivatives()(0), q);
  }
  [[nodiscard]] double value() const { return take<Depth>(a_, 0); }

  Jet& operator+=(const Jet& o) {
    a_ = Nested(a_ + o.a_);
    return *this;
  }
  Jet& operator-=(const Jet& o) {
    a_ = Nested(a_ - o.a_);
    return *this;
  }
  Jet& operator*=(const Jet& o) {
    a_ = Nested(a_ * o.a_);
    return *this;
  }
  Jet& operator/=(const Jet& o) {
    a_ = Nested(a_ / o.a_);
    return *this;
  }
  // With a plain number on one side, as in `m * der(v)` or `x / L`: each component is scaled
  // or only the value moves, where a constant turned into a jet would cost a full nested
  // product or quotient.
  friend Jet operator*(const Jet& l, double r) { return Jet(scaled<Depth>(l.a_, r)); }
  friend Jet operator*(double l, const Jet& r) { return Jet(scaled<Depth>(r.a_, l)); }
  friend Jet operator/(const Jet& l, double r) { return Jet(divided<Depth>(l.a_, r)); }
  friend Jet operator+(const Jet& l, double r) { return Jet(shifted<Depth>(l.a_, r)); }
  friend Jet operator+(double l, const Jet& r) { return Jet(shifted<Depth>(r.a_, l)); }
  friend Jet operator-(const Jet& l, double r) { return Jet(shifted<Depth>(l.a_, -r)); }
  friend Jet operator-(double l, const Jet& r) {
    return Jet(shifted<Depth>(negated<Depth>(r.a_), l));
  }
  friend Jet operator+(Jet l, const Jet& r) { return l += r; }
  friend Jet operator-(Jet l, const Jet& r) { return l -= r; }
  friend Jet operator*(Jet l, const Jet& r) { return l *= r; }
  friend Jet operator/(Jet l, const Jet& r) { return l /= r; }
  friend Jet operator-(const Jet& v) { return Jet(Nested(-v.a_)); }
  friend Jet operator+(const Jet& v) { return v; }
  friend bool operator<(const Jet& l, const Jet& r) { return l.value() < r.value(); }
  friend bool operator>(const Jet& l, const Jet& r) { return l.value() > r.value(); }
  friend bool operator<=(const Jet& l, const Jet& r) { return l.value() <= r.value(); }
  friend bool operator>=(const Jet& l, const Jet& r) { return l.value() >= r.value(); }

#define HDAE_JET_FUNCTION(f)     \
  friend Jet f(const Jet& v) {   \
    using std::f;                \
    return Jet(Nested(f(v.a_))); \
  }
  HDAE_JET_FUNCTION(sin)
  HDAE_JET_FUNCTION(cos)
  HDAE_JET_FUNCTION(tan)
  HDAE_JET_FUNCTION(asin)
  HDAE_JET_FUNCTION(acos)
  HDAE_JET_FUNCTION(atan)
  HDAE_JET_FUNCTION(exp)
  HDAE_JET_FUNCTION(log)
  HDAE_JET_FUNCTION(sqrt)
  HDAE_JET_FUNCTION(abs)
  HDAE_JET_FUNCTION(sinh)
  HDAE_JET_FUNCTION(cosh)
  HDAE_JET_FUNCTION(tanh)
#undef HDAE_JET_FUNCTION
  friend Jet atan2(const Jet& y, const Jet& x) {
    using std::atan2;
    return Jet(Nested(atan2(y.a_, x.a_)));
  }
  /// v^p: repeated products for integer p (any sign of v), exp(p log v) otherwise (v > 0).
  /// Eigen's own pow does not nest.
  friend Jet pow(const Jet& v, double p) {
    if (p == std::floor(p) && std::abs(p) <= 64.0) {
      Jet result(1.0);
      Jet base = v;
      for (long k = std::labs(static_cast<long>(p)); k > 0; k >>= 1, base *= base) {
        if ((k & 1) != 0) result *= base;
      }
      return p < 0.0 ? Jet(1.0) / result : result;
    }
    return exp(p * log(v));
  }

 private:
  template <int D>
  static typename detail::NestedAutoDiff<D>::type constant(double v) {
    if constexpr (D == 0) {
      return v;
    } else {
      return typename detail::NestedAutoDiff<D>::type(constant<D - 1>(v));
    }
  }
  template <int D>
  static typename detail::NestedAutoDiff<D>::type build(const double* d) {
    if constexpr (D == 0) {
      return d[0];
    } else {
      typename detail::NestedAutoDiff<D>::type j;
      j.value() = build<D - 1>(d);
      j.derivatives()(0) = build<D - 1>(d + 1);
      return j;
    }
  }
  /// f applied to every component (the value's derivatives and the direction's alike).
  template <int D, class F>
  static typename detail::NestedAutoDiff<D>::type each(
      const typename detail::NestedAutoDiff<D>::type& a, F f) {
    if constexpr (D == 0) {
      return f(a);
    } else {
      typename detail::NestedAutoDiff<D>::type j;
      j.value() = each<D - 1>(a.value(), f);
      j.derivatives()(0) = each<D - 1>(a.derivatives()(0), f);
      return j;
    }
  }
  template <int D>
  static typename detail::NestedAutoDiff<D>::type scaled(
      const typename detail::NestedAutoDiff<D>::type& a, double s) {
    return each<D>(a, [s](double v) { return v * s; });
  }
  template <int D>
  static typename detail::NestedAutoDiff<D>::type divided(
      const typename detail::NestedAutoDiff<D>::type& a, double s) {
    return each<D>(a, [s](double v) { return v / s; });
  }
  template <int D>
  static typename detail::NestedAutoDiff<D>::type negated(
      const typename detail::NestedAutoDiff<D>::type& a) {
    return each<D>(a, [](double v) { return -v; });
  }
  /// a + s: only the innermost value moves.
  template <int D>
  static typename detail::NestedAutoDiff<D>::type shifted(
      const typename detail::NestedAutoDiff<D>::type& a, double s) {
    if constexpr (D == 0) {
      return a + s;
    } else {
      typename detail::NestedAutoDiff<D>::type j;
      j.value() = shifted<D - 1>(a.value(), s);
      j.derivatives()(0) = a.derivatives()(0);
      return j;
    }
  }
  template <int D>
  static double take(const typename detail::NestedAutoDiff<D>::type& a, int q) {
    if constexpr (D == 0) {
      return a;
    } else {
      return q > 0 ? take<D - 1>(a.derivatives()(0), q - 1) : take<D - 1>(a.value(), 0);
    }
  }

  Nested a_;
};

}  // namespace hdae
