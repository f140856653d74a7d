// Mosterman's hydraulic actuator (models/hydraulic_actuator.hpp; paper 002, section 5): the
// jump solve reproduces the published consistent state of eq. 51.
#include <cmath>

#include <doctest/doctest.h>

#include "hdae/models/hydraulic_actuator.hpp"
#include "hdae/simulator.hpp"
#include "models/event_rows.hpp"

using namespace hdae;
using models::testing::initial_row;
using models::testing::value;

namespace {

constexpr double kRelTol = 1e-8;
// The jump solve stops at a nominal-scaled residual of jump_tol_factor * rel_tol (default
// 1e-3 * rel_tol); a factor 10 covers the conditioning (entries of order 0.2 to 5).
constexpr double kJumpTol = 10 * 1e-3 * kRelTol;

SimulationResult run() {
  models::HydraulicActuator model;
  SimulationOptions options;
  options.stop_s = 10.0;
  options.rel_tol = kRelTol;
  return simulate(model, options);
}

}  // namespace

TEST_CASE("the hydraulic actuator jumps from eq. 43 to the published consistent state eq. 51") {
  const SimulationResult result = run();
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  const ResultTable& table = result.table;
  // Eq. 51 with its 6 significant digits: relative 1e-5 (zeros compared absolutely).
  CHECK(value(table, initial_row(table), "f_p") == doctest::Approx(1.0).epsilon(1e-5));
  CHECK(value(table, initial_row(table), "f_rel") == doctest::Approx(-1.0).epsilon(1e-5));
  CHECK(value(table, initial_row(table), "p_Rrel") == doctest::Approx(-5.00044).epsilon(1e-5));
  CHECK(std::abs(value(table, initial_row(table), "p_Rin")) < kJumpTol);
  // The same from the equations: the f_d row integrated over the impulse conserves
  // -f_p + 2 f_rel = -3; with f_rel = -f_p that gives f_p = 1, and p_Rrel = -5 f_p / 0.999911.
  CHECK(std::abs(value(table, initial_row(table), "f_p") - 1.0) < kJumpTol);
  CHECK(std::abs(value(table, initial_row(table), "f_rel") + 1.0) < kJumpTol);
  CHECK(std::abs(value(table, initial_row(table), "p_Rrel") + 5.0 / 0.999911) <
        kJumpTol * 5.0);  // nominal 5
  // The event log lists the jumps of the initial re-initialization.
  const EventRecord& initial = result.events.front();
  REQUIRE(initial.kind == EventKind::kInitial);
  REQUIRE(initial.jumps.size() == 3);  // p_Rin stays 0
  CHECK(initial.jumps[0].variable == "f_p");
  CHECK(initial.jumps[0].before == 3.0);
}

TEST_CASE("after the switch the piston flow decays as exp(-t / (3 * 0.999911))") {
  // Substituting f_rel = -f_p and p_Rrel = -5 f_p / 0.999911 into the f_d row gives
  // -3 der(f_p) - f_p / 0.999911 = 0.
  const SimulationResult result = run();
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  const ResultTable& table = result.table;
  const double time_constant = 3.0 * 0.999911;
  for (std::size_t i = initial_row(table); i < table.num_rows(); ++i) {
    const double t = table.time(i);
    CAPTURE(t);
    // IDA's global error on this stable first-order decay stays within 100 rel_tol of f_p(0+).
    CHECK(std::abs(value(table, i, "f_p") - std::exp(-t / time_constant)) < 100 * kRelTol);
    CHECK(std::abs(value(table, i, "f_rel") + value(table, i, "f_p")) < 10 * kRelTol);
  }
}
