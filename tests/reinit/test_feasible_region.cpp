// Feasible regions in the jump solve (VariableInfo::min/max; ITI paper section 6): a Newton
// step that would leave the region goes parallel to its border when the equations leave room,
// and is shortened otherwise, so the model is never evaluated outside the region.
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "reinit/jump_solver.hpp"
#include "reinit_test_models.hpp"

namespace hdae::reinit {
namespace {

constexpr double kNewtonTol = 1e-9;

/// A level h with the outflow law sqrt(h) = 0.1 (f_c): the answer is h = 0.01. From h = 1 the
/// first Newton step, -(sqrt(1) - 0.1) / (1 / (2 sqrt(1))) = -1.8, lands at h = -0.8, where
/// sqrt is not real; `outside` counts the evaluations below h = 0.
testing::TestModel level(std::shared_ptr<int> outside) {
  testing::TestModel m = testing::make_model(
      {"h"}, {{"sqrt(h) = 0.1", RowKind::kConstraint}},
      [outside](double, std::span<const double> x, std::span<const double>, std::span<double> r) {
        if (x[0] < 0.0) ++*outside;
        r[0] = std::sqrt(x[0]) - 0.1;
      });
  m.structure.variables.set_start(0, 1.0);
  return m;
}

}  // namespace

TEST_CASE("a bound keeps the Newton iterates of the jump solve inside the region") {
  const std::vector<double> start{1.0};
  auto outside = std::make_shared<int>(0);
  testing::TestModel free = level(outside);
  const JumpOutcome unbounded = solve_jump(free.problem(), start);
  // Without the bound the line search recovers from the NaN, but the model saw h < 0.
  REQUIRE(unbounded.status == SolveStatus::kOk);
  CHECK(*outside > 0);

  *outside = 0;
  testing::TestModel bounded = level(outside);
  bounded.structure.variables.declared(0).min = 0.0;
  const JumpOutcome out = solve_jump(bounded.problem(), start);
  REQUIRE(out.status == SolveStatus::kOk);
  CHECK(*outside == 0);
  // A residual of sqrt(h) - 0.1 below the Newton tolerance leaves h within 2 sqrt(h) * 1e-9
  // = 2e-10 of 0.01, 2e-8 relative: 100 times the tolerance covers it.
  CHECK(out.x_plus[0] == doctest::Approx(0.01).epsilon(kNewtonTol * 100));
}

TEST_CASE("a step leaving the region goes parallel to its border when the equations allow") {
  // a + b = 2 (stated twice) leaves one direction free; c is fixed and enters only der(c) = 0,
  // so the initial jump is solved in the least-squares sense (ITI paper section 5). From
  // (a, b) = (0, 0) the minimum-norm answer is (1, 1). With a <= 0.5 that step would leave the
  // region; the step parallel to the border holds a and gives (0, 2), which meets the equations.
  const auto residual = [](double, std::span<const double> x, std::span<const double> der_x,
                           std::span<double> r) {
    r[0] = x[0] + x[1] - 2.0;
    r[1] = der_x[2];
    r[2] = 2.0 * x[0] + 2.0 * x[1] - 4.0;
  };
  testing::TestModel m = testing::make_model({"a", "b", "c"},
                                             {{"a + b = 2", RowKind::kConstraint},
                                              {"der(c) = 0", RowKind::kDifferential},
                                              {"2 a + 2 b = 4", RowKind::kConstraint}},
                                             residual);
  m.structure.variables.declared(2).fixed = true;
  m.structure.variables.set_start(2, 1.0);
  const std::vector<double> start{0.0, 0.0, 1.0};

  const JumpOutcome free =
      solve_jump(m.problem(0.0, JumpRule::kMidpoint, FixedValues::kKeep), start);
  REQUIRE(free.status == SolveStatus::kOk);
  CHECK(free.x_plus[0] == doctest::Approx(1.0).epsilon(kNewtonTol));
  CHECK(free.x_plus[1] == doctest::Approx(1.0).epsilon(kNewtonTol));

  m.structure.variables.declared(0).max = 0.5;
  const JumpOutcome out =
      solve_jump(m.problem(0.0, JumpRule::kMidpoint, FixedValues::kKeep), start);
  REQUIRE(out.status == SolveStatus::kOk);
  CHECK(std::abs(out.x_plus[0]) <= kNewtonTol);
  CHECK(out.x_plus[1] == doctest::Approx(2.0).epsilon(kNewtonTol));
  CHECK(out.x_plus[2] == 1.0);
}

TEST_CASE("a solution outside the region is a failure that names the bound") {
  // sqrt(h) = 0.1 has its solution at h = 0.01, below min = 0.5: no step can reach it.
  auto outside = std::make_shared<int>(0);
  testing::TestModel m = level(outside);
  m.structure.variables.declared(0).min = 0.5;
  const JumpOutcome out = solve_jump(m.problem(), std::vector<double>{1.0});
  CHECK(out.status == SolveStatus::kNotConverged);
  CHECK(out.message.find("feasible region (min/max) of {h}") != std::string::npos);
  CHECK(*outside == 0);
}

TEST_CASE("feasible regions are validated with the model") {
  ModelStructure s;
  s.name = "m";
  s.variables.add(VariableInfo{.name = "p", .start = -1.0, .min = 0.0});
  s.equations.add(EquationInfo{"der(p) = 1", RowKind::kDifferential});
  CHECK_THROWS_WITH_AS(s.validate(),
                       doctest::Contains("start value -1 of variable 'p' lies outside its "
                                         "feasible region [0, inf]"),
                       ModelError);
  s.variables.set(0, VariableInfo{.name = "p", .min = 1.0, .max = 1.0});
  CHECK_THROWS_WITH_AS(s.validate(), doctest::Contains("has min = 1 not below max = 1"),
                       ModelError);
}

}  // namespace hdae::reinit
