// The checked-in reference results (references/<example>.csv, made by
// tools/make_references at rel_tol 1e-10) against published values, analytic solutions and
// conservation laws, so that the regression comparisons compare with something trusted.
#include <array>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "compare/switched_oscillator.hpp"
#include "hdae/csv.hpp"
#include "hdae/models/andrews_squeezer.hpp"

using namespace hdae;

namespace {

/// The rel_tol of the references (examples/registry/reference_run.hpp, kReferenceRelTol; the
/// transistor amplifier's is 1e-8, its Example::reference_rel_tol).
constexpr double kRefRelTol = 1e-10;
/// The jump solve of a reference stops at a nominal-scaled residual of jump_tol_factor *
/// rel_tol (default 1e-3 * rel_tol); the jump systems of the impulse examples are linear and
/// well conditioned (entries of order 0.1 to 5), so a factor 10 over that bounds the error of
/// x^+ relative to each variable's nominal (as in tests/models/).
constexpr double kRefJumpTol = 10 * 1e-3 * kRefRelTol;

ResultTable reference(const std::string& name) {
  return read_csv(std::filesystem::path(HDAE_REFERENCE_DIR) / (name + ".csv"));
}

/// Rows i with time(i) == time(i - 1): the right limits at the events.
/// The row of x^+(t0): the last row at the start time (models/event_rows.hpp).
std::size_t initial_row(const ResultTable& t) {
  std::size_t i = 0;
  while (i + 1 < t.num_rows() && t.time(i + 1) == t.time(0)) ++i;
  return i;
}

/// Right limits of the events after t0 (the initial jump's pair of rows is not counted).
std::vector<std::size_t> right_limit_rows(const ResultTable& t) {
  std::vector<std::size_t> rows;
  for (std::size_t i = 1; i < t.num_rows(); ++i) {
    if (t.time(i) == t.time(0)) continue;
    if (t.time(i) == t.time(i - 1)) rows.push_back(i);
  }
  return rows;
}

}  // namespace

TEST_CASE("the pendulum reference reaches the published state and loses energy monotonically") {
  const ResultTable t = reference("pendulum");
  // Published (ModiaMath's pendulum test): phi(10) = 0.120289, w(10) = 0.273965, 6 decimals:
  // rounding leaves 5e-7; the reference's own error (rel_tol 1e-10) is far below.
  CHECK(t.time(t.num_rows() - 1) == 10.0);
  CHECK(std::abs(t.final_value("phi") - 0.120289) <= 5e-7);
  CHECK(std::abs(t.final_value("w") - 0.273965) <= 5e-7);
  // E = m L^2 w^2 / 2 + m g L (1 - cos phi); dE/dt = -d w^2 <= 0 (L = 0.5, m = 1, g = 9.81).
  const auto phi = t.column("phi");
  const auto w = t.column("w");
  auto energy = [&](std::size_t i) {
    return 0.5 * 0.25 * w[i] * w[i] + 9.81 * 0.5 * (1 - std::cos(phi[i]));
  };
  CHECK(energy(0) == doctest::Approx(9.81 * 0.5 * 0.5));  // phi0 = 60 deg: 1 - cos = 1/2
  for (std::size_t i = 1; i < t.num_rows(); ++i) {
    // Solver error ~ 1e-10 relative of E ~ 2.5 J: allow 1e-9 J of apparent gain.
    CHECK(energy(i) <= energy(i - 1) + 1e-9);
  }
}

TEST_CASE("the simple-state-events reference switches at the analytic event times") {
  const ResultTable t = reference("simple_state_events");
  // m = 1, k = 1, d = 0.1, f = 0 while s > 0 else 1.5; s(0) = 2, v(0) = 0. Piece by piece
  // the closed-form damped oscillation; each event starts the next piece from (0, v).
  const std::vector<double> expected = test::switched_oscillator_events(1.5, 10.0);
  REQUIRE(expected.size() == 4);
  // Published event times (ModiaMath's SimpleStateEvents test), which agree with the analytic
  // ones to the 1e-3 of that run.
  const double published[] = {1.62283, 3.36771, 6.51321, 8.04188};
  const auto rights = right_limit_rows(t);
  REQUIRE(rights.size() == 4);
  const auto f = t.column("f");
  for (std::size_t k = 0; k < 4; ++k) {
    CAPTURE(k);
    CHECK(std::abs(expected[k] - published[k]) < 1e-3);
    // Root location: IDA's crossing hysteresis 1e-10 (relative to s's nominal 1) at
    // |v| > 1 m/s, plus the global error of rel_tol 1e-10 (~100 rel_tol, as in the
    // bouncing-ball test): well below 1e-7 s.
    CHECK(std::abs(t.time(rights[k]) - expected[k]) < 1e-7);
    CHECK(f[rights[k] - 1] == (k % 2 == 0 ? 0.0 : 1.5));  // left limit: old force
    CHECK(f[rights[k]] == (k % 2 == 0 ? 1.5 : 0.0));      // right limit: new force
  }
}

TEST_CASE("the bouncing-ball reference hits the ground at the analytic impact times") {
  const ResultTable t = reference("bouncing_ball");
  const double h0 = 1.0, g = 9.81, e = 0.7, rel_tol = 1e-10;
  const double t1 = std::sqrt(2 * h0 / g);
  const double v1 = std::sqrt(2 * g * h0);
  const auto rights = right_limit_rows(t);
  // The ball rests at the first impact whose rebound e^n v1 is below 0.01 m/s: n = 18.
  REQUIRE(rights.size() == 18);
  const auto v = t.column("v");
  for (std::size_t k = 0; k < rights.size(); ++k) {
    CAPTURE(k);
    const int n = static_cast<int>(k) + 1;
    const double t_n = t1 * (1 + 2 * e * (1 - std::pow(e, n - 1)) / (1 - e));
    const double v_n = v1 * std::pow(e, n - 1);
    // As in the events test: h carries ~100 rel_tol of error, which shifts the root by
    // 100 rel_tol / v_n, plus IDA's root location.
    CHECK(std::abs(t.time(rights[k]) - t_n) < 100 * rel_tol * (1 + 1 / v_n) + 1e-9);
    CHECK(v[rights[k] - 1] == doctest::Approx(-v_n).epsilon(1e-7));
    // v := -e v at an impact (0 at rest): exact up to round-off.
    CHECK(v[rights[k]] ==
          (n < 18 ? doctest::Approx(-e * v[rights[k] - 1]).epsilon(1e-14) : doctest::Approx(0.0)));
  }
}

