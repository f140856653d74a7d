// Taylor jets: a quantity and its first derivatives along one curve t -> (t, x(t)), for the
// exact time derivatives of equations that index reduction needs (docs/design.md, "Index
// reduction"), and with directions in the unknowns besides, for its exact Jacobians.
//
// A jet holds truncated Taylor coefficients, a_k = f^(k)(t) / k! for k = 0..Order. A directed
// jet also holds, for each of its directions v_w of the unknowns, the coefficients e_wk of f's
// derivative in that direction: f(t + h, x + s v_w) = sum_k (a_k + s e_wk) h^k, to h^Order and
// first order in s. Products are Cauchy products of the coefficients, quotients their
// recurrence, and a function f of a jet a is sum_m f^(m)(a_0) (a - a_0)^m / m!, where a - a_0
// is nilpotent (hdae/jet_functions.hpp gives f's first three derivatives). This is what
// forward differentiation nested once per derivative gives, without computing its equal mixed
// derivatives again and again; the directions share the curve's coefficients, which one
// evaluation computes for all of them. Every operation evaluates at once, constants convert
// implicitly, and comparisons look at the value, so a residual template
//
//   template <class S> void residuals(Equations<S>& e) const {
//     e.set(rod_, e.x(x_) * e.x(x_) + e.x(y_) * e.x(y_) - L * L);
//   }
//
// compiles for S = double, Jet<1..3> and DirectedJet<1..3> alike. Functions are found by
// argument-dependent lookup: write `using std::sin; sin(v)`.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdlib>

#include "hdae/jet_functions.hpp"

namespace hdae {

/// Directions a directed jet carries: the columns one evaluation of an exact Jacobian
/// differentiates.
inline constexpr int kJetDirections = 4;

/// Taylor coefficients to order Order and those of the derivatives in Directions directions.
/// Use it as Jet<Depth> or DirectedJet<Depth>.
template <int Order, int Directions>
class BasicJet {
  static constexpr bool kDirected = Directions > 0;
  static_assert(Order >= 0 && Directions >= 0 && Order + (kDirected ? 1 : 0) >= 1 &&
                    Order + (kDirected ? 1 : 0) <= 3,
                "jets of depth 1 to 3");
  /// Terms of a function's expansion: h^Depth is the last to reach the coefficients kept.
  static constexpr int kDepth = Order + (kDirected ? 1 : 0);
  /// Coefficients of the curve, and of each direction after them.
  static constexpr std::size_t kE = Order + 1;
  static constexpr std::size_t kCoefficients = kE * (1 + Directions);
  static constexpr std::array<double, 4> kFactorial{1.0, 1.0, 2.0, 6.0};
  static constexpr std::array<double, 4> kInverseFactorial{1.0, 1.0, 0.5, 1.0 / 6.0};

 public:
  BasicJet() = default;
  BasicJet(double value) { c_[0] = value; }  // NOLINT(google-explicit-constructor)

  /// A jet from the derivatives d[0] (value), d[1], ..., d[Order] of the quantity.
  /// With directions, their derivatives are zero until set_direction.
  [[nodiscard]] static BasicJet from_derivatives(const double* d) {
    BasicJet j;
    for (int k = 0; k <= Order; ++k) j.c_[at(k)] = d[k] * kInverseFactorial[at(k)];
    return j;
  }
  /// A quantity along the curve (its value and first Order time derivatives d[0..Order]) and
  /// its derivative in the first direction of the unknowns (likewise, e[0..Order]).
  [[nodiscard]] static BasicJet with_direction(const double* d,
                                               const double* e) requires kDirected {
    BasicJet j = from_derivatives(d);
    j.set_direction(0, e);
    return j;
  }
  /// The derivative in direction w and its first Order time derivatives, e[0..Order].
  /// Evaluated through a model, the residual's direction_derivative(w, m) is the m-th time
  /// derivative of its derivative in direction w: the exact Jacobians of the index reduction
  /// (hdae/index_reduction.hpp).
  void set_direction(int w, const double* e) requires kDirected {
    for (int k = 0; k <= Order; ++k) c_[direction(w) + at(k)] = e[k] * kInverseFactorial[at(k)];
  }
  /// The q-th time derivative (q <= Order); q = 0 is the value.
  [[nodiscard]] double derivative(int q) const { return c_[at(q)] * kFactorial[at(q)]; }
  /// The q-th time derivative (q <= Order) of the derivative in direction w.
  [[nodiscard]] double direction_derivative(int w, int q) const requires kDirected {
    return c_[direction(w) + at(q)] * kFactorial[at(q)];
  }
  [[nodiscard]] double value() const { return c_[0]; }

