// Taylor jets (hdae/jet.hpp) against derivatives known in closed form and against Eigen's
// nested forward-mode differentiation.
#include <algorithm>
#include <array>
#include <cmath>

#include <doctest/doctest.h>
#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include "hdae/jet.hpp"

using namespace hdae;

TEST_CASE("jets carry exact derivatives through products, quotients and functions") {
  // Along t -> t: f(t) = sin(2t) exp(t) / (1 + t^2) + pow(t, 3) + atan2(t, 2) at t = 0.3,
  // derivatives by the product and chain rules, checked against a symbolic differentiation:
  // here only the parts are checked one by one, each with its closed form.
  const double t0 = 0.3;
  const double d[4] = {t0, 1.0, 0.0, 0.0};
  const Jet<3> t = Jet<3>::from_derivatives(d);
  using std::sin;
  // d^k/dt^k sin(2t) = 2^k sin(2t + k pi/2)
  const Jet<3> s = sin(2.0 * t);
  for (int k = 0; k <= 3; ++k) {
    CHECK(s.derivative(k) ==
          doctest::Approx(std::pow(2.0, k) * std::sin(2.0 * t0 + k * M_PI / 2.0)).epsilon(1e-14));
  }
  // t^3: 3t^2, 6t, 6
  const Jet<3> c = pow(t, 3.0);
  CHECK(c.derivative(1) == doctest::Approx(3.0 * t0 * t0).epsilon(1e-14));
  CHECK(c.derivative(2) == doctest::Approx(6.0 * t0).epsilon(1e-14));
  CHECK(c.derivative(3) == doctest::Approx(6.0).epsilon(1e-14));
  // 1/(1 + t^2): derivatives -2t/(1+t^2)^2, (6t^2 - 2)/(1+t^2)^3, 24 t (1 - t^2)/(1+t^2)^4
  const Jet<3> q = 1.0 / (1.0 + t * t);
  const double u = 1.0 + t0 * t0;
  CHECK(q.derivative(1) == doctest::Approx(-2.0 * t0 / (u * u)).epsilon(1e-14));
  CHECK(q.derivative(2) == doctest::Approx((6.0 * t0 * t0 - 2.0) / (u * u * u)).epsilon(1e-14));
  CHECK(q.derivative(3) ==
        doctest::Approx(24.0 * t0 * (1.0 - t0 * t0) / (u * u * u * u)).epsilon(1e-14));
  // atan2(t, 2) = atan(t/2): derivative 2/(4 + t^2)
  const Jet<3> a = atan2(t, Jet<3>(2.0));
  CHECK(a.value() == doctest::Approx(std::atan(t0 / 2.0)).epsilon(1e-15));
  CHECK(a.derivative(1) == doctest::Approx(2.0 / (4.0 + t0 * t0)).epsilon(1e-14));
  // Comparisons look at the value only.
  CHECK(t > 0.2);
  CHECK_FALSE(t < 0.2);
}

TEST_CASE("jets with a plain number on one side keep exact derivatives") {
  // Along t -> t at t = 0.7: f = (2 t + 1) * 3 - t / 4 + (5 - t) = 4.75 t + 8, derivative 4.75,
  // higher ones 0; g = 2 sin(t) / 0.5, derivatives 4 sin(t + k pi/2). Each number-side form is
  // also checked against the same number made a constant jet.
  const double t0 = 0.7;
  const double d[4] = {t0, 1.0, 0.0, 0.0};
  const Jet<3> t = Jet<3>::from_derivatives(d);
  const Jet<3> f = (2.0 * t + 1.0) * 3.0 - t / 4.0 + (5.0 - t);
  CHECK(f.value() == doctest::Approx(4.75 * t0 + 8.0).epsilon(1e-15));
  CHECK(f.derivative(1) == doctest::Approx(4.75).epsilon(1e-15));
  CHECK(f.derivative(2) == 0.0);
  CHECK(f.derivative(3) == 0.0);
  using std::sin;
  const Jet<3> g = 2.0 * sin(t) / 0.5;
  for (int k = 0; k <= 3; ++k) {
    CHECK(g.derivative(k) == doctest::Approx(4.0 * std::sin(t0 + k * M_PI / 2.0)).epsilon(1e-14));
  }
  const Jet<3> as_jets =
      (Jet<3>(2.0) * t + Jet<3>(1.0)) * Jet<3>(3.0) - t / Jet<3>(4.0) + (Jet<3>(5.0) - t);
  for (int k = 0; k <= 3; ++k) {
    CHECK(f.derivative(k) == doctest::Approx(as_jets.derivative(k)).epsilon(1e-15));
  }
  // A direction in the unknowns (the Jacobians' jets) is scaled like the time derivatives.
  const double e[3] = {1.0, 0.0, 0.0};
  const DirectedJet<3> x = DirectedJet<3>::with_direction(d, e);
  const DirectedJet<3> h = 3.0 * x * x / 2.0 - 1.0;  // dh/dx = 3 x, and d/dt of it 3
  CHECK(h.direction_derivative(0, 0) == doctest::Approx(3.0 * t0).epsilon(1e-15));
  CHECK(h.direction_derivative(0, 1) == doctest::Approx(3.0).epsilon(1e-15));
}

