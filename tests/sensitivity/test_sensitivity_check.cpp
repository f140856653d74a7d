// The sensitivity check of the bundled models (tools/sensitivity_check/) over a subset that
// covers each kind of event the sensitivities pass through: scripts/sensitivity-check.sh runs
// it over the whole catalog.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "expect_sources_pass.hpp"
#include "hdae/models/catalog.hpp"
#include "hdae/models/transistor_amplifier.hpp"
#include "hdae/simulator.hpp"
#include "sensitivity_check/sensitivity_check.hpp"

namespace hdae {
namespace {

namespace check = sensitivity_check;

/// The check's tolerance, relative to each column's magnitude: the central differences of runs
/// at rel_tol 1e-10 with the source moved by 1e-4 to 3e-4 of itself (the plans) carry the
/// runs' errors divided by the step and a truncation of the step squared, each a few 1e-6 of
/// the column; the sensitivities, at rel_tol 1e-9, add less than that.
constexpr double kTolerance = 1e-5;

/// Runs the plan of `model` to stop_s and checks that every source passes.
void check_model(const std::string& model, double stop_s) {
  check::Plan plan = check::plan_for(model);
  plan.stop_s = stop_s;
  test::expect_sources_pass(plan, kTolerance, plan.intervals / 2);
}

}  // namespace

TEST_CASE("the sensitivity check has a plan for every bundled model, in the catalog's order") {
  const std::vector<check::Plan> plans = check::plans();
  const auto& catalog = models::catalog();
  REQUIRE(plans.size() == catalog.size());
  for (std::size_t i = 0; i < plans.size(); ++i) {
    CAPTURE(catalog[i].name);
    CHECK(plans[i].model == catalog[i].name);
    CHECK(!plans[i].sources.empty());
  }
  CHECK_THROWS_WITH_AS((void)check::plan_for("no_such_model"), "no bundled model 'no_such_model'",
                       std::out_of_range);
}

TEST_CASE("sensitivities agree with central differences through state events and impacts") {
  check_model("simple_state_events", 5.0);  // a force switched at crossings
  check_model("bouncing_ball", 3.0);        // impacts moving with e, g and h(0), then at rest
  check_model("colliding_masses", 1.0);     // a plastic impact by the jump solve
  check_model("tank_overflow", 5.0);        // a guarded substitute equation switched on and off
}

TEST_CASE("sensitivities agree with central differences through Dirac impulses at time events") {
  check_model("ideal_clutch", 400.0);  // engaged at t0 and at 300 s (impulses), released at 100 s
}

TEST_CASE("sensitivities of DAEs agree with central differences of perturbed runs") {
  check_model("pendulum_dae", 2.0);         // started off its circle and projected onto it
  check_model("mass_spring_chain", 2.0);    // KLU on the augmented system
  check_model("hydraulic_actuator", 10.0);  // a consistent jump at a mode switch
}

TEST_CASE("sensitivities of reduced models agree with central differences of perturbed runs") {
  check_model("cartesian_pendulum", 10.0);  // KLU through changes of selected states
  check_model("slider_crank", 2.0);         // driven, with columns that stay at 0
  check_model("pid_controller_reduced", 10.0);
  check_model("pid_controller_substituted", 10.0);
}

TEST_CASE("sensitivities follow a reduced model laid out afresh when its mode changes") {
  // The string goes slack near 0.48 s: the reduced model's handler lays out the flight's
  // equations on its first call at the event and has nothing left to do on the calls that
  // follow, so the row kinds of that first call must reach the run (with the taut kinds the
  // jump matrix is singular). At 1.26 s the string is jerked taut, an impact the reduced model
  // integrates itself, and is laid out afresh again.
  check_model("string_pendulum", 3.0);
}

TEST_CASE("sensitivities follow impacts a reduced model integrates itself") {
  check_model("wall_pendulum", 3.0);  // four impacts, changes of selected states between
}

TEST_CASE("sensitivities of several sources of a stiff reduced mechanism run together") {
  // The squeezer's forces are large: the Newton matrix below the diagonal blocks, taken as
  // difference quotients of the sensitivity rows, would carry their rounding over the
  // quotient's step and the increment, and the iterations of the second source's block stall
  // (each source alone ran). From the model's own Jacobian along each source it holds.
  check_model("andrews_squeezer", 0.03);
}

TEST_CASE("the consistent start holds sensitivity rows whose own terms cancel") {
  // The transistor amplifier starts at its operating point: moving Ub moves the start values
  // so that the divider rows' terms cancel, and their sensitivity rows are then rounding of
  // the model rows' terms, which the consistent derivatives judge against those terms. The
  // perturbed runs reach 0.2 s at the check's reference tolerance (1e-10) only with the
  // example's step control (SimulationOptions::step_growth_threshold); with IDA's own they end
  // with IDA_TOO_MUCH_WORK near 0.09 s.
  check_model("transistor_amplifier", 0.2);
}

TEST_CASE("a stiff circuit's sensitivity rows from its exact Jacobian carry the run past 13 ms") {
  // The transistor amplifier's sensitivity run at the check's rel_tol stalled with
  // IDA_CONV_FAIL near t = 0.0134 s: the quotients along the path carry the rounding of
  // x + eps s_k times F_x over their step, which its Newton iterations cannot get below. From
  // the model's exact Jacobian (SimulationModel::has_exact_jacobian) the rows have none of it.
  models::TransistorAmplifier model;
  REQUIRE(model.has_exact_jacobian());
  SimulationOptions o;
  o.stop_s = 0.03;
  o.rel_tol = 1e-9;        // the tightest a sensitivity run takes, as the check's
  o.abs_tol_factor = 1.0;  // the example's
  o.log_level = LogLevel::kOff;
  o.sensitivities = {"R0", "Ub", "start(U1)"};
  const SimulationResult r = simulate(model, o);
  CAPTURE(r.status.message);
  CHECK(r.status.outcome == Outcome::kReachedStopTime);
}

}  // namespace hdae
