// The pendulum in GGL index-1 form (models/pendulum_dae.hpp): projection of an inconsistent
// start onto the constraints, fixed start values, and ModiaMath's published values at t = 2 s.
#include <cmath>

#include <doctest/doctest.h>

#include "hdae/models/pendulum_dae.hpp"
#include "hdae/simulator.hpp"
#include "models/event_rows.hpp"

using namespace hdae;
using models::testing::initial_row;
using models::testing::value;

namespace {

constexpr double kRelTol = 1e-8;  // the tolerance of ModiaMath's published runs
// The jump solve stops at a nominal-scaled residual of jump_tol_factor * rel_tol (default
// 1e-3 * rel_tol); a factor 10 covers the conditioning of the projection (entries of order 1).
constexpr double kJumpTol = 10 * 1e-3 * kRelTol;
// ModiaMath's test of PendulumDAE (test_withoutMacros_withoutVariables1.jl) compares its
// 6-digit values at t = 2 s with atol = 1e-5.
constexpr double kPublishedTol = 1e-5;

SimulationResult run(bool fix_x_and_vx) {
  models::PendulumDaeParameters p;
  p.fix_x_and_vx = fix_x_and_vx;
  models::PendulumDae model(p);
  SimulationOptions options;
  options.stop_s = 2.0;
  options.output_interval_s = 0.1;  // ModiaMath's interval; the values at 2 s do not depend on it
  options.rel_tol = kRelTol;
  return simulate(model, options);
}

}  // namespace

TEST_CASE("a pendulum started off its circle is projected radially onto it at t0") {
  const SimulationResult result = run(false);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  const ResultTable& table = result.table;
  // The position rows der(x) = vx - x mue allow a jump only along (x, y) (mue is an impulse),
  // so (0.5, -0.5) goes radially to (1, -1)/sqrt(2); the velocity may jump only along (x, y)
  // too (lambda is an impulse), which removes its radial part: v = (1, 1) is already
  // tangential and stays. This holds for the midpoint and the end-point rule alike.
  const double r = 1.0 / std::sqrt(2.0);
  CHECK(std::abs(value(table, initial_row(table), "x") - r) < kJumpTol);
  CHECK(std::abs(value(table, initial_row(table), "y") + r) < kJumpTol);
  CHECK(std::abs(value(table, initial_row(table), "vx") - 1.0) < kJumpTol);
  CHECK(std::abs(value(table, initial_row(table), "vy") - 1.0) < kJumpTol);
  // The constraints hold at t0^+ to the jump-solve tolerance.
  const double x = value(table, initial_row(table), "x");
  const double y = value(table, initial_row(table), "y");
  CHECK(std::abs((x * x + y * y - 1.0) / 2.0) < kJumpTol);
  CHECK(std::abs(x * value(table, initial_row(table), "vx") +
                 y * value(table, initial_row(table), "vy")) < kJumpTol);
}

TEST_CASE("with x and vx fixed the pendulum starts at y = -0.8660254 and vy = 0.5773503") {
  const SimulationResult result = run(true);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  const ResultTable& table = result.table;
  // Fixed start values are kept exactly (ITI paper section 4).
  CHECK(value(table, initial_row(table), "x") == 0.5);
  CHECK(value(table, initial_row(table), "vx") == 1.0);
  // x^2 + y^2 = 1 with x = 0.5 and y on the lower branch: y = -sqrt(3)/2; x vx + y vy = 0
  // gives vy = 0.5 / (sqrt(3)/2) = 1/sqrt(3). docs/design.md, "The jump solve", quotes 7 digits:
  // -0.8660254, 0.5773503.
  CHECK(std::abs(value(table, initial_row(table), "y") - (-0.8660254)) <
        5e-8);  // half a unit in the 7th digit
  CHECK(std::abs(value(table, initial_row(table), "vy") - 0.5773503) < 5e-8);
  CHECK(std::abs(value(table, initial_row(table), "y") + std::sqrt(3.0) / 2.0) < kJumpTol);
  CHECK(std::abs(value(table, initial_row(table), "vy") - 1.0 / std::sqrt(3.0)) < kJumpTol);
}

TEST_CASE("the pendulum reaches ModiaMath's published state at t = 2 s") {
  SUBCASE("start values free") {
    const SimulationResult result = run(false);
    REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
    const ResultTable& table = result.table;
    CHECK(table.time().back() == 2.0);
    CHECK(std::abs(table.final_value("x") - 0.542797) < kPublishedTol);
    CHECK(std::abs(table.final_value("y") - (-0.839864)) < kPublishedTol);
    CHECK(std::abs(table.final_value("vx") - 1.80223) < kPublishedTol);
    CHECK(std::abs(table.final_value("vy") - 1.16476) < kPublishedTol);
    CHECK(std::abs(table.final_value("der(vx)") - (-6.97155)) < kPublishedTol);
    CHECK(std::abs(table.final_value("der(vy)") - 0.977022) < kPublishedTol);
  }
  SUBCASE("x and vx fixed") {
    const SimulationResult result = run(true);
    REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
    const ResultTable& table = result.table;
    CHECK(std::abs(table.final_value("x") - 0.431501) < kPublishedTol);
    CHECK(std::abs(table.final_value("y") - (-0.902112)) < kPublishedTol);
    CHECK(std::abs(table.final_value("vx") - 1.2889) < kPublishedTol);
    CHECK(std::abs(table.final_value("vy") - 0.616512) < kPublishedTol);
    CHECK(std::abs(table.final_value("der(vx)") - (-4.69952)) < kPublishedTol);
    CHECK(std::abs(table.final_value("der(vy)") - 0.01497) < kPublishedTol);
  }
}

TEST_CASE("the undamped GGL pendulum keeps its constraints and its energy while it swings") {
  const SimulationResult result = run(false);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  const ResultTable& table = result.table;
  const double energy0 = value(table, initial_row(table), "energy");
  for (std::size_t i = initial_row(table); i < table.num_rows(); ++i) {
    CAPTURE(table.time(i));
    const double x = value(table, i, "x");
    const double y = value(table, i, "y");
    const double vx = value(table, i, "vx");
    const double vy = value(table, i, "vy");
    // IDA's Newton iteration meets the f_c rows to a fraction of its local error test, so they
    // hold to within 10 rel_tol of each row's scale (L^2 = 1 m^2; L v_max, v_max < 5 m/s).
    CHECK(std::abs((x * x + y * y - 1.0) / 2.0) < 10 * kRelTol);
    CHECK(std::abs(x * vx + y * vy) < 10 * kRelTol * 5.0);
    // No damping: energy is conserved up to IDA's global error, within 100 rel_tol of the
    // energy scale m g L ~ 10 J over these 2 s.
    CHECK(std::abs(value(table, i, "energy") - energy0) < 100 * kRelTol * 10.0);
  }
}