TEST_CASE("the mass-spring-chain reference keeps its constraint and never gains energy") {
  const ResultTable t = reference("mass_spring_chain");
  // N = 20, k = 100 N/m, end pulled out by 1 m, chain uniformly stretched: s_i = i / 20,
  // every spring force k / 20 = 5 N, energy 20 * 5^2 / (2 * 100) = 2.5 J.
  CHECK(t.value(0, t.column_index("s[1]")) == doctest::Approx(0.05));
  CHECK(t.value(0, t.column_index("s[10]")) == doctest::Approx(0.5));
  CHECK(t.value(0, t.column_index("s[20]")) == doctest::Approx(1.0));
  CHECK(t.value(0, t.column_index("energy")) == doctest::Approx(2.5));
  const auto s1 = t.column("s[1]");
  const auto f1 = t.column("f[1]");
  const auto energy = t.column("energy");
  for (std::size_t i = initial_row(t); i < t.num_rows(); ++i) {
    // The algebraic row 0 = f_1 - k s_1 holds to the Newton tolerance of rel_tol 1e-10
    // on forces of order 5 N: 1e-8 N is generous.
    CHECK(std::abs(f1[i] - 100.0 * s1[i]) < 1e-8);
    // Dampers only take energy out (dE/dt = -d sum v^2); 1e-9 J for solver error.
    if (i > 0) CHECK(energy[i] <= energy[i - 1] + 1e-9);
  }
}

namespace {

double at(const ResultTable& t, std::size_t row, const std::string& column) {
  return t.value(row, t.column_index(column));
}

}  // namespace

TEST_CASE(
    "the ideal-clutch reference shares momentum at each engagement and relaxes in closed form") {
  const ResultTable t = reference("ideal_clutch");
  // V0 = 10 V, J1 = 0.1, J2 = 0.4 kg m^2, R = 10 Ohm, C = 2 F, k = 0.25 N m/A; w1(0-) = 0,
  // w2(0-) = 10 rad/s; released at 100 s, engaged again at 300 s.
  const double j1 = 0.1, j2 = 0.4, r = 10.0, c = 2.0, k = 0.25, v0 = 10.0;
  // The capacitor current C k der(w1) makes the capacitor an extra inertia k^2 C on shaft 1:
  // adding the shaft equations gives (J1 + k^2 C) w1' + J2 w2' = k i_R, whose right side is
  // bounded, so (J1 + k^2 C) w1 + J2 w2 is conserved across an impulse.
  const double j1_eff = j1 + k * k * c;  // 0.225 kg m^2
  const double w_0 = (j1_eff * 0.0 + j2 * 10.0) / (j1_eff + j2);
  CHECK(w_0 == doctest::Approx(6.4));  // not (J1 w1 + J2 w2)/(J1 + J2) = 8 rad/s
  // Shaft 2 integrated from 0-: J2 (w2(t) - 10) = tau_int(t) at all times, so the impulse at
  // t = 0 is J2 (6.4 - 10) = -1.44 N m s.
  CHECK(j2 * (w_0 - 10.0) == doctest::Approx(-1.44));
  // Row 0 holds x^+(t0); speeds have nominal 10 rad/s, tau_int 1 N m s.
  CHECK(std::abs(at(t, initial_row(t), "w1") - 6.4) < kRefJumpTol * 10.0);
  CHECK(std::abs(at(t, initial_row(t), "w2") - 6.4) < kRefJumpTol * 10.0);
  CHECK(std::abs(at(t, initial_row(t), "tau_int") - (-1.44)) < kRefJumpTol);

  // Between the events each phase is linear and first order (tests/models/test_ideal_clutch):
  // engaged (J1 + k^2 C + J2) w' = k (V0 - k w)/R, time constant 100 s; released shaft 1
  // alone with 36 s and shaft 2 free; all relax towards V0/k = 40 rad/s.
  const double w_inf = v0 / k;
  const double t_engaged = r * (j1_eff + j2) / (k * k);
  const double t_released = r * j1_eff / (k * k);
  const auto relax = [w_inf](double w_start, double duration, double time_constant) {
    return w_inf + (w_start - w_inf) * std::exp(-duration / time_constant);
  };
  const double w_100 = relax(w_0, 100.0, t_engaged);
  const double w1_300 = relax(w_100, 200.0, t_released);
  const double w_300 = (j1_eff * w1_300 + j2 * w_100) / (j1_eff + j2);

  const auto rights = right_limit_rows(t);
  REQUIRE(rights.size() == 2);
  CHECK(t.time(rights[0]) == 100.0);  // time events land exactly
  CHECK(t.time(rights[1]) == 300.0);
  for (std::size_t i = initial_row(t); i < t.num_rows(); ++i) {
    const double time = t.time(i);
    CAPTURE(time);
    const bool before_release = i < rights[0];
    const bool released = i >= rights[0] && i < rights[1];
    double w1 = 0.0, w2 = 0.0;
    if (before_release) {
      w1 = w2 = relax(w_0, time, t_engaged);
    } else if (released) {
      w1 = relax(w_100, time - 100.0, t_released);
      w2 = w_100;
    } else {
      w1 = w2 = relax(w_300, time - 300.0, t_engaged);
    }
    CHECK(at(t, i, "engaged") == (released ? 0.0 : 1.0));
    // IDA's global error over these smooth, stable phases (as in tests/models/) stays within
    // 100 rel_tol of the size of the solution (40 rad/s).
    const double tol = 100 * kRefRelTol * w_inf;
    CHECK(std::abs(at(t, i, "w1") - w1) < tol);
    CHECK(std::abs(at(t, i, "w2") - w2) < tol);
    CHECK(std::abs(at(t, i, "tau_int") - j2 * (w2 - 10.0)) < j2 * tol);
  }
  // Releasing is no impulse (the clutch row becomes tau = 0, an f_d row): the two rows at
  // t = 100 s agree to the jump-solve tolerance (nominals 10 rad/s and 1 N m s).
  for (const char* name : {"w1", "w2", "tau_int"}) {
    CAPTURE(name);
    CHECK(std::abs(at(t, rights[0], name) - at(t, rights[0] - 1, name)) < kRefJumpTol * 10.0);
  }
  // Engaging at 300 s conserves (J1 + k^2 C) w1 + J2 w2 and the angular impulse is the jump
  // of tau_int, J2 (w2^+ - w2^-); momenta of order 20 N m s, nominal 10 rad/s.
  const std::size_t before = rights[1] - 1, after = rights[1];
  CHECK(std::abs(at(t, after, "w1") - at(t, after, "w2")) < kRefJumpTol * 10.0);
  CHECK(std::abs((j1_eff * at(t, after, "w1") + j2 * at(t, after, "w2")) -
                 (j1_eff * at(t, before, "w1") + j2 * at(t, before, "w2"))) < kRefJumpTol * 10.0);
  CHECK(std::abs((at(t, after, "tau_int") - at(t, before, "tau_int")) -
                 j2 * (at(t, after, "w2") - at(t, before, "w2"))) < kRefJumpTol * 10.0);
}

