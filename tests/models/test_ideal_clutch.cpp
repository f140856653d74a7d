// The ideal clutch (models/ideal_clutch.hpp): Dirac impulses at engagement found by the jump
// solve, none at the release, and the phases in between against their closed-form solution.
#include <cmath>

#include <doctest/doctest.h>

#include "hdae/models/ideal_clutch.hpp"
#include "hdae/simulator.hpp"
#include "models/event_rows.hpp"

using namespace hdae;
using models::testing::event_rows;
using models::testing::find_jump;
using models::testing::initial_row;
using models::testing::value;

namespace {

constexpr double kRelTol = 1e-8;

SimulationResult run_clutch(models::IdealClutch& model) {
  SimulationOptions options;
  options.stop_s = 500.0;
  options.rel_tol = kRelTol;
  return simulate(model, options);
}

// The jump solve stops at a nominal-scaled residual of jump_tol_factor * rel_tol (default
// 1e-3 * rel_tol); the jump systems here are linear and well conditioned (entries of order
// 0.1 to 1), so a factor 10 over that bounds the error of x^+ relative to its nominal (10 rad/s
// for the speeds, 1 N m s for tau_int).
constexpr double kJumpTol = 10 * 1e-3 * kRelTol;

}  // namespace

TEST_CASE("an engaging ideal clutch gives both shafts 6.4 rad/s right after t = 0") {
  models::IdealClutch model;
  const SimulationResult result = run_clutch(model);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  const models::IdealClutchParameters& p = model.parameters();
  const double j1_eff = model.effective_inertia1_kgm2();  // J1 + k^2 C = 0.225 kg m^2
  CHECK(j1_eff == doctest::Approx(0.225));

  // (J1 + k^2 C) w1 + J2 w2 is conserved over the impulse (the capacitor current C k der(w1)
  // carries the impulse too): 0.225 * 0 + 0.4 * 10 = 0.625 w  ->  w = 6.4 rad/s.
  const double w_expected =
      (j1_eff * p.w1_start_radps + p.inertia2_kgm2 * p.w2_start_radps) / (j1_eff + p.inertia2_kgm2);
  CHECK(w_expected == doctest::Approx(6.4));
  // Both limits at t0, as at every event: row 0 holds the start values x^-(t0), row 1 x^+(t0).
  REQUIRE(initial_row(result.table) == 1);
  CHECK(value(result.table, 0, "w1") == p.w1_start_radps);
  CHECK(value(result.table, 0, "w2") == p.w2_start_radps);
  CHECK(std::abs(value(result.table, 1, "w1") - w_expected) < kJumpTol * 10.0);
  CHECK(std::abs(value(result.table, 1, "w2") - w_expected) < kJumpTol * 10.0);

  // The angular impulse on shaft 2 is J2 (w^+ - w2^-) = 0.4 (6.4 - 10) = -1.44 N m s; tau is the
  // torque shaft 1 exerts on shaft 2, so this is the jump of tau_int.
  const EventRecord& initial = result.events.front();
  REQUIRE(initial.kind == EventKind::kInitial);
  const JumpRecord* tau_int = find_jump(initial, "tau_int");
  REQUIRE(tau_int != nullptr);
  CHECK(tau_int->before == 0.0);
  CHECK(std::abs(tau_int->after - p.inertia2_kgm2 * (w_expected - p.w2_start_radps)) < kJumpTol);
  CHECK(std::abs(tau_int->after - (-1.44)) < kJumpTol);
  const JumpRecord* w2 = find_jump(initial, "w2");
  REQUIRE(w2 != nullptr);
  CHECK(w2->before == 10.0);
}

