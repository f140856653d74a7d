// Taylor jets (hdae/jet.hpp) against derivatives known in closed form.
#include <cmath>

#include <doctest/doctest.h>

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
  const Jet<3> x = Jet<3>::with_direction(d, e);
  const Jet<3> h = 3.0 * x * x / 2.0 - 1.0;  // dh/dx = 3 x, and d/dt of it 3
  CHECK(h.direction_derivative(0) == doctest::Approx(3.0 * t0).epsilon(1e-15));
  CHECK(h.direction_derivative(1) == doctest::Approx(3.0).epsilon(1e-15));
}