namespace {

// Eigen's forward-mode AutoDiffScalar nested D times, each level one derivative: an
// independent differentiation to check the jets' coefficient arithmetic against.
template <int D>
struct Nested {
  using type = Eigen::AutoDiffScalar<Eigen::Matrix<typename Nested<D - 1>::type, 1, 1>>;
};
template <>
struct Nested<0> {
  using type = double;
};

template <int D>
typename Nested<D>::type nested_curve(const double* d) {
  if constexpr (D == 0) {
    return d[0];
  } else {
    typename Nested<D>::type v;
    v.value() = nested_curve<D - 1>(d);
    v.derivatives()(0) = nested_curve<D - 1>(d + 1);
    return v;
  }
}

template <int D>
typename Nested<D>::type nested_constant(double c) {
  const std::array<double, 4> d{c, 0.0, 0.0, 0.0};
  return nested_curve<D>(d.data());
}

/// The q-th derivative of a quantity nested along one curve.
template <int D>
double nested_derivative(const typename Nested<D>::type& v, int q) {
  if constexpr (D == 0) {
    return v;
  } else {
    return q > 0 ? nested_derivative<D - 1>(v.derivatives()(0), q - 1)
                 : nested_derivative<D - 1>(v.value(), 0);
  }
}

/// Every operation and function of the jets, with the constants, x^p, atan and |x| made by `k`.
template <class S, class K>
S mixture(const S& x, const S& y, const K& k) {
  using std::acos, std::asin, std::atan2, std::cos, std::cosh, std::exp, std::log, std::sin,
      std::sinh, std::sqrt, std::tan, std::tanh;
  const auto c = [&k](double v) { return k.constant(v); };
  S f = S(sin(x) * cos(y)) + S(tan(S(x / c(3.0))));
  f -= S(exp(S(x * y))) / S(c(1.0) + S(y * y));
  f += S(log(S(c(2.0) + x))) * S(sqrt(S(c(3.0) + y)));
  f += S(asin(S(x / c(2.0)))) + S(acos(S(y / c(3.0))));
  f -= k.arctan(S(x - y)) + S(sinh(x) * cosh(y)) - S(tanh(S(x + y))) + k.absolute(S(x - c(2.0)));
  f += S(atan2(y, x) * atan2(S(-y), S(-x)));
  f += k.power(S(x + c(2.0)), 2.5) + k.power(S(c(2.0) - y), -1.5);
  f *= S(c(1.0) - S(x * c(3.0)));
  f /= S(c(5.0) + y);
  return S(f - S(c(4.0) * x)) + S(y / c(4.0)) + S(S(c(1.0) - x) * c(3.0)) + S(-y);
}

/// The jets' own operations (J = Jet<D> or DirectedJet<D>); constants stay plain numbers.
template <class J>
struct JetKit {
  static double constant(double v) { return v; }
  static J power(const J& v, double p) { return pow(v, p); }
  static J arctan(const J& v) { return atan(v); }
  static J absolute(const J& v) { return abs(v); }
};

/// Eigen's nested forms, which have neither a nesting pow, atan nor abs: exp(p log v),
/// atan2(v, 1) and v or -v by the sign of its value.
template <int D>
struct NestedKit {
  using N = typename Nested<D>::type;
  static N constant(double v) { return nested_constant<D>(v); }
  static N power(const N& v, double p) { return N(exp(N(constant(p) * N(log(v))))); }
  static N arctan(const N& v) { return N(atan2(v, constant(1.0))); }
  static N absolute(const N& v) { return v.value() < 0.0 ? N(-v) : v; }
};

template <int D>
void check_against_nested() {
  const std::array<double, 4> dx{0.3, -0.7, 1.1, 0.4}, dy{0.5, 0.2, -0.9, 1.3};
  const std::array<double, 3> ex{1.0, 0.25, -0.5}, ey{-0.4, 0.3, 0.6};
  using N = typename Nested<D>::type;
  // Both sides are exact up to round-off: the mixture takes some fifty operations on values of
  // order 1 to 10, whose rounding in either order of evaluation stays far below the 1e-12
  // relative bound (a wrong rule shows at order 1e-2 and more). Along the curve: all D
  // derivatives.
  const Jet<D> f = mixture(Jet<D>::from_derivatives(dx.data()), Jet<D>::from_derivatives(dy.data()),
                           JetKit<Jet<D>>{});
  const N g = mixture(nested_curve<D>(dx.data()), nested_curve<D>(dy.data()), NestedKit<D>{});
  for (int q = 0; q <= D; ++q) {
    const double want = nested_derivative<D>(g, q);
    CHECK(std::abs(f.derivative(q) - want) <= 1e-12 * std::max(1.0, std::abs(want)));
  }
  // With a direction: the outermost level of the nested form differentiates along it.
  const auto directed = [](const std::array<double, 4>& d, const std::array<double, 3>& e) {
    N v;
    v.value() = nested_curve<D - 1>(d.data());
    v.derivatives()(0) = nested_curve<D - 1>(e.data());
    return v;
  };
  const DirectedJet<D> u =
      mixture(DirectedJet<D>::with_direction(dx.data(), ex.data()),
              DirectedJet<D>::with_direction(dy.data(), ey.data()), JetKit<DirectedJet<D>>{});
  const N w = mixture(directed(dx, ex), directed(dy, ey), NestedKit<D>{});
  for (int q = 0; q < D; ++q) {
    const double want_value = nested_derivative<D - 1>(w.value(), q);
    const double want_along = nested_derivative<D - 1>(w.derivatives()(0), q);
    CHECK(std::abs(u.derivative(q) - want_value) <= 1e-12 * std::max(1.0, std::abs(want_value)));
    CHECK(std::abs(u.direction_derivative(0, q) - want_along) <=
          1e-12 * std::max(1.0, std::abs(want_along)));
  }
  // The other directions: x alone in direction 1, y alone in direction 2, none in the rest.
  // A derivative is linear in its direction, so directions 1 and 2 add up to direction 0.
  DirectedJet<D> x = DirectedJet<D>::with_direction(dx.data(), ex.data());
  DirectedJet<D> y = DirectedJet<D>::with_direction(dy.data(), ey.data());
  x.set_direction(1, ex.data()), y.set_direction(2, ey.data());
  const DirectedJet<D> v = mixture(x, y, JetKit<DirectedJet<D>>{});
  for (int q = 0; q < D; ++q) {
    const double sum = v.direction_derivative(1, q) + v.direction_derivative(2, q);
    CHECK(std::abs(sum - u.direction_derivative(0, q)) <=
          1e-12 * std::max(1.0, std::abs(u.direction_derivative(0, q))));
    for (int other = 3; other < kJetDirections; ++other) {
      CHECK(v.direction_derivative(other, q) == 0.0);
    }
  }
}

}  // namespace

TEST_CASE("jets agree with nested forward differentiation in every operation and function") {
  check_against_nested<1>();
  check_against_nested<2>();
  check_against_nested<3>();
}
