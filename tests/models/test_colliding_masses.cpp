// Two colliding masses (models/colliding_masses.hpp): the impact is found by the jump solve
// from the momentum balances and Newton's restitution law, with no hand-written formula.
#include <cmath>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "hdae/models/colliding_masses.hpp"
#include "hdae/simulator.hpp"
#include "models/event_rows.hpp"

using namespace hdae;
using models::testing::event_rows;
using models::testing::events_of_kind;
using models::testing::value;

namespace {

constexpr double kRelTol = 1e-8;
// The jump solve stops at a nominal-scaled residual of jump_tol_factor * rel_tol (default
// 1e-3 * rel_tol); the impact system is linear with entries of order m (1 to 3 kg here), so a
// factor 10 over that bounds the error of momentum, velocities and energy at the jump.
constexpr double kJumpTol = 10 * 1e-3 * kRelTol;

SimulationResult run(models::CollidingMasses& model, double stop_s) {
  SimulationOptions options;
  options.stop_s = stop_s;
  options.rel_tol = kRelTol;
  return simulate(model, options);
}

}  // namespace

TEST_CASE("equal masses in a plastic impact move on together at 0.5 m/s") {
  models::CollidingMasses model;  // m1 = m2 = 1 kg, e = 0, u = (1, 0) m/s, gap 0.5 m
  const SimulationResult result = run(model, 2.0);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  const auto impacts = events_of_kind(result, EventKind::kState);
  REQUIRE(impacts.size() == 1);
  CHECK(model.impacts() == 1);
  // The gap of 0.5 m closes at 1 m/s. Positions grow linearly, which BDF integrates exactly;
  // the root lies past zero by the crossing hysteresis (1e-10 of the 0.5 m nominal) plus IDA's
  // root location tolerance (about 100 unit roundoffs of t): well inside 1e-9 s.
  CHECK(std::abs(impacts[0]->t - 0.5) < 1e-9);
  const auto rows = event_rows(result.table, impacts[0]->t);
  REQUIRE(rows);
  // Momentum 1 kg m/s shared by 2 kg: 0.5 m/s each; the impulse on mass 2 is 0.5 N s.
  CHECK(std::abs(value(result.table, rows->second, "v1") - 0.5) < kJumpTol);
  CHECK(std::abs(value(result.table, rows->second, "v2") - 0.5) < kJumpTol);
  CHECK(std::abs(value(result.table, rows->second, "p_int") - 0.5) < kJumpTol);
  // Stuck together, nothing else happens: no further events, the common speed stays.
  CHECK(std::abs(result.table.final_value("v1") - 0.5) < kJumpTol);
  CHECK(std::abs(result.table.final_value("v2") - 0.5) < kJumpTol);
}

TEST_CASE(
    "an impact conserves momentum, obeys the restitution law and loses the classical energy") {
  for (const double e : {0.0, 0.3, 0.6, 1.0}) {
    CAPTURE(e);
    models::CollidingMassesParameters p;
    p.mass1_kg = 1.0;
    p.mass2_kg = 3.0;
    p.restitution = e;
    p.v1_start_mps = 2.0;
    p.v2_start_mps = -1.0;
    models::CollidingMasses model(p);
    const SimulationResult result = run(model, 1.0);
    REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
    const auto impacts = events_of_kind(result, EventKind::kState);
    REQUIRE(impacts.size() == 1);
    const auto rows = event_rows(result.table, impacts[0]->t);
    REQUIRE(rows);
    const ResultTable& table = result.table;
    const double v1_before = value(table, rows->first, "v1");
    const double v2_before = value(table, rows->first, "v2");
    const double v1_after = value(table, rows->second, "v1");
    const double v2_after = value(table, rows->second, "v2");
    // Free flight leaves the velocities at their start values.
    CHECK(v1_before == doctest::Approx(2.0).epsilon(kRelTol));
    CHECK(v2_before == doctest::Approx(-1.0).epsilon(kRelTol));

    const double m1 = p.mass1_kg;
    const double m2 = p.mass2_kg;
    CHECK(std::abs((m1 * v1_after + m2 * v2_after) - (m1 * v1_before + m2 * v2_before)) < kJumpTol);
    CHECK(std::abs((v2_after - v1_after) + e * (v2_before - v1_before)) < kJumpTol);
    // Classical result: the kinetic energy drops by m1 m2 / (2 (m1 + m2)) (1 - e^2) (u1 - u2)^2.
    const double loss_expected =
        m1 * m2 / (2 * (m1 + m2)) * (1 - e * e) * (v1_before - v2_before) * (v1_before - v2_before);
    const double loss =
        value(table, rows->first, "kinetic_energy") - value(table, rows->second, "kinetic_energy");
    CHECK(std::abs(loss - loss_expected) < kJumpTol * 10.0);  // energies of order 5 J
    // The contact impulse is the jump of p_int: m2 (v2^+ - v2^-).
    CHECK(std::abs(value(table, rows->second, "p_int") - m2 * (v2_after - v2_before)) < kJumpTol);
    // After the impact no force acts: the velocities stay until the end.
    CHECK(std::abs(table.final_value("v1") - v1_after) < kJumpTol);
    CHECK(std::abs(table.final_value("v2") - v2_after) < kJumpTol);
  }
}

TEST_CASE("colliding masses reject a restitution coefficient outside [0, 1]") {
  models::CollidingMassesParameters p;
  p.restitution = 1.5;
  CHECK_THROWS_WITH_AS(
      models::CollidingMasses{p},
      "model 'colliding_masses': parameter 'e' (coefficient of restitution; 0: plastic impact, the "
      "masses stick) must be a finite number in [0, 1], got 1.5",
      ModelError);
}
