// Regression comparisons of the bundled examples: each example's model run at the example's
// own settings (examples/<name>/main.cpp, mirrored in tools/make_references/example_runs.hpp)
// agrees with its tight-tolerance reference in references/ within the default tube
// (rel 1e-3, abs 1e-6, rel_time 1e-3, event shift 1e-6 s); a perturbed parameter does not.
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