  BasicJet& operator+=(const BasicJet& o) {
    for (std::size_t k = 0; k < kCoefficients; ++k) c_[k] += o.c_[k];
    return *this;
  }
  BasicJet& operator-=(const BasicJet& o) {
    for (std::size_t k = 0; k < kCoefficients; ++k) c_[k] -= o.c_[k];
    return *this;
  }
  BasicJet& operator*=(const BasicJet& o) { return *this = product<0>(*this, o); }
  BasicJet& operator/=(const BasicJet& o) { return *this = quotient(*this, o); }
  // With a plain number on one side, as in `m * der(v)` or `x / L`: each coefficient is scaled
  // or only the value moves.
  friend BasicJet operator*(BasicJet l, double r) { return l.scale(r); }
  friend BasicJet operator*(double l, BasicJet r) { return r.scale(l); }
  friend BasicJet operator/(BasicJet l, double r) { return l.scale(1.0 / r); }
  friend BasicJet operator+(BasicJet l, double r) { return l.shift(r); }
  friend BasicJet operator+(double l, BasicJet r) { return r.shift(l); }
  friend BasicJet operator-(BasicJet l, double r) { return l.shift(-r); }
  friend BasicJet operator-(double l, BasicJet r) { return r.scale(-1.0).shift(l); }
  friend BasicJet operator+(BasicJet l, const BasicJet& r) { return l += r; }
  friend BasicJet operator-(BasicJet l, const BasicJet& r) { return l -= r; }
  friend BasicJet operator*(const BasicJet& l, const BasicJet& r) { return product<0>(l, r); }
  friend BasicJet operator/(const BasicJet& l, const BasicJet& r) { return quotient(l, r); }
  friend BasicJet operator-(BasicJet v) { return v.scale(-1.0); }
  friend BasicJet operator+(const BasicJet& v) { return v; }
  friend bool operator<(const BasicJet& l, const BasicJet& r) { return l.value() < r.value(); }
  friend bool operator>(const BasicJet& l, const BasicJet& r) { return l.value() > r.value(); }
  friend bool operator<=(const BasicJet& l, const BasicJet& r) { return l.value() <= r.value(); }
  friend bool operator>=(const BasicJet& l, const BasicJet& r) { return l.value() >= r.value(); }

#define HDAE_JET_FUNCTION(f) \
  friend BasicJet f(const BasicJet& v) { return compose(v, jet_functions::f(v.value())); }
  HDAE_JET_FUNCTION(sin)
  HDAE_JET_FUNCTION(cos)
  HDAE_JET_FUNCTION(tan)
  HDAE_JET_FUNCTION(asin)
  HDAE_JET_FUNCTION(acos)
  HDAE_JET_FUNCTION(atan)
  HDAE_JET_FUNCTION(exp)
  HDAE_JET_FUNCTION(log)
  HDAE_JET_FUNCTION(sqrt)
  HDAE_JET_FUNCTION(sinh)
  HDAE_JET_FUNCTION(cosh)
  HDAE_JET_FUNCTION(tanh)
#undef HDAE_JET_FUNCTION
  /// |v|: v or -v by the sign of its value (the derivatives of v at 0).
  friend BasicJet abs(const BasicJet& v) { return v.value() < 0.0 ? -v : v; }
  /// atan2(y, x) = theta + atan(u / w), theta the angle of the values and u / w the tangent
  /// of the angle turned from it: u = y cos theta - x sin theta is 0 at the values and w = x
  /// cos theta + y sin theta their radius, so the quotient is regular in every quadrant.
  friend BasicJet atan2(const BasicJet& y, const BasicJet& x) {
    const double theta = std::atan2(y.value(), x.value());
    const double c = std::cos(theta);
    const double s = std::sin(theta);
    return atan((y * c - x * s) / (x * c + y * s)) + theta;
  }
  /// v^p: repeated products for integer p (any sign of v), the chain rule with p's powers
  /// otherwise (v > 0).
  friend BasicJet pow(const BasicJet& v, double p) {
    if (p == std::floor(p) && std::abs(p) <= 64.0) {
      BasicJet result(1.0);
      BasicJet base = v;
      for (long k = std::labs(static_cast<long>(p)); k > 0; k >>= 1, base *= base) {
        if ((k & 1) != 0) result *= base;
      }
      return p < 0.0 ? BasicJet(1.0) / result : result;
    }
    return compose(v, jet_functions::pow(v.value(), p));
  }

