// The tank with an overflow (models/tank_overflow.hpp): Q_x is a guarded substitute equation
// whose guards are crossings. Closed form with the defaults: h = 0.5 t until h_max = 1 m at
// t = 2 s, h = 1 m while the overflow takes Q_in - Q_o = 0.5 m3/s, and from the inflow's drop
// at 3 s on h = 1 - 0.3 (t - 3) with no overflow.
#include <cmath>

#include <doctest/doctest.h>

#include "hdae/models/tank_overflow.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

double exact_h(double t) {
  if (t <= 2.0) return 0.5 * t;
  if (t <= 3.0) return 1.0;
  return 1.0 - 0.3 * (t - 3.0);
}

double exact_overflow(double t) { return t > 2.0 && t < 3.0 ? 0.5 : 0.0; }

SimulationResult run(models::TankOverflow& tank, double stop = 5.0) {
  SimulationOptions o;
  o.stop_s = stop;
  o.rel_tol = 1e-8;
  o.output_interval_s = 0.05;
  return simulate(tank, o);
}

}  // namespace

TEST_CASE("the tank fills, overflows at h_max and drains with the closed-form slopes") {
  models::TankOverflow tank;
  const SimulationResult r = run(tank);
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  // The crossing h - h_max is located at t = 2 s to IDA's root tolerance.
  bool reached = false;
  for (const EventRecord& e : r.events) {
    for (const CrossingRecord& c : e.crossings) {
      if (c.crossing == "h >= h_max" && c.direction == CrossingDirection::kRising) {
        CHECK(e.t == doctest::Approx(2.0).epsilon(1e-8));
        reached = true;
      }
    }
  }
  CHECK(reached);
  const std::size_t h = r.table.column_index("h");
  const std::size_t q = r.table.column_index("Q_x");
  for (std::size_t i = 0; i < r.table.num_rows(); ++i) {
    const double t = r.table.time(i);
    // Rows at the switching instants hold either limit; the slopes are constant in between,
    // so IDA's polynomials are exact up to the Newton and root tolerances.
    if (std::abs(t - 2.0) < 1e-6 || std::abs(t - 3.0) < 1e-6) continue;
    CAPTURE(t);
    CHECK(std::abs(r.table.value(i, h) - exact_h(t)) < 1e-7);
    CHECK(r.table.value(i, q) == doctest::Approx(exact_overflow(t)).epsilon(1e-9));
  }
  CHECK(r.table.final_value("h") == doctest::Approx(0.4).epsilon(1e-8));
  // The event handler reads the substituted Q_x: at the last event (the inflow's drop, or
  // the level leaving h_max right after it) the overflow has stopped.
  CHECK(tank.overflow_at_last_event() == 0.0);
  // Stopped while it overflows, the last event it saw (reaching h_max, or the end) has
  // Q_x = Q_in - Q_o.
  REQUIRE(run(tank, 2.5).status.ok());
  CHECK(tank.overflow_at_last_event() == doctest::Approx(0.5).epsilon(1e-12));
}

TEST_CASE("a tank whose inflow never exceeds the outflow has no overflow") {
  models::TankOverflow tank({.inflow_m3ps = 0.4, .h_start_m = 0.9});
  const SimulationResult r = run(tank);
  REQUIRE(r.status.ok());
  for (const double q : r.table.column("Q_x")) CHECK(q == 0.0);
  // h = 0.9 - 0.1 t to t = 3 s, then 0.6 - 0.3 (t - 3).
  CHECK(std::abs(r.table.final_value("h")) < 1e-7);
}
