// The double pendulum written as the physics reads (index 3, reduced by the engine) against the
// textbook form in the angles (an ODE with the same physics), and against its own constraints
// and its energy (models/double_pendulum.hpp).
#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

#include <doctest/doctest.h>

#include "hdae/index_reduction.hpp"
#include "hdae/models/double_pendulum.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

constexpr double kRelTol = 1e-8;

SimulationOptions accurate(double stop) {
  SimulationOptions o;
  o.stop_s = stop;
  o.rel_tol = kRelTol;
  o.output_interval_s = 0.01;
  // Rows at IDA's steps and a tighter Newton test: the rods hold on every row to the Newton
  // tolerance (as for the Cartesian pendulum).
  o.step_to_outputs = true;
  o.nonlinear_convergence_coef = 0.01;
  return o;
}

/// a - b as an angle in (-pi, pi]: the Cartesian form's angles are atan2's, the angle form's
/// are not wrapped.
double angle_difference(double a, double b) { return std::remainder(a - b, 2 * std::numbers::pi); }

}  // namespace

TEST_CASE("the Cartesian double pendulum reduces to index 3 with four states") {
  auto model = models::make_double_cartesian_pendulum();
  MESSAGE(model->describe());
  // Two rods on four coordinates: 2 mechanical degrees of freedom, 4 states.
  CHECK(model->analysis().index == 3);
  CHECK(model->analysis().degrees_of_freedom == 4);
  CHECK(model->states().size() == 4);
}

TEST_CASE("the Cartesian double pendulum follows the angle form and keeps its rods and energy") {
  const models::DoublePendulumParameters p;
  const double stop = 2.0;
  auto cartesian = models::make_double_cartesian_pendulum(p);
  const SimulationResult c = simulate(*cartesian, accurate(stop));
  REQUIRE(c.status.ok());
  models::DoublePendulum angles(p);
  const SimulationResult a = simulate(angles, accurate(stop));
  REQUIRE(a.status.ok());

  const auto& t_c = c.table.time();
  const auto& t_a = a.table.time();
  const auto phi1_c = c.table.column("phi1");
  const auto phi2_c = c.table.column("phi2");
  const auto phi1_a = a.table.column("phi1");
  const auto phi2_a = a.table.column("phi2");
  double worst_angle = 0.0;
  std::size_t matched = 0;
  // The angle form has no events; the Cartesian one adds two rows at each re-selection of its
  // states. Every grid time of the one is a time of the other.
  for (std::size_t ka = 0, kc = 0; ka < t_a.size(); ++ka) {
    while (kc < t_c.size() && t_c[kc] < t_a[ka]) ++kc;
    REQUIRE(kc < t_c.size());
    REQUIRE(t_c[kc] == t_a[ka]);
    worst_angle = std::max({worst_angle, std::abs(angle_difference(phi1_c[kc], phi1_a[ka])),
                            std::abs(angle_difference(phi2_c[kc], phi2_a[ka]))});
    ++matched;
  }
  CHECK(matched == 201);

  const double L1 = p.length1_m, L2 = p.length2_m;
  const auto x1 = c.table.column("x1");
  const auto y1 = c.table.column("y1");
  const auto x2 = c.table.column("x2");
  const auto y2 = c.table.column("y2");
  const auto energy_c = c.table.column("energy");
  const auto energy_a = a.table.column("energy");
  double worst_rod = 0.0, worst_energy_c = 0.0, worst_energy_a = 0.0;
  for (std::size_t k = 0; k < t_c.size(); ++k) {
    const double dx = x2[k] - x1[k], dy = y2[k] - y1[k];
    worst_rod = std::max({worst_rod, std::abs(x1[k] * x1[k] + y1[k] * y1[k] - L1 * L1),
                          std::abs(dx * dx + dy * dy - L2 * L2)});
    worst_energy_c = std::max(worst_energy_c, std::abs(energy_c[k]));
  }
  for (std::size_t k = 0; k < t_a.size(); ++k) {
    worst_energy_a = std::max(worst_energy_a, std::abs(energy_a[k]));
  }
  MESSAGE("max |angle difference| " << worst_angle << ", max rod residual " << worst_rod
                                    << ", max |E| Cartesian " << worst_energy_c << ", angles "
                                    << worst_energy_a << ", " << cartesian->selection_changes()
                                    << " state re-selections");
  // Two independent formulations of the same motion, each with a global error of order
  // rel_tol: over 2 s the double pendulum released from the horizontal does not yet amplify
  // differences much (it does later: the motion is chaotic), so the angles agree within
  // 100 rel_tol, as the single pendulum's do over 10 s (test_cartesian_pendulum.cpp).
  CHECK(worst_angle <= 100 * kRelTol);
  // Released at rest at the height of the pivot, E = 0. No damping: E is conserved up to the
  // integration error, 100 rel_tol of the energy the motion exchanges, at most the potential
  // (m1 + m2) g (L1 + L2) = 19.6 J.
  const double energy_scale = (p.mass1_kg + p.mass2_kg) * p.gravity_mps2 * (L1 + L2);
  CHECK(worst_energy_c <= 100 * kRelTol * energy_scale);
  CHECK(worst_energy_a <= 100 * kRelTol * energy_scale);
  // The rods hold to the Newton tolerance on every row (0.01 of rel_tol times the unknowns'
  // size in the root-mean-square norm over the reduced model's 22 unknowns, so a few times
  // that in a single one): 0.1 rel_tol of the squared length of the chain.
  CHECK(worst_rod <= 0.1 * kRelTol * (L1 + L2) * (L1 + L2));
}

TEST_CASE("the Cartesian double pendulum keeps its energy at a tight tolerance with defaults") {
  // Released at rest from the horizontal: the energy is 0 (both bobs at y = 0) and the motion
  // conserves it. 10 s at rel_tol 1e-10, nothing but stop time, tolerance and output grid set:
  // the reduced form must keep the energy as well as the angle form does (within a factor of
  // 10; both drift by their global error, a multiple of rel_tol times the 19.6 J swing of the
  // potential energy), without a storm of failed error tests (IDA rejects a step now and then
  // on a smooth solution: 1 in 20 at most).
  const models::DoublePendulumParameters p;
  SimulationOptions o;
  o.stop_s = 10.0;
  o.rel_tol = 1e-10;
  o.output_interval_s = 0.01;
  const auto worst_energy = [](const SimulationResult& r) {
    double worst = 0.0;
    for (const double e : r.table.column("energy")) worst = std::max(worst, std::abs(e));
    return worst;
  };
  auto cartesian = models::make_double_cartesian_pendulum(p);
  const SimulationResult c = simulate(*cartesian, o);
  REQUIRE(c.status.ok());
  models::DoublePendulum angles(p);
  const SimulationResult a = simulate(angles, o);
  REQUIRE(a.status.ok());
  MESSAGE("energy error: Cartesian "
          << worst_energy(c) << " J, angles " << worst_energy(a) << " J; Cartesian steps "
          << c.statistics.steps << ", error-test failures " << c.statistics.error_test_failures);
  CHECK(worst_energy(c) <= 10.0 * worst_energy(a));
  CHECK(c.statistics.error_test_failures * 20 <= c.statistics.steps);
}
