// The jumps of the event log: a variable is listed when its change at the event exceeds the
// jump solve's own precision, |x^+ - x^-| > jump_tol_factor * rel_tol * max(nominal, |x^-|),
// so round-off left by the Newton iteration of the jump solve is not reported as a jump while
// real impulses are, with their before and after values.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "hdae/models/colliding_masses.hpp"
#include "hdae/models/pendulum_dae.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

constexpr double kRelTol = 1e-8;
// The jump solve stops at a nominal-scaled residual of jump_tol_factor * rel_tol (default
// 1e-3 * rel_tol); both jump systems below are linear or mildly non-linear with entries of
// order one, so a factor 10 over that bounds the error of the values after the jump.
constexpr double kJumpTol = 10 * 1e-3 * kRelTol;

const JumpRecord* find_jump(const EventRecord& event, const std::string& variable) {
  for (const JumpRecord& j : event.jumps) {
    if (j.variable == variable) return &j;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("the event log omits variables that the jump solve changed only by round-off") {
  // The pendulum starts at (0.5, -0.5) with velocity (1, 1): off its circle, but the velocity
  // is already tangential. The projection moves the position radially (x, y and the impulse
  // mue_int jump), while vx, vy and the impulse lambda_int stay where they are: the Newton
  // iteration leaves them changed by a few ulps at most, which is no jump.
  models::PendulumDae model;
  SimulationOptions options;
  options.stop_s = 0.1;
  options.rel_tol = kRelTol;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  REQUIRE_FALSE(result.events.empty());
  const EventRecord& initial = result.events.front();
  REQUIRE(initial.kind == EventKind::kInitial);

  CHECK(find_jump(initial, "vx") == nullptr);
  CHECK(find_jump(initial, "vy") == nullptr);
  CHECK(find_jump(initial, "lambda_int") == nullptr);

  // Radial projection of (0.5, -0.5) onto the unit circle: (1, -1) / sqrt(2).
  const double r = 1.0 / std::sqrt(2.0);
  const JumpRecord* x = find_jump(initial, "x");
  REQUIRE(x != nullptr);
  CHECK(x->before == 0.5);
  CHECK(std::abs(x->after - r) < kJumpTol);
  const JumpRecord* y = find_jump(initial, "y");
  REQUIRE(y != nullptr);
  CHECK(y->before == -0.5);
  CHECK(std::abs(y->after + r) < kJumpTol);
  CHECK(find_jump(initial, "mue_int") != nullptr);
  CHECK(initial.jumps.size() == 3);
}

TEST_CASE("an impact is logged with the velocities before and after, positions do not jump") {
  // Plastic impact of equal masses: v1 = 1 m/s hits v2 = 0, both move on with the common
  // velocity (m1 v1 + m2 v2) / (m1 + m2) = 0.5 m/s; the contact impulse p_int jumps by
  // m2 (v2^+ - v2^-) = 0.5 N s. The positions are continuous.
  models::CollidingMasses model;
  SimulationOptions options;
  options.stop_s = 1.0;  // the gap of 0.5 m closes at 1 m/s after 0.5 s
  options.rel_tol = kRelTol;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  const EventRecord* impact = nullptr;
  for (const EventRecord& e : result.events) {
    if (e.kind == EventKind::kState) impact = &e;
  }
  REQUIRE(impact != nullptr);

  const JumpRecord* v1 = find_jump(*impact, "v1");
  REQUIRE(v1 != nullptr);
  // v1^- comes from integrating der(v1) = 0 over free flight: exact up to IDA's tolerance.
  CHECK(std::abs(v1->before - 1.0) < kRelTol);
  CHECK(std::abs(v1->after - 0.5) < kJumpTol);
  const JumpRecord* v2 = find_jump(*impact, "v2");
  REQUIRE(v2 != nullptr);
  CHECK(std::abs(v2->before) < kRelTol);
  CHECK(std::abs(v2->after - 0.5) < kJumpTol);
  const JumpRecord* p_int = find_jump(*impact, "p_int");
  REQUIRE(p_int != nullptr);
  CHECK(std::abs((p_int->after - p_int->before) - 0.5) < kJumpTol);
  CHECK(find_jump(*impact, "s1") == nullptr);
  CHECK(find_jump(*impact, "s2") == nullptr);
  CHECK(impact->jumps.size() == 3);
}
