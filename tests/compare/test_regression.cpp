// Regression comparisons of the bundled examples: each example's model run at the example's
// own settings (examples/common/example_settings.hpp, which examples/<name>/main.cpp uses too)
// agrees with its tight-tolerance reference in references/ within the default tube
// (rel 1e-3, abs 1e-6, rel_time 1e-3, event shift 1e-6 s); a perturbed parameter does not.
// The example programs and the hdae-compare program are run on the same references by the
// ctests "example <name> ... agrees with references/<name>.csv" (tests/CMakeLists.txt).
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include "../../tools/make_references/example_runs.hpp"
#include "hdae/compare.hpp"
#include "hdae/csv.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

ResultTable reference(const std::string& name) {
  return read_csv(std::filesystem::path(HDAE_REFERENCE_DIR) / (name + ".csv"));
}

const references::ExampleRun& example(const std::vector<references::ExampleRun>& runs,
                                      std::string_view name) {
  for (const auto& r : runs) {
    if (r.name == name) return r;
  }
  throw std::out_of_range(std::string(name));
}

/// Runs a model with an example's settings and compares the reference's columns.
CompareReport compare_run(SimulationModel& model, const references::ExampleRun& run) {
  const SimulationResult result = simulate(model, run.options);
  REQUIRE(result.status.ok());
  return compare_results(reference(run.name), references::keep_columns(result.table, run.signals),
                         CompareOptions{});
}

}  // namespace

TEST_CASE("every bundled example agrees with its reference result") {
  for (const references::ExampleRun& run : references::example_runs()) {
    CAPTURE(run.name);
    REQUIRE(
        std::filesystem::exists(std::filesystem::path(HDAE_REFERENCE_DIR) / (run.name + ".csv")));
    const auto model = run.make_model();
    const CompareReport report = compare_run(*model, run);
    INFO(report.full_report());
    CHECK(report.agree);
    CHECK(report.signals.size() == run.signals.size());
    CHECK(report.only_in_reference.empty());
  }
}

TEST_CASE("a pendulum with damping 0.12 instead of 0.1 differs from the reference") {
  const auto runs = references::example_runs();
  models::Pendulum model({.damping_nms = 0.12});
  const CompareReport report = compare_run(model, example(runs, "pendulum"));
  CHECK_FALSE(report.agree);
  CHECK(report.problems.empty());
  CHECK(report.failed_signals() == 2);  // phi and w drift apart as the amplitudes decay
}

TEST_CASE("a bouncing ball with restitution 0.72 differs in its events") {
  const auto runs = references::example_runs();
  models::BouncingBall model({.restitution = 0.72});
  const CompareReport report = compare_run(model, example(runs, "bouncing_ball"));
  CHECK_FALSE(report.agree);
  // Rest at the first n with 0.72^n sqrt(2 g h0) < 0.01 m/s: n = 19 impacts instead of 18;
  // the first impact (t1, independent of e) pairs, the second, at t1 (1 + 2e) = 1.0836567 s
  // in the reference, comes t1 * 2 * 0.02 = 0.018 s late.
  REQUIRE(report.problems.size() == 1);
  CHECK(
      report.problems[0].starts_with("the reference has 18 events, the result 19; event 2 is "
                                     "at t = 1.08365673"));
}

TEST_CASE("a chain with 1 % stiffer springs differs from the reference") {
  const auto runs = references::example_runs();
  models::MassSpringChain model({.masses = references::kChainMasses, .stiffness_npm = 101.0});
  const CompareReport report = compare_run(model, example(runs, "mass_spring_chain"));
  CHECK_FALSE(report.agree);
  CHECK(report.problems.empty());
}

TEST_CASE("a clutch engaging at 300.5 s instead of 300 s fails on the shifted event") {
  const auto runs = references::example_runs();
  models::IdealClutch model({.engage_s = 300.5});
  const CompareReport report = compare_run(model, example(runs, "ideal_clutch"));
  CHECK_FALSE(report.agree);
  // Both runs have the release at 100 s and one engagement; the engagement is 0.5 s late,
  // far beyond the default event_time_tol_s of 1e-6 s.
  REQUIRE(report.problems.size() == 1);
  CHECK(report.problems[0] ==
        "event 2 is at t = 300 in the reference, t = 300.5 in the result: shift 0.5 s exceeds "
        "event_time_tol_s = 1e-06 s");
}

TEST_CASE("colliding masses that bounce (e = 0.1) differ in every signal but the momentum") {
  const auto runs = references::example_runs();
  models::CollidingMasses model({.restitution = 0.1});
  const CompareReport report = compare_run(model, example(runs, "colliding_masses"));
  CHECK_FALSE(report.agree);
  // The impact is at the same instant (the approach does not depend on e); afterwards
  // v = (0.45, 0.55) m/s instead of 0.5 each, so positions, velocities, impulse (0.55 N s) and
  // kinetic energy (0.2525 J) leave their tubes, while m1 v1 + m2 v2 = 1 N s is conserved.
  CHECK(report.problems.empty());
  REQUIRE(report.signals.size() == 7);
  CHECK(report.failed_signals() == 6);
  for (const SignalComparison& s : report.signals) {
    CAPTURE(s.name);
    CHECK(s.passed == (s.name == "momentum"));
  }
}

TEST_CASE("three masses with restitution 0.5 at the second stop differ but keep the momentum") {
  const auto runs = references::example_runs();
  models::ThreeMasses model({.restitution = {0.6, 0.5}});
  const CompareReport report = compare_run(model, example(runs, "three_masses"));
  CHECK_FALSE(report.agree);
  // Same event at 0.5 s; v^+ = (-17/12, -13/60, 17/60) m/s instead of (-22/15, -4/15, 1/3):
  // every signal but the conserved total momentum (-1 N s) leaves its tube.
  CHECK(report.problems.empty());
  REQUIRE(report.signals.size() == 10);
  CHECK(report.failed_signals() == 9);
  for (const SignalComparison& s : report.signals) {
    CAPTURE(s.name);
    CHECK(s.passed == (s.name == "momentum"));
  }
}