TEST_CASE("the colliding-masses reference conserves momentum across the plastic impact") {
  const ResultTable t = reference("colliding_masses");
  // m1 = m2 = 1 kg, e = 0, s = (0, 1) m, v = (1, 0) m/s, contact at s2 - s1 = 0.5 m.
  const auto rights = right_limit_rows(t);
  REQUIRE(rights.size() == 1);
  const std::size_t before = rights[0] - 1, after = rights[0];
  const double t_e = t.time(after);
  // The gap closes at 1 m/s after 0.5 s; the root lies past zero by the crossing hysteresis
  // (1e-10 of the 0.5 m nominal) plus IDA's root location (about 100 unit roundoffs of t).
  CHECK(std::abs(t_e - 0.5) < 1e-9);
  CHECK(std::abs(at(t, before, "v1") - 1.0) < kRefJumpTol);
  CHECK(std::abs(at(t, before, "v2") - 0.0) < kRefJumpTol);
  // Momentum 1 kg m/s shared by 2 kg, restitution v2^+ - v1^+ = -e (v2^- - v1^-) = 0: both at
  // 0.5 m/s; the contact impulse (jump of p_int) is m2 (0.5 - 0) = 0.5 N s; the kinetic energy
  // drops by m1 m2 / (2 (m1 + m2)) (1 - e^2) (1 - 0)^2 = 0.25 J, from 0.5 J to 0.25 J.
  CHECK(std::abs(at(t, after, "v1") - 0.5) < kRefJumpTol);
  CHECK(std::abs(at(t, after, "v2") - 0.5) < kRefJumpTol);
  CHECK(std::abs(at(t, after, "v2") - at(t, after, "v1")) < kRefJumpTol);
  CHECK(std::abs(at(t, after, "p_int") - 0.5) < kRefJumpTol);
  CHECK(std::abs(at(t, before, "kinetic_energy") - 0.5) < kRefJumpTol);
  CHECK(std::abs(at(t, after, "kinetic_energy") - 0.25) < kRefJumpTol);
  for (std::size_t i = initial_row(t); i < t.num_rows(); ++i) {
    const double time = t.time(i);
    CAPTURE(time);
    const bool stuck = i >= after;
    // Free flight before, common motion at 0.5 m/s after: positions linear in t, which BDF
    // integrates exactly up to its Newton tolerance; 100 rel_tol of the 1 m scale is ample.
    const double s1 = stuck ? t_e + 0.5 * (time - t_e) : time;
    const double s2 = stuck ? 1.0 + 0.5 * (time - t_e) : 1.0;
    CHECK(std::abs(at(t, i, "s1") - s1) < 100 * kRefRelTol);
    CHECK(std::abs(at(t, i, "s2") - s2) < 100 * kRefRelTol);
    CHECK(std::abs(at(t, i, "v1") - (stuck ? 0.5 : 1.0)) < kRefJumpTol);
    CHECK(std::abs(at(t, i, "v2") - (stuck ? 0.5 : 0.0)) < kRefJumpTol);
    CHECK(std::abs(at(t, i, "momentum") - 1.0) < kRefJumpTol);
  }
}

TEST_CASE("the three-masses reference resolves both simultaneous impacts with restitution 0.6") {
  const ResultTable t = reference("three_masses");
  // The ITI paper's example 3 with the model's configuration (models/three_masses.hpp):
  // m = (1, 2, 3) kg, s(0) = (0, 1.5, 2.5) m, v(0) = (2, 0, -1) m/s, d = 0.5 m,
  // ci1 = ci2 = 0.6. Both gaps (1 m at 2 m/s, 0.5 m at 1 m/s) close at t = 0.5 s.
  const std::array<double, 3> m = {1.0, 2.0, 3.0};
  const std::array<double, 3> s0 = {0.0, 1.5, 2.5};
  const std::array<double, 3> u = {2.0, 0.0, -1.0};
  // Momentum -1 kg m/s and the two impact laws v2 - v1 = -0.6 (0 - 2) = 1.2 and
  // v3 - v2 = -0.6 (-1 - 0) = 0.6 give 6 v1 + 2 * 1.2 + 3 * 1.8 = -1: v1 = -22/15.
  const std::array<double, 3> v = {-22.0 / 15.0, -4.0 / 15.0, 1.0 / 3.0};
  CHECK(m[0] * v[0] + m[1] * v[1] + m[2] * v[2] == doctest::Approx(-1.0));
  CHECK(v[1] - v[0] == doctest::Approx(-0.6 * (u[1] - u[0])));
  CHECK(v[2] - v[1] == doctest::Approx(-0.6 * (u[2] - u[1])));
  const char* s_names[] = {"s1", "s2", "s3"};
  const char* v_names[] = {"v1", "v2", "v3"};

  // One event handles both impacts (the paper's point); velocities of both pairs separate
  // afterwards (1.2 and 0.6 m/s), so no further event.
  const auto rights = right_limit_rows(t);
  REQUIRE(rights.size() == 1);
  const std::size_t before = rights[0] - 1, after = rights[0];
  const double t_e = t.time(after);
  // Positions linear in t; the crossing hysteresis (1e-10 of the 0.5 m nominal) at 1 m/s
  // closing speed and IDA's root location put the root well within 1e-9 s of 0.5 s.
  CHECK(std::abs(t_e - 0.5) < 1e-9);
  for (std::size_t j = 0; j < 3; ++j) {
    CAPTURE(j);
    CHECK(std::abs(at(t, before, v_names[j]) - u[j]) < kRefJumpTol);
    CHECK(std::abs(at(t, after, v_names[j]) - v[j]) < kRefJumpTol);
  }
  // The stop impulses (jumps of p_int_k): m1 (v1^- - v1^+) = 52/15 N s, m3 (v3^+ - v3^-) = 4 N s.
  CHECK(std::abs(at(t, after, "p_int1") - 52.0 / 15.0) < kRefJumpTol);
  CHECK(std::abs(at(t, after, "p_int2") - 4.0) < kRefJumpTol);
  // Kinetic energy from 3.5 J to (484 + 32 + 75)/450 = 591/450 J.
  CHECK(std::abs(at(t, before, "kinetic_energy") - 3.5) < kRefJumpTol * 10.0);
  CHECK(std::abs(at(t, after, "kinetic_energy") - 591.0 / 450.0) < kRefJumpTol * 10.0);
  for (std::size_t i = initial_row(t); i < t.num_rows(); ++i) {
    const double time = t.time(i);
    CAPTURE(time);
    const bool impacted = i >= after;
    for (std::size_t j = 0; j < 3; ++j) {
      // Linear in t on both sides of the impact: exact for BDF up to its Newton tolerance,
      // 100 rel_tol of the metre scale is ample.
      const double s = impacted ? s0[j] + u[j] * t_e + v[j] * (time - t_e) : s0[j] + u[j] * time;
      CHECK(std::abs(at(t, i, s_names[j]) - s) < 100 * kRefRelTol);
      CHECK(std::abs(at(t, i, v_names[j]) - (impacted ? v[j] : u[j])) < kRefJumpTol);
    }
    CHECK(std::abs(at(t, i, "momentum") - (-1.0)) < kRefJumpTol);
  }
}

