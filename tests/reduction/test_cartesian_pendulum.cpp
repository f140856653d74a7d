// The Cartesian pendulum of index 3, reduced by the engine (hdae/index_reduction.hpp), against
// the angle pendulum (an ODE with the same physics) and against its own constraints.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "hdae/models/cartesian_pendulum.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

constexpr double kPi = 3.14159265358979323846;

SimulationOptions accurate(double stop) {
  SimulationOptions o;
  o.stop_s = stop;
  o.rel_tol = 1e-8;
  o.output_interval_s = 0.01;
  // Rows at IDA's steps (no interpolation) and a tighter Newton test: the constraints are
  // then held on every row to well below the tolerances checked here.
  o.step_to_outputs = true;
  o.nonlinear_convergence_coef = 0.01;
  return o;
}

}  // namespace

TEST_CASE("the reduced Cartesian pendulum: index 3, two states, consistent start") {
  auto model = models::make_cartesian_pendulum();
  // Offsets by hand (tests/structure, the same rows): c = (1, 1, 0, 0, 2), d = (2, 2, 1, 1, 0)
  // for (x, y, vx, vy, F): slots x, x', x'', y, y', y'', vx, vx', vy, vy', F = 11 unknowns,
  // sum (c_i + 1) = 9 equations, 2 states.
  CHECK(model->analysis().index == 3);
  CHECK(model->structure().variables.size() == 11);
  REQUIRE(model->states().size() == 2);
  // Released from the horizontal (x = L, y = 0): the rod fixes x given y, so y and its
  // derivative are the states.
  CHECK(model->states()[0] == "y");
  CHECK(model->states()[1] == "y'");
  const std::string words = model->describe();
  CHECK(words.find("index 3") != std::string::npos);
  CHECK(words.find("2 states: y, y'") != std::string::npos);
}

TEST_CASE("the reduced Cartesian pendulum follows the angle pendulum and keeps its rod") {
  // Same physics: phi = atan2(x, -y) of the Cartesian pendulum obeys m L^2 phi'' =
  // -m g L sin(phi) - d phi' when the damping force is -(d/L^2) v (its torque L * (d/L^2) *
  // L phi' = d phi'). Both released at rest from 90 degrees.
  const double stop = 10.0;
  auto cartesian = models::make_cartesian_pendulum();
  const SimulationResult c = simulate(*cartesian, accurate(stop));
  REQUIRE(c.status.ok());
  models::PendulumParameters pp;
  pp.phi0_rad = kPi / 2.0;
  models::Pendulum angle(pp);
  const SimulationResult a = simulate(angle, accurate(stop));
  REQUIRE(a.status.ok());

  const double L = cartesian->original().structure().parameters[0].value;
  const auto x = c.table.column("x");
  const auto y = c.table.column("y");
  const auto vx = c.table.column("vx");
  const auto vy = c.table.column("vy");
  const auto phi_c = c.table.column("phi");
  const auto& t_c = c.table.time();
  const auto phi_a = a.table.column("phi");
  const auto& t_a = a.table.time();
  // The angle pendulum has no events; the Cartesian one adds two rows at each re-selection of
  // its states. Every grid time of the one is a time of the other.
  double worst_angle = 0.0, worst_rod = 0.0, worst_velocity = 0.0;
  std::size_t matched = 0;
  for (std::size_t ka = 0, kc = 0; ka < t_a.size(); ++ka) {
    while (kc < t_c.size() && t_c[kc] < t_a[ka]) ++kc;
    REQUIRE(kc < t_c.size());
    REQUIRE(t_c[kc] == t_a[ka]);
    worst_angle = std::max(worst_angle, std::abs(phi_c[kc] - phi_a[ka]));
    ++matched;
  }
  CHECK(matched == 1001);
  for (std::size_t k = 0; k < x.size(); ++k) {
    worst_rod = std::max(worst_rod, std::abs(x[k] * x[k] + y[k] * y[k] - L * L));
    worst_velocity = std::max(worst_velocity, std::abs(x[k] * vx[k] + y[k] * vy[k]));
  }
  MESSAGE("max |phi difference| " << worst_angle << ", max |x^2+y^2-L^2| " << worst_rod
                                  << ", max |x vx + y vy| " << worst_velocity << ", "
                                  << cartesian->selection_changes() << " state re-selections");
  // The bounds demanded of the reduced form: the angle within 100 rel_tol of an independent
  // formulation of the same physics (both carry a global error of order rel_tol over 10 s);
  // the rod and its first hidden constraint far below rel_tol, since every row is a step of
  // IDA whose Newton test is 0.01 of the local error bound (o.nonlinear_convergence_coef).
  CHECK(worst_angle <= 1e-6);
  CHECK(worst_rod <= 1e-10 * L * L);
  CHECK(worst_velocity <= 1e-8 * L * L);
  // Swinging through the bottom and back, the selection must have changed several times.
  CHECK(cartesian->selection_changes() >= 2);
}
