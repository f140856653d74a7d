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