TEST_CASE("the impact-source references jump like the textbook and the hand-written model") {
  // colliding_masses_impact: m = (1, 2) kg, e = 0.8, u = (1, 0) m/s, gap 0.5 m: contact at
  // 0.5 s; momentum 1 and v1+ - v2+ = -0.8 give v+ = (-0.2, 0.6) m/s (models/colliding_masses.hpp).
  const ResultTable two = reference("colliding_masses_impact");
  const auto two_rights = right_limit_rows(two);
  REQUIRE(two_rights.size() == 1);
  const std::size_t after = two_rights[0];
  CHECK(std::abs(two.time(after) - 0.5) < 1e-9);
  CHECK(std::abs(at(two, after, "v1") - (-0.2)) < kRefJumpTol);
  CHECK(std::abs(at(two, after, "v2") - 0.6) < kRefJumpTol);
  for (std::size_t i = initial_row(two); i < two.num_rows(); ++i) {
    CHECK(std::abs(at(two, i, "momentum") - 1.0) < kRefJumpTol);
    CHECK(at(two, i, "F") == 0.0);  // the force is an impulse only: zero on every row
  }
  // three_masses_impact: the same rows as the hand-written three_masses (both at rel_tol
  // 1e-10; they differ only in how the impulse enters), so every position and velocity agrees
  // to the integration tolerance.
  const ResultTable three = reference("three_masses_impact");
  const ResultTable hand = reference("three_masses");
  // On the output grid (the event rows may sit at other instants: the hand-written reference
  // located its event to an older hysteresis, 2.5e-11 s late).
  std::size_t j = 0;
  std::size_t compared = 0;
  for (std::size_t i = initial_row(three); i < three.num_rows(); ++i) {
    const double time = three.time(i);
    if (std::abs(time - 0.5) < 1e-9) continue;  // the event's pair of rows
    while (j < hand.num_rows() && hand.time(j) < time) ++j;
    REQUIRE(j < hand.num_rows());
    REQUIRE(hand.time(j) == time);
    for (const char* name : {"s1", "s2", "s3", "v1", "v2", "v3", "momentum"}) {
      CAPTURE(name);
      CAPTURE(time);
      CHECK(std::abs(at(three, i, name) - at(hand, j, name)) < 1e-8);
    }
    ++compared;
  }
  CHECK(compared == 500);  // 501 grid rows from 0 to 2 s, less the one at the event
}

TEST_CASE("the ITI-example-1 reference follows x1 = t and the hidden constraint x2 = 1") {
  // x1 = t and x2 = der(x1) (ITI paper, example 1): the differentiated first row gives x2 = 1
  // on every row, from the start value 5 on (overridden at t0). The reduced system is
  // linear; the jump solve's tolerance (1e-13 in units of the nominal 1) bounds the error.
  const ResultTable t = reference("iti_example1");
  REQUIRE(t.num_rows() == 501);
  for (std::size_t i = 0; i < t.num_rows(); ++i) {
    CHECK(std::abs(at(t, i, "x1") - t.time(i)) < 1e-12);
    CHECK(std::abs(at(t, i, "x2") - 1.0) < 1e-12);
  }
}

