// Free rigid body rotation with a quaternion (models/free_body_rotation.hpp): projection of an
// unnormalised start onto |Q| = 1, the constraint along the run, and torque-free motions with
// closed-form solutions.
#include <array>
#include <cmath>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "hdae/models/free_body_rotation.hpp"
#include "hdae/simulator.hpp"
#include "models/event_rows.hpp"

using namespace hdae;
using models::testing::initial_row;
using models::testing::value;

namespace {

constexpr double kRelTol = 1e-8;
// The jump solve stops at a nominal-scaled residual of jump_tol_factor * rel_tol (default
// 1e-3 * rel_tol); a factor 10 covers the conditioning of the projection (entries of order 1).
constexpr double kJumpTol = 10 * 1e-3 * kRelTol;

using Quaternion = std::array<double, 4>;  // (Q1, Q2, Q3, Q4), Q4 the scalar part

/// Hamilton product a (x) b.
Quaternion multiply(const Quaternion& a, const Quaternion& b) {
  return {a[3] * b[0] + b[3] * a[0] + a[1] * b[2] - a[2] * b[1],
          a[3] * b[1] + b[3] * a[1] + a[2] * b[0] - a[0] * b[2],
          a[3] * b[2] + b[3] * a[2] + a[0] * b[1] - a[1] * b[0],
          a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
}

SimulationResult run(const models::FreeBodyRotationParameters& p, double stop_s) {
  models::FreeBodyRotation model(p);
  SimulationOptions options;
  options.stop_s = stop_s;
  options.rel_tol = kRelTol;
  return simulate(model, options);
}

std::string q_name(std::size_t i) { return fmt::format("Q{}", i + 1); }
std::string w_name(std::size_t i) { return fmt::format("w{}", i + 1); }

}  // namespace

TEST_CASE("an unnormalised start quaternion is projected to Q0/|Q0| and |Q| = 1 holds") {
  const models::FreeBodyRotationParameters p;  // ModiaMath's case, Q0 = (0.1, 0.5, 0, 1)
  const SimulationResult result = run(p, 5.0);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  const ResultTable& table = result.table;
  // The f_d rows der(Q) = ... - mue Q allow a jump only along Q_m (mue is an impulse), so the
  // jump is radial: Q0^+ = Q0/|Q0| with |Q0| = sqrt(1.26).
  const double norm = std::sqrt(0.1 * 0.1 + 0.5 * 0.5 + 1.0);
  for (std::size_t i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(std::abs(value(table, initial_row(table), q_name(i)) - p.q_start[i] / norm) < kJumpTol);
  }
  // The angular velocity has no impulse (its rows carry no multiplier): w stays 0.
  for (std::size_t i = 0; i < 3; ++i) CHECK(value(table, initial_row(table), w_name(i)) == 0.0);
  // Along the run, IDA's Newton iteration meets the f_c row Q.Q - 1 = 0 to a fraction of its
  // local error test: within 10 rel_tol (the row's scale is 1).
  const std::vector<double> q_norm = table.column("|Q|");
  for (std::size_t i = initial_row(table); i < q_norm.size(); ++i) {
    CAPTURE(table.time(i));
    CHECK(std::abs(q_norm[i] - 1.0) < 10 * kRelTol);
  }
}

TEST_CASE("a torque-free spherical body keeps its angular velocity and turns about it") {
  models::FreeBodyRotationParameters p;
  p.inertia_kgm2 = {2.0, 2.0, 2.0};
  p.torque_amplitude_nm = {0.0, 0.0, 0.0};
  p.w_start_radps = {1.0, 2.0, 3.0};
  const SimulationResult result = run(p, 5.0);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  const ResultTable& table = result.table;
  // Equal inertias cancel the gyroscopic term exactly, so der(w) = 0 and w stays bitwise.
  for (std::size_t i = initial_row(table); i < table.num_rows(); ++i) {
    for (std::size_t k = 0; k < 3; ++k) {
      CHECK(value(table, i, w_name(k)) == p.w_start_radps[k]);
    }
  }
  // With constant body rates w, der(Q) = 1/2 Q (x) (w, 0) gives
  // Q(t) = Q(0+) (x) (sin(|w| t/2) w/|w|, cos(|w| t/2)).
  const double w_abs = std::sqrt(1.0 + 4.0 + 9.0);
  Quaternion q0{};
  for (std::size_t k = 0; k < 4; ++k) q0[k] = value(table, initial_row(table), q_name(k));
  for (std::size_t i = initial_row(table); i < table.num_rows(); ++i) {
    const double t = table.time(i);
    CAPTURE(t);
    const double s = std::sin(w_abs * t / 2.0) / w_abs;
    const Quaternion rotation{s * 1.0, s * 2.0, s * 3.0, std::cos(w_abs * t / 2.0)};
    const Quaternion expected = multiply(q0, rotation);
    for (std::size_t k = 0; k < 4; ++k) {
      // IDA's global error over these 5 s (about 3 turns) stays within 100 rel_tol of |Q| = 1.
      CHECK(std::abs(value(table, i, q_name(k)) - expected[k]) < 100 * kRelTol);
    }
  }
}

TEST_CASE("a torque-free symmetric top keeps its spin and precesses at (I3 - I1)/I1 w3") {
  // I1 = I2 = 1, I3 = 2: Euler's equations give w3' = 0 and, for the transverse rates,
  // w1' = -W w2, w2' = W w1 with W = (I3 - I1)/I1 w3 = 2 rad/s: w1 = cos(2t), w2 = sin(2t).
  models::FreeBodyRotationParameters p;
  p.inertia_kgm2 = {1.0, 1.0, 2.0};
  p.torque_amplitude_nm = {0.0, 0.0, 0.0};
  p.w_start_radps = {1.0, 0.0, 2.0};
  const SimulationResult result = run(p, 5.0);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  const ResultTable& table = result.table;
  for (std::size_t i = initial_row(table); i < table.num_rows(); ++i) {
    const double t = table.time(i);
    CAPTURE(t);
    // w3' = (I1 - I2) w1 w2 / I3 = 0 exactly.
    CHECK(value(table, i, "w3") == 2.0);
    // Global error within 100 rel_tol of the rates' size (1 rad/s) over 5 s (1.6 periods).
    CHECK(std::abs(value(table, i, "w1") - std::cos(2.0 * t)) < 100 * kRelTol);
    CHECK(std::abs(value(table, i, "w2") - std::sin(2.0 * t)) < 100 * kRelTol);
  }
}
