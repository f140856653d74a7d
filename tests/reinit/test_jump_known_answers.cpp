// solve_jump against jumps whose answers are known from physics and from the papers
// (docs/design.md, "The jump solve").
#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

#include <doctest/doctest.h>

#include "reinit/jump_solver.hpp"
#include "reinit_test_models.hpp"

namespace hdae::reinit {
namespace {

using testing::make_clutch;
using testing::make_model;
using testing::make_pendulum_ggl;

// The Newton tolerance of the problems is 1e-9 in units of the nominal values (all 1 here).
// The last accepted update is below it and Newton converges quadratically, so the iterate is
// within 1e-9 of the exact root.
constexpr double kNewtonTol = 1e-9;

/// f_d row 2*x1*der(x1) + der(x2) = 0 and f_c row x1 - x2 = 0.
testing::TestModel make_quadratic_invariant() {
  return make_model(
      {"x1", "x2"},
      {{"2*x1*der(x1) + der(x2) = 0", RowKind::kDifferential},
       {"x1 - x2 = 0", RowKind::kConstraint}},
      [](double, std::span<const double> x, std::span<const double> dx, std::span<double> r) {
        r[0] = 2.0 * x[0] * dx[0] + dx[1];
        r[1] = x[0] - x[1];
      });
}

TEST_CASE("the midpoint rule conserves an invariant x1^2 + x2 that the end-point rule breaks") {
  const testing::TestModel model = make_quadratic_invariant();
  const std::vector<double> x_minus{2.0, 0.0};

  // Row 1 is d(x1^2 + x2)/dt = 0, so x1^2 + x2 = 4 across the impulse; with x1 = x2 = a:
  // a^2 + a - 4 = 0, a = (-1 + sqrt(17))/2. The midpoint rule integrates 2 x der(x) exactly
  // ((x+ + x-)(x+ - x-) = x+^2 - x-^2), so it must hit this root.
  const JumpOutcome midpoint = solve_jump(model.problem(0.0, JumpRule::kMidpoint), x_minus);
  REQUIRE(midpoint.status == SolveStatus::kOk);
  const double exact = (-1.0 + std::sqrt(17.0)) / 2.0;
  CHECK(midpoint.x_plus[0] == doctest::Approx(exact).epsilon(kNewtonTol));
  CHECK(midpoint.x_plus[1] == doctest::Approx(exact).epsilon(kNewtonTol));
  CHECK(midpoint.iterations > 0);

  // End point: 2 a (a - 2) + (a - 0) = 0, i.e. 2a^2 - 3a = 0; the root Newton reaches from
  // x^- = (2, 0) is a = 3/2 (the other root, 0, is on the far side). It misses the invariant.
  const JumpOutcome end_point = solve_jump(model.problem(0.0, JumpRule::kEndPoint), x_minus);
  REQUIRE(end_point.status == SolveStatus::kOk);
  CHECK(end_point.x_plus[0] == doctest::Approx(1.5).epsilon(kNewtonTol));
  CHECK(end_point.x_plus[1] == doctest::Approx(1.5).epsilon(kNewtonTol));
  CHECK(std::abs(end_point.x_plus[0] - exact) > 0.06);  // 1.5 vs 1.5616
}

TEST_CASE("an engaging ideal clutch gives both shafts 6.4 rad/s and conserves angular momentum") {
  const testing::ClutchParameters p;
  const testing::TestModel clutch = make_clutch(p);
  const std::vector<double> x_minus{0.0, 10.0, 0.0};

  const JumpOutcome out = solve_jump(clutch.problem(), x_minus);
  REQUIRE(out.status == SolveStatus::kOk);
  CHECK(out.warnings.empty());
  // docs/design.md, "The jump solve": the capacitor adds inertia k^2 C to shaft 1, so the common
  // speed is (J1 + k^2 C) * 0 + J2 * 10 over (J1 + k^2 C + J2) = 4 / 0.625 = 6.4 rad/s.
  CHECK(out.x_plus[0] == doctest::Approx(6.4).epsilon(kNewtonTol));
  CHECK(out.x_plus[1] == doctest::Approx(6.4).epsilon(kNewtonTol));
  // The angular impulse on shaft 2 is J2 (w2+ - w2-) = 0.4 (6.4 - 10) = -1.44 N m s; tau is
  // positive when it accelerates shaft 2, so tau_int jumps by -1.44.
  CHECK(out.x_plus[2] == doctest::Approx(-1.44).epsilon(kNewtonTol));
  // Conservation of (J1 + k^2 C) w1 + J2 w2 (= 4 before the jump).
  const double inertia1 = p.J1 + p.k * p.k * p.C;
  CHECK(inertia1 * out.x_plus[0] + p.J2 * out.x_plus[1] == doctest::Approx(4.0).epsilon(1e-12));
}

TEST_CASE("the hydraulic actuator of Mosterman's paper reaches the published consistent state") {
  // Mosterman, section 5, eqs. (43)-(51): E der(x) + A x = 0 (u does not enter the result) with
  // x = [f_p, f_rel, p_Rrel, p_Rin]; rows 1, 3, 4 of E are zero (f_c rows), row 2 is f_d.
  const testing::TestModel model = make_model(
      {"f_p", "f_rel", "p_Rrel", "p_Rin"},
      {{"0 = -5*f_p - 0.999911*p_Rrel", RowKind::kConstraint},
       {"0 = -der(f_p) + 2*der(f_rel) + 0.2*p_Rrel", RowKind::kDifferential},
       {"0 = -f_p - f_rel", RowKind::kConstraint},
       {"0 = -p_Rin", RowKind::kConstraint}},
      [](double, std::span<const double> x, std::span<const double> dx, std::span<double> r) {
        r[0] = -5.0 * x[0] - 0.999911 * x[2];
        r[1] = -dx[0] + 2.0 * dx[1] + 0.2 * x[2];
        r[2] = -x[0] - x[1];
        r[3] = -x[3];
      });
  const std::vector<double> x_minus{3.0, 0.0, 0.0, 0.0};  // eq. (43)

  const JumpOutcome out = solve_jump(model.problem(), x_minus);
  REQUIRE(out.status == SolveStatus::kOk);
  // Eq. (51) is printed with 6 significant digits: compare to 1e-5 relative.
  CHECK(out.x_plus[0] == doctest::Approx(1.0).epsilon(1e-5));
  CHECK(out.x_plus[1] == doctest::Approx(-1.0).epsilon(1e-5));
  CHECK(out.x_plus[2] == doctest::Approx(-5.00044).epsilon(1e-5));
  CHECK(std::abs(out.x_plus[3]) < kNewtonTol);
  // Eq. (33) with m_p = 5, A_p = 1, I_rel = 10: f_p = (m_p f_p^-)/(A_p^2 I_rel + m_p) = 1
  // exactly, and row 1 then gives p_Rrel = -5/0.999911.
  CHECK(out.x_plus[0] == doctest::Approx(1.0).epsilon(kNewtonTol));
  CHECK(out.x_plus[2] == doctest::Approx(-5.0 / 0.999911).epsilon(kNewtonTol));
}

TEST_CASE("a quaternion off the unit sphere is scaled onto it by the midpoint jump") {
  // ModiaMath's FreeBodyRotation: x = [Q1..Q4, w1..w3];
  //   0 = w - 2 G(Q) der(Q)   (f_d, 3 rows; G(Q) Q = 0)
  //   0 = I der(w) + w x (I w) - u(t)   (f_d, 3 rows, I = diag(1, 2, 3))
  //   0 = Q.Q - 1             (f_c)
  const testing::TestModel model = make_model(
      {"Q1", "Q2", "Q3", "Q4", "w1", "w2", "w3"},
      {{"w1 = 2*G1(Q)*der(Q)", RowKind::kDifferential},
       {"w2 = 2*G2(Q)*der(Q)", RowKind::kDifferential},
       {"w3 = 2*G3(Q)*der(Q)", RowKind::kDifferential},
       {"I1*der(w1) = ...", RowKind::kDifferential},
       {"I2*der(w2) = ...", RowKind::kDifferential},
       {"I3*der(w3) = ...", RowKind::kDifferential},
       {"Q.Q = 1", RowKind::kConstraint}},
      [](double t, std::span<const double> x, std::span<const double> dx, std::span<double> r) {
        const double q1 = x[0], q2 = x[1], q3 = x[2], q4 = x[3];
        const double d1 = dx[0], d2 = dx[1], d3 = dx[2], d4 = dx[3];
        r[0] = x[4] - 2.0 * (q4 * d1 + q3 * d2 - q2 * d3 - q1 * d4);
        r[1] = x[5] - 2.0 * (-q3 * d1 + q4 * d2 + q1 * d3 - q2 * d4);
        r[2] = x[6] - 2.0 * (q2 * d1 - q1 * d2 + q4 * d3 - q3 * d4);
        const double inertia[3] = {1.0, 2.0, 3.0};
        const double amplitude[3] = {3.0, 4.0, 5.0};
        const double frequency_hz[3] = {0.3, 0.2, 0.1};
        const double phase[3] = {0.0, 0.5235987755983, 1.0471975511966};
        const double w[3] = {x[4], x[5], x[6]};
        const double iw[3] = {inertia[0] * w[0], inertia[1] * w[1], inertia[2] * w[2]};
        const double w_cross_iw[3] = {w[1] * iw[2] - w[2] * iw[1], w[2] * iw[0] - w[0] * iw[2],
                                      w[0] * iw[1] - w[1] * iw[0]};
        for (int i = 0; i < 3; ++i) {
          const double u =
              amplitude[i] * std::sin(2.0 * std::numbers::pi * frequency_hz[i] * t + phase[i]);
          r[3 + i] = inertia[i] * dx[4 + i] + w_cross_iw[i] - u;
        }
        r[6] = q1 * q1 + q2 * q2 + q3 * q3 + q4 * q4 - 1.0;
      });
  const std::vector<double> x_minus{0.1, 0.5, 0.0, 1.0, 0.0, 0.0, 0.0};

  // G(Q_m) D = 0 makes D parallel to Q_m, hence Q+ parallel to Q-; with |Q+| = 1 the answer
  // is Q- / |Q-|, and the w rows (I D_w = 0) keep w.
  const double norm = std::sqrt(0.01 + 0.25 + 1.0);
  const JumpOutcome out = solve_jump(model.problem(), x_minus);
  REQUIRE(out.status == SolveStatus::kOk);
  for (std::size_t j = 0; j < 4; ++j) {
    CHECK(out.x_plus[j] == doctest::Approx(x_minus[j] / norm).epsilon(kNewtonTol));
  }
  for (std::size_t j = 4; j < 7; ++j) CHECK(std::abs(out.x_plus[j]) < kNewtonTol);
}

TEST_CASE("a GGL pendulum off its circle is projected radially with a tangential velocity") {
  const testing::TestModel pendulum = make_pendulum_ggl();
  // ModiaMath's start values: x = 0.5, y = -0.5, vx = 1, vy = 1 (radius 0.707, not 1).
  const std::vector<double> x_minus{0.5, -0.5, 1.0, 1.0, 0.0, 0.0};

  const JumpOutcome out = solve_jump(pendulum.problem(), x_minus);
  REQUIRE(out.status == SolveStatus::kOk);
  // Rows 1-2 at the midpoint: D_x/x_m = D_y/y_m, which gives x+ y- = x- y+: the position
  // moves along its ray onto the circle, (x, y)+ = (0.5, -0.5)/|(0.5, -0.5)|.
  const double s = 1.0 / std::sqrt(2.0);
  CHECK(out.x_plus[0] == doctest::Approx(s).epsilon(kNewtonTol));
  CHECK(out.x_plus[1] == doctest::Approx(-s).epsilon(kNewtonTol));
  // Rows 3-4: the velocity jump is parallel to the (radial) position, and row 6 removes the
  // radial part: v+ = v- - (e.v-) e with e = (s, -s): e.v- = 0, so v+ = v- = (1, 1).
  CHECK(out.x_plus[2] == doctest::Approx(1.0).epsilon(kNewtonTol));
  CHECK(out.x_plus[3] == doctest::Approx(1.0).epsilon(kNewtonTol));
  // The constraints hold at x+.
  const double x = out.x_plus[0], y = out.x_plus[1];
  CHECK(std::abs(x * x + y * y - 1.0) < 2.0 * kNewtonTol);
  CHECK(std::abs(x * out.x_plus[2] + y * out.x_plus[3]) < 2.0 * kNewtonTol);
}

TEST_CASE("a pendulum whose velocity has a radial part loses exactly that part") {
  const testing::TestModel pendulum = make_pendulum_ggl();
  const std::vector<double> x_minus{0.5, -1.0, -1.0, 0.0, 0.0, 0.0};

  const JumpOutcome out = solve_jump(pendulum.problem(), x_minus);
  REQUIRE(out.status == SolveStatus::kOk);
  // Radial projection of the position: e = (0.5, -1)/sqrt(1.25) = (0.4472136, -0.8944272).
  const double e_x = 0.5 / std::sqrt(1.25);
  const double e_y = -1.0 / std::sqrt(1.25);
  CHECK(out.x_plus[0] == doctest::Approx(e_x).epsilon(kNewtonTol));
  CHECK(out.x_plus[1] == doctest::Approx(e_y).epsilon(kNewtonTol));
  // v+ = v- - (e.v-) e with v- = (-1, 0): e.v- = -e_x, v+ = (-1 + e_x^2, e_x e_y) = (-0.8, -0.4).
  CHECK(out.x_plus[2] == doctest::Approx(-0.8).epsilon(kNewtonTol));
  CHECK(out.x_plus[3] == doctest::Approx(-0.4).epsilon(kNewtonTol));
}

TEST_CASE("a state that already satisfies the constraints is returned unchanged at once") {
  const testing::TestModel clutch = make_clutch();
  SUBCASE("exactly") {
    const std::vector<double> x_minus{6.4, 6.4, -1.44};
    const JumpOutcome out = solve_jump(clutch.problem(), x_minus);
    REQUIRE(out.status == SolveStatus::kOk);
    CHECK(out.iterations == 0);
    REQUIRE(out.x_plus.size() == 3);
    CHECK(std::memcmp(out.x_plus.data(), x_minus.data(), 3 * sizeof(double)) == 0);
  }
  SUBCASE("to the tolerance") {
    // A constraint violated by 1e-12 (what IDA leaves behind) is below the 1e-9 tolerance.
    const std::vector<double> x_minus{6.4, 6.4 + 1e-12, -1.44};
    const JumpOutcome out = solve_jump(clutch.problem(), x_minus);
    REQUIRE(out.status == SolveStatus::kOk);
    CHECK(out.iterations == 0);
    CHECK(std::memcmp(out.x_plus.data(), x_minus.data(), 3 * sizeof(double)) == 0);
  }
}

}  // namespace
}  // namespace hdae::reinit