TEST_CASE("the pendulum-DAE reference stays on its circle and reaches ModiaMath's state") {
  const ResultTable t = reference("pendulum_dae");
  // L = m = 1, g = 9.81, no damping; start (0.5, -0.5) with v = (1, 1), start values free.
  // The jump may move (x, y) and v only along (x, y) (mue and lambda are impulses): radial
  // projection to (1, -1)/sqrt(2); v = (1, 1) is already tangential and stays.
  const double g = 9.81;
  const double r = 1.0 / std::sqrt(2.0);
  CHECK(std::abs(at(t, initial_row(t), "x") - r) < kRefJumpTol);
  CHECK(std::abs(at(t, initial_row(t), "y") + r) < kRefJumpTol);
  CHECK(std::abs(at(t, initial_row(t), "vx") - 1.0) < kRefJumpTol);
  CHECK(std::abs(at(t, initial_row(t), "vy") - 1.0) < kRefJumpTol);
  const double energy0 = 0.5 * (1.0 + 1.0) - g * r;  // m |v|^2 / 2 + m g y
  CHECK(std::abs(at(t, initial_row(t), "energy") - energy0) <
        kRefJumpTol * 10.0);  // energy scale 10 J
  for (std::size_t i = initial_row(t); i < t.num_rows(); ++i) {
    CAPTURE(t.time(i));
    const double x = at(t, i, "x"), y = at(t, i, "y");
    const double vx = at(t, i, "vx"), vy = at(t, i, "vy");
    // The f_c rows hold to a fraction of IDA's local error test: 10 rel_tol of each row's
    // scale (L^2 = 1 m^2; L v_max with v_max < 5 m/s), as in tests/models/.
    CHECK(std::abs((x * x + y * y - 1.0) / 2.0) < 10 * kRefRelTol);
    CHECK(std::abs(x * vx + y * vy) < 10 * kRefRelTol * 5.0);
    // No damping: energy conserved within IDA's global error, 100 rel_tol of m g L ~ 10 J.
    CHECK(std::abs(at(t, i, "energy") - energy0) < 100 * kRefRelTol * 10.0);
    // Differentiating x vx + y vy = 0 along the motion gives the rod force
    // lambda = m (vx^2 + vy^2 - g y) / L^2. lambda is algebraic (outside the error test) and
    // follows from the BDF derivative of v, so its error is of order rel_tol / h relative:
    // h ~ 2e-3 s (about 1100 steps over 2 s at rel_tol 1e-10) and lambda < 20 N/m give 1e-6.
    CHECK(std::abs(at(t, i, "lambda") - (vx * vx + vy * vy - g * y)) < kRefRelTol / 2e-3 * 20.0);
  }
  // ModiaMath's published state at t = 2 s (its test compares these 6-digit values with
  // atol = 1e-5); der(vx) = -x lambda / m and der(vy) = -y lambda / m - g from the columns.
  const std::size_t end = t.num_rows() - 1;
  CHECK(t.time(end) == 2.0);
  const double x = at(t, end, "x"), y = at(t, end, "y"), lambda = at(t, end, "lambda");
  CHECK(std::abs(x - 0.542797) < 1e-5);
  CHECK(std::abs(y - (-0.839864)) < 1e-5);
  CHECK(std::abs(at(t, end, "vx") - 1.80223) < 1e-5);
  CHECK(std::abs(at(t, end, "vy") - 1.16476) < 1e-5);
  CHECK(std::abs(-x * lambda - (-6.97155)) < 1e-5);
  CHECK(std::abs((-y * lambda - g) - 0.977022) < 1e-5);
}

namespace {

/// State of a rigid body: angular velocity w (body frame), quaternion Q = (Q1, Q2, Q3, Q4)
/// with Q4 the scalar part, and the work W = integral of w . u dt done by the torques.
struct BodyState {
  std::array<double, 3> w{};
  std::array<double, 4> q{};
  double work = 0.0;
};

/// ModiaMath's FreeBodyRotation torques: u_i = A_i sin(2 pi f_i t + phase_i).
std::array<double, 3> body_torque(double t) {
  const double two_pi = 2.0 * std::numbers::pi;
  return {3.0 * std::sin(two_pi * 0.3 * t), 4.0 * std::sin(two_pi * 0.2 * t + std::numbers::pi / 6),
          5.0 * std::sin(two_pi * 0.1 * t + std::numbers::pi / 3)};
}

/// Euler's equations for I = diag(1, 2, 3), der(Q) = 1/2 Q (x) (w, 0), der(W) = w . u: the
/// ODE the model's DAE reduces to on |Q| = 1 (where mue = 0).
BodyState body_rate(double t, const BodyState& s) {
  const std::array<double, 3> inertia = {1.0, 2.0, 3.0};
  const std::array<double, 3> u = body_torque(t);
  const auto& w = s.w;
  const auto& q = s.q;
  BodyState d;
  d.w = {((inertia[1] - inertia[2]) * w[1] * w[2] + u[0]) / inertia[0],
         ((inertia[2] - inertia[0]) * w[2] * w[0] + u[1]) / inertia[1],
         ((inertia[0] - inertia[1]) * w[0] * w[1] + u[2]) / inertia[2]};
  d.q = {(q[3] * w[0] - q[2] * w[1] + q[1] * w[2]) / 2,
         (q[2] * w[0] + q[3] * w[1] - q[0] * w[2]) / 2,
         (-q[1] * w[0] + q[0] * w[1] + q[3] * w[2]) / 2,
         -(q[0] * w[0] + q[1] * w[1] + q[2] * w[2]) / 2};
  d.work = w[0] * u[0] + w[1] * u[1] + w[2] * u[2];
  return d;
}

BodyState body_axpy(const BodyState& s, double h, const BodyState& d) {
  BodyState r = s;
  for (std::size_t i = 0; i < 3; ++i) r.w[i] += h * d.w[i];
  for (std::size_t i = 0; i < 4; ++i) r.q[i] += h * d.q[i];
  r.work += h * d.work;
  return r;
}

/// Classical Runge-Kutta from (t0, s) to t1 in n equal steps.
BodyState rk4(BodyState s, double t0, double t1, int n) {
  const double h = (t1 - t0) / n;
  for (int k = 0; k < n; ++k) {
    const double t = t0 + k * h;
    const BodyState k1 = body_rate(t, s);
    const BodyState k2 = body_rate(t + h / 2, body_axpy(s, h / 2, k1));
    const BodyState k3 = body_rate(t + h / 2, body_axpy(s, h / 2, k2));
    const BodyState k4 = body_rate(t + h, body_axpy(s, h, k3));
    for (std::size_t i = 0; i < 3; ++i) {
      s.w[i] += h / 6 * (k1.w[i] + 2 * k2.w[i] + 2 * k3.w[i] + k4.w[i]);
    }
    for (std::size_t i = 0; i < 4; ++i) {
      s.q[i] += h / 6 * (k1.q[i] + 2 * k2.q[i] + 2 * k3.q[i] + k4.q[i]);
    }
    s.work += h / 6 * (k1.work + 2 * k2.work + 2 * k3.work + k4.work);
  }
  return s;
}

}  // namespace