 private:
  static constexpr std::size_t at(int k) { return static_cast<std::size_t>(k); }
  /// Where direction w's coefficients start.
  static constexpr std::size_t direction(int w) { return kE * (1 + at(w)); }

  BasicJet& scale(double s) {
    for (std::size_t k = 0; k < kCoefficients; ++k) c_[k] *= s;
    return *this;
  }
  BasicJet& shift(double s) {
    c_[0] += s;
    return *this;
  }

  /// The Cauchy product. With Skip = 1, r's value is 0 and its products are left out, so that
  /// an infinite coefficient of l (a derivative at a singular point) stays infinite, not NaN.
  template <int Skip>
  static BasicJet product(const BasicJet& l, const BasicJet& r) {
    BasicJet c;
    for (int k = 0; k <= Order; ++k) {
      double s = 0.0;
      for (int i = 0; i + Skip <= k; ++i) s += l.c_[at(i)] * r.c_[at(k - i)];
      c.c_[at(k)] = s;
    }
    for (int w = 0; w < Directions; ++w) {
      const std::size_t e = direction(w);
      for (int k = 0; k <= Order; ++k) {
        double s = 0.0;
        for (int i = 0; i <= k; ++i) s += l.c_[at(i)] * r.c_[e + at(k - i)];
        for (int i = 0; i + Skip <= k; ++i) s += l.c_[e + at(i)] * r.c_[at(k - i)];
        c.c_[e + at(k)] = s;
      }
    }
    return c;
  }

  /// c = l / r from l = c r, solved for c's coefficients in turn.
  static BasicJet quotient(const BasicJet& l, const BasicJet& r) {
    BasicJet c;
    const double r0 = r.c_[0];
    for (int k = 0; k <= Order; ++k) {
      double s = l.c_[at(k)];
      for (int i = 1; i <= k; ++i) s -= r.c_[at(i)] * c.c_[at(k - i)];
      c.c_[at(k)] = s / r0;
    }
    for (int w = 0; w < Directions; ++w) {
      const std::size_t e = direction(w);
      for (int k = 0; k <= Order; ++k) {
        double s = l.c_[e + at(k)];
        for (int i = 0; i <= k; ++i) s -= r.c_[e + at(i)] * c.c_[at(k - i)];
        for (int i = 1; i <= k; ++i) s -= r.c_[at(i)] * c.c_[e + at(k - i)];
        c.c_[e + at(k)] = s / r0;
      }
    }
    return c;
  }

  /// f(v) from f's derivatives at v's value, by Horner's scheme in h = v - v_0.
  static BasicJet compose(const BasicJet& v, const jet_functions::Derivatives& f) {
    BasicJet h = v;
    h.c_[0] = 0.0;
    BasicJet r = h;
    r.scale(f[at(kDepth)] * kInverseFactorial[at(kDepth)]);
    r.c_[0] = f[at(kDepth - 1)] * kInverseFactorial[at(kDepth - 1)];
    for (int m = kDepth - 2; m >= 0; --m) {
      r = product<1>(r, h);
      r.c_[0] = f[at(m)] * kInverseFactorial[at(m)];
    }
    return r;
  }

  /// a_k at k, then each direction's e_wk at (Order + 1)(1 + w) + k: one array, so that a jet
  /// copies as whole words (an empty array of its own would leave a byte to copy unaligned).
  std::array<double, kCoefficients> c_{};
};

/// A quantity and its first Depth derivatives along the curve.
template <int Depth>
using Jet = BasicJet<Depth, 0>;

/// A quantity and its first Depth - 1 derivatives along the curve, with the same of its
/// derivatives in kJetDirections directions of the unknowns: Depth levels of differentiation,
/// the deepest a direction rather than time.
template <int Depth>
using DirectedJet = BasicJet<Depth - 1, kJetDirections>;

}  // namespace hdae
