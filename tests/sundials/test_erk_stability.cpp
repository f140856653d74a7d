// The stability interval of the explicit Runge-Kutta pairs (sundials/ode_integrator.hpp), which
// the stiffness check of IntegrationMethod::kAuto compares steps with.
#include <doctest/doctest.h>

#include "sundials/ode_integrator.hpp"

TEST_CASE("the explicit pairs' stability intervals on the negative real axis") {
  // Dormand-Prince 5(4) (rel_tol 1e-6 and looser): its stability region meets the negative
  // real axis near -3.3 (Hairer, Norsett and Wanner, Solving ODEs I, the region of DOPRI5).
  const double dopri5 = hdae::sundials::erk_stability_boundary(1e-6);
  CHECK(dopri5 > 3.2);
  CHECK(dopri5 < 3.4);
  // The higher orders have more stages per step and reach farther: the boundary grows with
  // the stage count for these pairs.
  const double verner6 = hdae::sundials::erk_stability_boundary(1e-8);
  const double fehlberg8 = hdae::sundials::erk_stability_boundary(1e-10);
  CHECK(verner6 > dopri5);
  CHECK(fehlberg8 > verner6);
}