TEST_CASE("the free-body reference keeps |Q| = 1 and matches an independent Runge-Kutta solution") {
  const ResultTable t = reference("free_body_rotation");
  // The jump at t0 may move Q only along Q (mue is an impulse): Q0^+ = Q0 / |Q0| with
  // Q0 = (0.1, 0.5, 0, 1), |Q0| = sqrt(1.26); w has no impulse and stays 0.
  const double norm0 = std::sqrt(1.26);
  BodyState fine{.w = {0.0, 0.0, 0.0}, .q = {0.1 / norm0, 0.5 / norm0, 0.0, 1.0 / norm0}};
  const char* q_names[] = {"Q1", "Q2", "Q3", "Q4"};
  const char* w_names[] = {"w1", "w2", "w3"};
  for (std::size_t i = 0; i < 4; ++i)
    CHECK(std::abs(at(t, initial_row(t), q_names[i]) - fine.q[i]) < kRefJumpTol);
  for (std::size_t i = 0; i < 3; ++i) CHECK(at(t, initial_row(t), w_names[i]) == 0.0);

  // RK4 from the projected start, 100 steps per 0.01 s output interval and, as a check of its
  // own error, 50 steps: RK4's error is about 1/15 of the difference of the two, which must be
  // far below the tolerances used against the reference.
  BodyState coarse = fine;
  for (std::size_t row = initial_row(t); row < t.num_rows(); ++row) {
    const double time = t.time(row);
    CAPTURE(time);
    if (row > 0) {
      const double previous = t.time(row - 1);
      fine = rk4(fine, previous, time, 100);
      coarse = rk4(coarse, previous, time, 50);
    }
    double q_norm2 = 0.0;
    for (std::size_t i = 0; i < 4; ++i) {
      const double q = at(t, row, q_names[i]);
      q_norm2 += q * q;
      CHECK(std::abs(fine.q[i] - coarse.q[i]) < 1e-11);
      // IDA's global error over 5 s within 100 rel_tol of |Q| = 1.
      CHECK(std::abs(q - fine.q[i]) < 100 * kRefRelTol);
    }
    // The f_c row Q.Q - 1 = 0 holds to a fraction of IDA's local error test: 10 rel_tol.
    CHECK(std::abs(std::sqrt(q_norm2) - 1.0) < 10 * kRefRelTol);
    CHECK(std::abs(at(t, row, "|Q|") - 1.0) < 10 * kRefRelTol);
    double energy = 0.0;
    const std::array<double, 3> inertia = {1.0, 2.0, 3.0};
    for (std::size_t i = 0; i < 3; ++i) {
      const double w = at(t, row, w_names[i]);
      CHECK(std::abs(fine.w[i] - coarse.w[i]) < 1e-11);
      // Global error within 100 rel_tol of the rates' size (|w| < 6 rad/s over the run).
      CHECK(std::abs(w - fine.w[i]) < 100 * kRefRelTol * 6.0);
      energy += 0.5 * inertia[i] * w * w;
    }
    // Work-energy balance (from rest): the kinetic energy of the reference's rates equals the
    // work of the torques, to the rates' error (100 rel_tol * 6 rad/s) times I |w| (< 18 N m s).
    CHECK(std::abs(energy - fine.work) < 100 * kRefRelTol * 6.0 * 18.0);
  }
}

TEST_CASE(
    "the hydraulic-actuator reference starts at Mosterman's eq. 51 and decays exponentially") {
  const ResultTable t = reference("hydraulic_actuator");
  // From x^- = [3, 0, 0, 0] (eq. 43): the f_d row -der(f_p) + 2 der(f_rel) + 0.2 p_Rrel = 0
  // integrated over the impulse conserves -f_p + 2 f_rel = -3; with the f_c rows f_rel = -f_p
  // and p_Rrel = -5 f_p / 0.999911 this gives f_p = 1, i.e. eq. 51, [1, -1, -5.00044, 0].
  CHECK(std::abs(at(t, initial_row(t), "f_p") - 1.0) < kRefJumpTol);
  CHECK(std::abs(at(t, initial_row(t), "f_rel") + 1.0) < kRefJumpTol);
  CHECK(std::abs(at(t, initial_row(t), "p_Rrel") + 5.0 / 0.999911) <
        kRefJumpTol * 5.0);  // nominal 5
  CHECK(at(t, initial_row(t), "p_Rrel") ==
        doctest::Approx(-5.00044).epsilon(1e-5));  // eq. 51: 6 digits
  CHECK(std::abs(-at(t, initial_row(t), "f_p") + 2 * at(t, initial_row(t), "f_rel") - (-3.0)) <
        kRefJumpTol * 5.0);
  // Afterwards -3 der(f_p) - f_p / 0.999911 = 0: f_p = exp(-t / (3 * 0.999911)).
  const double time_constant = 3.0 * 0.999911;
  for (std::size_t i = initial_row(t); i < t.num_rows(); ++i) {
    const double time = t.time(i);
    CAPTURE(time);
    const double f_p = at(t, i, "f_p");
    // IDA's global error on this stable first-order decay: within 100 rel_tol of f_p(0+) = 1.
    CHECK(std::abs(f_p - std::exp(-time / time_constant)) < 100 * kRefRelTol);
    // The f_c rows hold to 10 rel_tol of their scales (1 for the flows, 5 for p_Rrel).
    CHECK(std::abs(at(t, i, "f_rel") + f_p) < 10 * kRefRelTol);
    CHECK(std::abs(at(t, i, "p_Rrel") + 5.0 * f_p / 0.999911) < 10 * kRefRelTol * 5.0);
    CHECK(at(t, i, "p_Rin") == 0.0);  // supply valve closed: 0 = -p_Rin
  }
}

TEST_CASE("the Cartesian-pendulum reference keeps its rod and swings like the angle pendulum") {
  const ResultTable t = reference("cartesian_pendulum");
  // L = 0.5 m, m = 1 kg, d = 0.1 N m s, g = 9.81, at rest at the horizontal (x = L, y = 0).
  const double L = 0.5;
  // Independent formulation: the ODE m L^2 phi'' = -m g L sin(phi) - d phi', phi(0) = pi/2,
  // integrated here by a classical Runge-Kutta scheme with a step of 1e-4 s (global error
  // of order h^4 ~ 1e-16 times the derivatives' scale: far below 1e-8).
  const auto rhs = [](const std::array<double, 2>& s) {
    return std::array<double, 2>{s[1], -9.81 / 0.5 * std::sin(s[0]) - 0.1 / 0.25 * s[1]};
  };
  std::array<double, 2> s{std::numbers::pi / 2.0, 0.0};
  double time = 0.0;
  const double h = 1e-4;
  std::size_t checked = 0;
  for (std::size_t i = 0; i < t.num_rows(); ++i) {
    CAPTURE(t.time(i));
    while (time < t.time(i) - 1e-12) {
      // The last step is shortened to land on the row's time.
      const double step = std::min(h, t.time(i) - time);
      const auto k1 = rhs(s);
      const auto k2 = rhs({s[0] + step / 2 * k1[0], s[1] + step / 2 * k1[1]});
      const auto k3 = rhs({s[0] + step / 2 * k2[0], s[1] + step / 2 * k2[1]});
      const auto k4 = rhs({s[0] + step * k3[0], s[1] + step * k3[1]});
      for (int c = 0; c < 2; ++c) s[c] += step / 6 * (k1[c] + 2 * k2[c] + 2 * k3[c] + k4[c]);
      time += step;
    }
    const double x = t.value(i, t.column_index("x")), y = t.value(i, t.column_index("y"));
    const double vx = t.value(i, t.column_index("vx")), vy = t.value(i, t.column_index("vy"));
    // The rod and its first hidden constraint hold on every row (the reference's rows are
    // IDA's steps with a tight Newton test): well below rel_tol-sized errors.
    CHECK(std::abs(x * x + y * y - L * L) < 1e-10 * L * L);
    CHECK(std::abs(x * vx + y * vy) < 1e-8 * L * L);
    // 100 rel_tol: the global error of a 10 s run at the reference's tolerance.
    CHECK(std::abs(std::atan2(x, -y) - s[0]) < 100 * kRefRelTol);
    ++checked;
  }
  CHECK(checked > 500);
}

