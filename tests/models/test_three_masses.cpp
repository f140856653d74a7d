// Three masses with two end stops hit at the same instant (models/three_masses.hpp; the ITI
// paper, example 3): one event, two simultaneous impacts, both impulses from one jump solve.
#include <array>
#include <cmath>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/models/three_masses.hpp"
#include "hdae/simulator.hpp"
#include "models/event_rows.hpp"

using namespace hdae;
using models::testing::event_rows;
using models::testing::events_of_kind;
using models::testing::find_jump;
using models::testing::value;

namespace {

constexpr double kRelTol = 1e-8;
// The jump solve stops at a nominal-scaled residual of jump_tol_factor * rel_tol (default
// 1e-3 * rel_tol); the impact system is linear with entries of order m (1 to 3 kg), so a factor
// 10 over that bounds the error of velocities, impulses and momentum at the jump.
constexpr double kJumpTol = 10 * 1e-3 * kRelTol;

}  // namespace

TEST_CASE("two end stops closing at the same instant give one event with both impacts") {
  models::ThreeMasses model;  // m = (1, 2, 3) kg, v = (2, 0, -1) m/s, ci = 0.6, both at 0.5 s
  SimulationOptions options;
  options.stop_s = 2.0;
  options.rel_tol = kRelTol;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);

  const auto impacts = events_of_kind(result, EventKind::kState);
  REQUIRE(impacts.size() == 1);
  CHECK(result.statistics.state_events == 1);
  const EventRecord& event = *impacts[0];
  // Gaps of 1 m and 0.5 m close at 2 m/s and 1 m/s; positions are linear in t, which BDF
  // integrates exactly, so the root lies within the crossing hysteresis (1e-10 m) and IDA's
  // root tolerance of 0.5 s.
  CHECK(std::abs(event.t - 0.5) < 1e-9);
  REQUIRE(event.crossings.size() == 2);
  CHECK(event.crossings[0].crossing == "s2 - s1 - d < 0");
  CHECK(event.crossings[1].crossing == "s3 - s2 - d < 0");
  // Pass 1 applies both impacts in one jump solve; pass 2 returns the stop rows to F = 0.
  CHECK(event.iterations == 2);
  CHECK(model.impacts() == std::array{1, 1});

  const auto rows = event_rows(result.table, event.t);
  REQUIRE(rows);
  const ResultTable& table = result.table;
  const std::array<double, 3>& m = model.parameters().masses_kg;
  const std::array<double, 2>& ci = model.parameters().restitution;
  std::array<double, 3> before{};
  std::array<double, 3> after{};
  for (std::size_t i = 0; i < 3; ++i) {
    const JumpRecord* jump = find_jump(event, i == 0 ? "v1" : i == 1 ? "v2" : "v3");
    REQUIRE(jump != nullptr);
    before[i] = jump->before;
    after[i] = jump->after;
  }
  // Momentum is conserved (the stop forces are internal).
  CHECK(std::abs((m[0] * after[0] + m[1] * after[1] + m[2] * after[2]) -
                 (m[0] * before[0] + m[1] * before[1] + m[2] * before[2])) < kJumpTol);
  // Both impact laws of the paper: 0 = v_{k+1} - v_k + ci_k (v_{k+1}^- - v_k^-).
  CHECK(std::abs((after[1] - after[0]) + ci[0] * (before[1] - before[0])) < kJumpTol);
  CHECK(std::abs((after[2] - after[1]) + ci[1] * (before[2] - before[1])) < kJumpTol);
  // The same, solved by hand for v^- = (2, 0, -1): with V1 = v1^+, momentum 2 - 3 = -1 and the
  // laws V2 = V1 + 1.2, V3 = V2 + 0.6 give 6 V1 + 2 * 1.2 + 3 * 1.8 = -1, V1 = -22/15.
  CHECK(std::abs(after[0] - (-22.0 / 15.0)) < kJumpTol);
  CHECK(std::abs(after[1] - (-4.0 / 15.0)) < kJumpTol);
  CHECK(std::abs(after[2] - 1.0 / 3.0) < kJumpTol);
  // The stop impulses are the jumps of p_int1 = m1 (v1^- - v1^+) = 52/15 N s and
  // p_int2 = m3 (v3^+ - v3^-) = 4 N s; both compressive.
  CHECK(std::abs(value(table, rows->second, "p_int1") - 52.0 / 15.0) < kJumpTol);
  CHECK(std::abs(value(table, rows->second, "p_int2") - 4.0) < kJumpTol);
  // All three separate: no further events, velocities unchanged to the end.
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(std::abs(table.final_value(i == 0 ? "v1" : i == 1 ? "v2" : "v3") - after[i]) < kJumpTol);
  }
}

TEST_CASE("three masses reject a plastic end stop with a message saying why") {
  models::ThreeMassesParameters p;
  p.restitution = {0.6, 0.0};
  CHECK_THROWS_WITH_AS(models::ThreeMasses{p},
                       "model 'three_masses': parameter 'ci2' (restitution of end stop 2; > 0, as "
                       "a plastic stop would keep its masses in contact, which this model does "
                       "not represent) must be a finite number in [5e-324, 1], got 0",
                       ModelError);
}