TEST_CASE("releasing the clutch at t = 100 s causes no jump and engaging at 300 s does") {
  models::IdealClutch model;
  const SimulationResult result = run_clutch(model);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  REQUIRE(result.events.size() == 3);  // initial, release, engage

  const EventRecord& release = result.events[1];
  CHECK(release.kind == EventKind::kTime);
  CHECK(release.t == 100.0);
  REQUIRE(release.time_events.size() == 1);
  CHECK(release.time_events[0] == "release");
  // Released, the clutch row is the f_d row tau = 0: the jump solve must leave x unchanged.
  for (const JumpRecord& j : release.jumps) CHECK(std::abs(j.after - j.before) < kJumpTol);
  const auto rows_100 = event_rows(result.table, 100.0);
  REQUIRE(rows_100);
  CHECK(value(result.table, rows_100->second, "engaged") == 0.0);
  CHECK(value(result.table, rows_100->first, "engaged") == 1.0);

  const EventRecord& engage = result.events[2];
  CHECK(engage.t == 300.0);
  REQUIRE(engage.time_events.size() == 1);
  CHECK(engage.time_events[0] == "engage");
  const JumpRecord* w1 = find_jump(engage, "w1");
  const JumpRecord* w2 = find_jump(engage, "w2");
  const JumpRecord* tau_int = find_jump(engage, "tau_int");
  REQUIRE(w1 != nullptr);
  REQUIRE(w2 != nullptr);
  REQUIRE(tau_int != nullptr);
  // Shaft 1 ran ahead while released (w1 -> 40 rad/s, w2 constant), so the speeds really jump.
  CHECK(w1->before - w2->before > 10.0);
  CHECK(std::abs(w1->after - w2->after) < kJumpTol * 10.0);
  // (J1 + k^2 C) w1 + J2 w2 conserved, and the impulse on shaft 2 is the jump of tau_int.
  const double j1_eff = model.effective_inertia1_kgm2();
  const double j2 = model.parameters().inertia2_kgm2;
  const double momentum_before = j1_eff * w1->before + j2 * w2->before;
  const double momentum_after = j1_eff * w1->after + j2 * w2->after;
  CHECK(std::abs(momentum_after - momentum_before) < kJumpTol * 10.0);
  CHECK(std::abs(j2 * (w2->after - w2->before) - (tau_int->after - tau_int->before)) <
        kJumpTol * 10.0);
}

TEST_CASE("the clutch speeds follow the closed-form solution of the engaged and released phases") {
  // Each phase is a first-order linear ODE (add the shaft equations; i_C = C k der(w1)):
  //   engaged  (w1 = w2 = w): (J1 + k^2 C + J2) w' = k (V0 - k w)/R
  //            -> w(t) = V0/k + (w(t_a) - V0/k) exp(-(t - t_a)/T_e), T_e = R (J1+k^2C+J2)/k^2
  //   released: (J1 + k^2 C) w1' = k (V0 - k w1)/R -> the same with T_1 = R (J1 + k^2 C)/k^2,
  //            w2' = 0 (shaft 2 runs free).
  // For the published case V0/k = 40 rad/s, T_e = 100 s, T_1 = 36 s.
  models::IdealClutch model;
  const SimulationResult result = run_clutch(model);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  const models::IdealClutchParameters& p = model.parameters();
  const double k = p.emf_constant_nmpa;
  const double w_inf = p.source_voltage_v / k;
  const double j1_eff = model.effective_inertia1_kgm2();
  const double t_engaged = p.resistance_ohm * (j1_eff + p.inertia2_kgm2) / (k * k);
  const double t_released = p.resistance_ohm * j1_eff / (k * k);
  CHECK(t_engaged == doctest::Approx(100.0));
  CHECK(t_released == doctest::Approx(36.0));
  const auto relax = [w_inf](double w_start, double duration, double time_constant) {
    return w_inf + (w_start - w_inf) * std::exp(-duration / time_constant);
  };
  const double w_0 = 6.4;
  const double w_100 = relax(w_0, 100.0, t_engaged);
  const double w1_300 = relax(w_100, 200.0, t_released);
  const double w2_300 = w_100;
  const double w_300 = (j1_eff * w1_300 + p.inertia2_kgm2 * w2_300) / (j1_eff + p.inertia2_kgm2);
  const double w_500 = relax(w_300, 200.0, t_engaged);

  // IDA controls the local error to rel_tol; over these smooth, stable phases (time constants
  // of 36-100 s, a few hundred steps) the global error stays within 100 rel_tol of the size of
  // the solution (40 rad/s).
  const double tol = 100 * kRelTol * w_inf;
  const auto rows_100 = event_rows(result.table, 100.0);
  const auto rows_300 = event_rows(result.table, 300.0);
  REQUIRE(rows_100);
  REQUIRE(rows_300);
  CHECK(std::abs(value(result.table, rows_100->first, "w1") - w_100) < tol);
  CHECK(std::abs(value(result.table, rows_100->first, "w2") - w_100) < tol);
  CHECK(std::abs(value(result.table, rows_300->first, "w1") - w1_300) < tol);
  CHECK(std::abs(value(result.table, rows_300->first, "w2") - w2_300) < tol);
  CHECK(std::abs(value(result.table, rows_300->second, "w1") - w_300) < tol);
  CHECK(std::abs(result.table.final_value("w1") - w_500) < tol);
  CHECK(std::abs(result.table.final_value("w2") - w_500) < tol);
  CHECK(result.table.time().back() == 500.0);
}