TEST_CASE("the transistor-amplifier reference ends at the IVP test set's y(0.2)") {
  const ResultTable t = reference("transistor_amplifier");
  // The test set's reference solution (Mazzia and Magherini, "Test Set for IVP Solvers",
  // problem transamp, subroutine solut: PSIDE at rtol = atol = 1e-14).
  const std::array<double, 8> published = {-0.5562145012262709e-002, 0.3006522471903042e+001,
                                           0.2849958788608128e+001,  0.2926422536206241e+001,
                                           0.2704617865010554e+001,  0.2761837778393145e+001,
                                           0.4770927631616772e+001,  0.1236995868091548e+001};
  const std::size_t last = t.num_rows() - 1;
  REQUIRE(t.time(last) == 0.2);
  for (std::size_t k = 0; k < 8; ++k) {
    const std::string name = "U" + std::to_string(k + 1);
    CAPTURE(name);
    // At rel_tol = 1e-10 (abs_tol 1e-10 V, 2e-8 of U1, the smallest component) at least 8
    // significant digits of every component.
    CHECK(std::abs(at(t, last, name) - published[k]) < 1e-8 * std::abs(published[k]));
  }
}

TEST_CASE("the Andrews-squeezer reference ends at the IVP test set's angles at 0.03 s") {
  const ResultTable t = reference("andrews_squeezer");
  // The test set's reference solution (models/andrews_squeezer.hpp, kReferenceAngles: PSIDE at
  // rtol = atol = 1e-14, as published).
  const auto& angles = hdae::models::andrews_squeezer::kAngleNames;
  const auto& published = hdae::models::andrews_squeezer::kReferenceAngles;
  const std::size_t last = t.num_rows() - 1;
  REQUIRE(t.time(last) == 0.03);
  for (std::size_t k = 0; k < 7; ++k) {
    const std::string angle = angles[k];
    CAPTURE(angle);
    // The test set's measure, mixed significant digits with atol = rtol: at least
    // -log10(kRefRelTol) - 2.5 = 7.5 (the allowance of tests/reduction/test_andrews_squeezer).
    CHECK(std::abs(at(t, last, angle) - published[k]) <
          std::pow(10.0, -7.5) * (1.0 + std::abs(published[k])));
  }
  // Energy balance: the joints are frictionless and nothing but the driving torque mom =
  // 0.033 N m works on the mechanism (no gravity), so T + V - mom (beta - beta(0)) stays at
  // its start value V(0) (at rest).
  const double mom = 0.033;
  const std::size_t first = initial_row(t);
  const double beta0 = at(t, first, "beta");
  const double start = at(t, first, "kinetic_energy") + at(t, first, "spring_energy");
  // At rest: w = 0 up to the consistent start's round-off, T of order 1e-6 kg m^2 w^2.
  CHECK(at(t, first, "kinetic_energy") < 1e-15);
  for (std::size_t i = first; i < t.num_rows(); ++i) {
    CAPTURE(t.time(i));
    const double balance =
        at(t, i, "kinetic_energy") + at(t, i, "spring_energy") - mom * (at(t, i, "beta") - beta0);
    // T and V reach 1.5 J each; known to the reference's 7.5 digits (3e-8 of 3 J): 1e-7 J.
    CHECK(std::abs(balance - start) < 1e-7);
  }
}

TEST_CASE("the slider-crank reference follows the closed form of its kinematics") {
  const ResultTable t = reference("slider_crank");
  // models/slider_crank.hpp at its defaults: r = 0.1 m, l = 0.3 m, the motor holding the
  // crank at omega = 2 pi rad/s from theta0 = 0, for 2 s. Then theta = omega t and the slider
  // sits where the rod meets the axis: x_B = r cos(theta) + sqrt(l^2 - r^2 sin^2(theta)).
  const double r = 0.1, l = 0.3, omega = 2 * std::numbers::pi;
  REQUIRE(t.num_rows() == 501);
  REQUIRE(t.time(t.num_rows() - 1) == 2.0);
  const double theta_range = omega * 2.0;
  for (std::size_t i = 0; i < t.num_rows(); ++i) {
    const double time = t.time(i);
    CAPTURE(time);
    const double theta = omega * time;
    // The motor row holds w = omega to the Newton tolerance, a relative error of at most
    // rel_tol, which adds up to rel_tol of the angle turned.
    CHECK(std::abs(at(t, i, "theta") - theta) < kRefRelTol * theta_range);
    // x_B moves with theta at most r (1 + r/l) per radian, and the joints hold to the Newton
    // tolerance (0.1 rel_tol of the lengths: tests/reduction/test_slider_crank.cpp).
    const double x_b =
        r * std::cos(theta) + std::sqrt(l * l - r * r * std::sin(theta) * std::sin(theta));
    CHECK(std::abs(at(t, i, "xB") - x_b) < kRefRelTol * (r * (1 + r / l) * theta_range + 0.1 * l));
    // The crank pin on its circle at the row's own angle, the rod's length (the slider on the
    // axis, y_B = 0 to 1e-20 m).
    const double row_theta = at(t, i, "theta");
    CHECK(std::abs(at(t, i, "xA") - r * std::cos(row_theta)) < 0.1 * kRefRelTol * r);
    CHECK(std::abs(at(t, i, "yA") - r * std::sin(row_theta)) < 0.1 * kRefRelTol * r);
    const double dx = at(t, i, "xB") - at(t, i, "xA"), dy = at(t, i, "yA");
    CHECK(std::abs(dx * dx + dy * dy - l * l) < 0.1 * kRefRelTol * l * l);
  }
}

