// The stability interval of the explicit Runge-Kutta pairs (sundials/ode_integrator.hpp), which
// the stiffness check of IntegrationMethod::kAuto compares steps with.
#include <doctest/doctest.h>

#include "sundials/ode_integrator.hpp"

TEST_CASE("the explicit pair's stability interval on the negative real axis") {
  // Dormand-Prince 5(4): its stability region meets the negative
  // real axis near -3.3 (Hairer, Norsett and Wanner, Solving ODEs I, the region of DOPRI5).
  const double dopri5 = hdae::sundials::erk_stability_boundary(1e-6);
  CHECK(dopri5 > 3.2);
  CHECK(dopri5 < 3.4);
  // The same pair at every tolerance.
  CHECK(hdae::sundials::erk_stability_boundary(1e-10) == dopri5);
}
