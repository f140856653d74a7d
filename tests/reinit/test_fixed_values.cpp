// Fixed start values in the initial jump solve (ITI paper sections 4 and 5): kept bit for
// bit, the other variables move, and under- or over-determined systems are said so.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "reinit/jump_solver.hpp"
#include "reinit_test_models.hpp"

namespace hdae::reinit {
namespace {

// Newton tolerance 1e-9 in nominal units (all nominals 1); see test_jump_known_answers.cpp.
constexpr double kNewtonTol = 1e-9;

testing::TestModel pendulum_with_fixed(const std::vector<double>& start,
                                       const std::vector<std::size_t>& fixed) {
  testing::TestModel m = testing::make_pendulum_ggl();
  for (std::size_t j = 0; j < start.size(); ++j) m.structure.variables.set_start(j, start[j]);
  for (const std::size_t j : fixed) m.structure.variables.declared(j).fixed = true;
  return m;
}

TEST_CASE("a pendulum with x and vx fixed starts at y = -0.8660254 and vy = 0.5773503") {
  // ModiaMath's PendulumDAE with x_fixed = true: start [0.5, -0.5, 1, 1, 0, 0], x and vx fixed.
  const std::vector<double> start{0.5, -0.5, 1.0, 1.0, 0.0, 0.0};
  const testing::TestModel m = pendulum_with_fixed(start, {0, 2});

  const JumpOutcome out =
      solve_jump(m.problem(0.0, JumpRule::kMidpoint, FixedValues::kKeep), start);
  REQUIRE(out.status == SolveStatus::kOk);
  CHECK(out.warnings.empty());  // the slack impulses on x and vx keep the system square
  // Fixed values are kept exactly.
  CHECK(std::memcmp(&out.x_plus[0], &start[0], sizeof(double)) == 0);
  CHECK(std::memcmp(&out.x_plus[2], &start[2], sizeof(double)) == 0);
  // docs/design.md, "The jump solve": y = -sqrt(L^2 - x^2) = -0.8660254 (the branch the start value
  // is on) and x vx + y vy = 0 gives vy = -x vx / y = 0.5773503; the published values have 7
  // decimals, so 1e-7.
  CHECK(out.x_plus[1] == doctest::Approx(-0.8660254).epsilon(1e-7));
  CHECK(out.x_plus[3] == doctest::Approx(0.5773503).epsilon(1e-7));
  CHECK(out.x_plus[1] == doctest::Approx(-std::sqrt(0.75)).epsilon(kNewtonTol));
  CHECK(out.x_plus[3] == doctest::Approx(0.5 / std::sqrt(0.75)).epsilon(kNewtonTol));
}

TEST_CASE("fixed start values are ignored outside the initial jump") {
  const std::vector<double> start{0.5, -0.5, 1.0, 1.0, 0.0, 0.0};
  const testing::TestModel m = pendulum_with_fixed(start, {0, 2});
  const JumpOutcome out =
      solve_jump(m.problem(0.0, JumpRule::kMidpoint, FixedValues::kIgnore), start);
  REQUIRE(out.status == SolveStatus::kOk);
  // Without the fixed values the position is projected radially (see the known-answer test):
  // x+ = 0.5 / |(0.5, -0.5)| = 0.7071068.
  CHECK(out.x_plus[0] == doctest::Approx(1.0 / std::sqrt(2.0)).epsilon(kNewtonTol));
}

TEST_CASE("fixing a position on the circle names the undetermined and the dependent parts") {
  // x, y fixed on the circle (0.6, -0.8); vx = vy = 1 free. The position rows then leave the
  // multiplier mue_int open (under-determined) and make the circle equation redundant
  // (over-determined but satisfied): ITI paper section 5.
  const std::vector<double> start{0.6, -0.8, 1.0, 1.0, 0.0, 0.0};
  const testing::TestModel m = pendulum_with_fixed(start, {0, 1});

  const JumpOutcome out =
      solve_jump(m.problem(0.0, JumpRule::kMidpoint, FixedValues::kKeep), start);
  REQUIRE(out.status == SolveStatus::kOk);
  // The impulse acts along the rod: D_v = -(D_lambda/m) (x, y) and x.v+ = 0 give
  // v+ = v- - (e.v-) e with e = (0.6, -0.8), e.v- = -0.2: v+ = (1.12, 0.84).
  CHECK(out.x_plus[2] == doctest::Approx(1.12).epsilon(kNewtonTol));
  CHECK(out.x_plus[3] == doctest::Approx(0.84).epsilon(kNewtonTol));
  // The minimum-norm answer leaves the undetermined mue_int at its start value.
  CHECK(std::abs(out.x_plus[5]) < kNewtonTol);
  REQUIRE(out.warnings.size() == 2);
  CHECK(out.warnings[0] ==
        "jump at t = 0: with fixed start values the jump equations are under-determined: "
        "variables {mue_int} are not determined; they change as little as possible "
        "(minimum-norm answer)");
  CHECK(out.warnings[1] ==
        "jump at t = 0: with the start values of {x, y} fixed the jump equations are "
        "over-determined: equations {0 = (x^2 + y^2 - L^2)/2} are dependent and are met in the "
        "least-squares sense");
}

TEST_CASE("fixed start values that contradict a constraint fail with the equation named") {
  // All of x, y, vx, vy fixed at ModiaMath's start values, which are off the circle:
  // (0.25 + 0.25 - 1)/2 = -0.25 cannot be removed. The velocity constraint happens to hold
  // (0.5*1 - 0.5*1 = 0).
  const std::vector<double> start{0.5, -0.5, 1.0, 1.0, 0.0, 0.0};
  const testing::TestModel m = pendulum_with_fixed(start, {0, 1, 2, 3});

  const JumpOutcome out =
      solve_jump(m.problem(0.0, JumpRule::kMidpoint, FixedValues::kKeep), start);
  CHECK(out.status == SolveStatus::kNotConverged);
  // The circle row depends on fixed values only, so its row scale is 1 and its scaled
  // residual is the raw -0.25.
  CHECK(out.message ==
        "jump at t = 0: the fixed start values of {x, y} cannot all be met: equations "
        "{0 = (x^2 + y^2 - L^2)/2} are not satisfied (largest scaled residual 0.25)");
  REQUIRE(out.warnings.size() == 2);
  CHECK(out.warnings[0] ==
        "jump at t = 0: with fixed start values the jump equations are under-determined: "
        "variables {lambda_int, mue_int} are not determined; they change as little as possible "
        "(minimum-norm answer)");
  CHECK(out.warnings[1] ==
        "jump at t = 0: with the start values of {x, y, vx, vy} fixed the jump equations are "
        "over-determined: equations {0 = (x^2 + y^2 - L^2)/2, 0 = x*vx + y*vy} are dependent "
        "and are met in the least-squares sense");
}

}  // namespace
}  // namespace hdae::reinit