TEST_CASE(
    "the wall-pendulum reference strikes at the closed-form times and keeps e^2k of its energy") {
  const ResultTable t = reference("wall_pendulum");
  // models/wall_pendulum.hpp at its defaults: L = 0.5 m, m = 1 kg, g = 9.81, e = 0.5, the wall
  // under the pivot, released at rest from the horizontal (energy 0 with y = 0 at the pivot).
  // Impact k comes at the bottom at the speed e^(k-1) sqrt(2 g L) and leaves at e^k times it;
  // between impacts the bob swings up to theta_k with 1 - cos(theta_k) = e^(2k) and returns
  // after half the period T(theta) = 4 K(sin(theta / 2)) sqrt(L / g) (K the complete elliptic
  // integral of the first kind); the first comes after a quarter period of the 90-degree swing.
  // After impact k the energy is m g L (e^(2k) - 1).
  const double L = 0.5, g = 9.81, m = 1.0, e = 0.5;
  const auto period = [&](double theta) {
    return 4.0 * std::comp_ellint_1(std::sin(theta / 2.0)) * std::sqrt(L / g);
  };
  std::vector<std::size_t> impacts;
  for (const std::size_t i : right_limit_rows(t)) {
    if (at(t, i - 1, "vx") < 0.0 && at(t, i, "vx") > 0.0) impacts.push_back(i);
  }
  REQUIRE(impacts.size() == 4);
  double expected = period(std::numbers::pi / 2.0) / 4.0;
  for (std::size_t k = 1; k <= impacts.size(); ++k) {
    CAPTURE(k);
    const std::size_t i = impacts[k - 1];
    // The located root of x carries the reference's rel_tol-sized error in x over the speed.
    CHECK(std::abs(t.time(i) - expected) < 1e-8);
    const double speed = std::pow(e, static_cast<double>(k)) * std::sqrt(2.0 * g * L);
    CHECK(std::abs(at(t, i, "vx") - speed) < 1e-8 * std::sqrt(2.0 * g * L));
    expected += period(std::acos(1.0 - std::pow(e, 2.0 * static_cast<double>(k)))) / 2.0;
  }
  std::size_t phase = 0;  // impacts before the row
  for (std::size_t i = 0; i < t.num_rows(); ++i) {
    if (phase < impacts.size() && i == impacts[phase]) ++phase;
    if (phase < impacts.size() && i + 1 == impacts[phase])
      continue;  // left limit: the phase before
    CAPTURE(t.time(i));
    const double x = at(t, i, "x"), y = at(t, i, "y");
    CHECK(std::abs(x * x + y * y - L * L) < 1e-10 * L * L);
    CHECK(std::abs(x * at(t, i, "vx") + y * at(t, i, "vy")) < 1e-8 * L * L);
    const double energy = m * g * L * (std::pow(e, 2.0 * static_cast<double>(phase)) - 1.0);
    CHECK(std::abs(at(t, i, "energy") - energy) < 1e-8 * m * g * L);
  }
}

TEST_CASE("the string-pendulum reference flies from 120 degrees to the bottom and keeps 1/16") {
  const ResultTable t = reference("string_pendulum");
  // models/string_pendulum.hpp at its defaults: L = 1 m, m = 1 kg, g = 9.81, v0^2 = 3.5 g L
  // at the bottom. The tension m v^2/L + m g cos(theta) vanishes at theta = 120 degrees, at
  // (sqrt(3)/2, 1/2) L with v_s^2 = g L / 2 along (-1/2, sqrt(3)/2). The parabola from there
  // reaches x = 0 after tau = sqrt(3) L / v_s = sqrt(6 L / g), at y = L/2 + 3 L/2 - 3 L = -L:
  // the bottom of the circle. There the jerk takes vy and keeps vx = -v_s / 2 = -sqrt(g L / 8),
  // so the energy (0 at the pivot's height) goes from v0^2/2 - g L = 3/4 g L to
  // g L / 16 - g L = -15/16 g L. In flight the energy is kept too and the tension is 0.
  const double L = 1.0, g = 9.81;
  std::size_t slack = 0, jerk = 0;  // the events' right limits
  for (const std::size_t i : right_limit_rows(t)) {
    if (slack == 0 && at(t, i, "T") == 0.0) slack = i;
    if (slack != 0 && i > slack && at(t, i, "T") > 0.0) jerk = i;
  }
  REQUIRE(slack != 0);
  REQUIRE(jerk != 0);
  CHECK(at(t, slack, "x") == doctest::Approx(std::sqrt(3.0) / 2.0 * L).epsilon(1e-9));
  CHECK(at(t, slack, "y") == doctest::Approx(0.5 * L).epsilon(1e-9));
  // The flight's time carries the root finding's and the integration's errors (about 100
  // rel_tol of the 0.8 s).
  CHECK(t.time(jerk) - t.time(slack) == doctest::Approx(std::sqrt(6.0 * L / g)).epsilon(1e-8));
  CHECK(std::abs(at(t, jerk, "x")) < 1e-8 * L);
  CHECK(at(t, jerk, "y") == doctest::Approx(-L).epsilon(1e-9));
  CHECK(at(t, jerk, "vx") == doctest::Approx(-std::sqrt(g * L / 8.0)).epsilon(1e-8));
  CHECK(std::abs(at(t, jerk, "vy")) < 1e-8 * std::sqrt(g * L));
  for (std::size_t i = 0; i < t.num_rows(); ++i) {
    CAPTURE(t.time(i));
    const double energy = at(t, i, "energy"), r = at(t, i, "r");
    if (i < jerk) {
      CHECK(energy == doctest::Approx(0.75 * g * L).epsilon(1e-8));
    } else {
      CHECK(energy == doctest::Approx(-15.0 / 16.0 * g * L).epsilon(1e-8));
    }
    if (i > slack && i < jerk) {
      CHECK(at(t, i, "T") == 0.0);
      CHECK(r <= L * (1.0 + 1e-12));
    } else {
      CHECK(r == doctest::Approx(L).epsilon(1e-10));
    }
  }
}
