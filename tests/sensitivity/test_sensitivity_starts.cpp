// Sensitivities to the start values of an index-reduced model, whose consistent start moves
// the slots it derives from them (SimulationModel::vary_start): the PID controller as written,
// against central differences of perturbed runs (tools/sensitivity_check/) and a closed form.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "expect_sources_pass.hpp"
#include "hdae/models/pid_controller.hpp"
#include "hdae/simulator.hpp"
#include "sensitivity_check/sensitivity_check.hpp"

namespace hdae {
namespace {

namespace check = sensitivity_check;

/// The check's tolerance (tests/sensitivity/test_sensitivity_check.cpp): the central
/// differences of runs at rel_tol 1e-10 with the source moved by 1e-4 of itself carry the runs'
/// errors over the step, a few 1e-6 of each column.
constexpr double kTolerance = 1e-5;

/// Checks `sources` of `model` to stop_s against central differences: every one passes.
void check_sources(const std::string& model, const std::vector<std::string>& sources,
                   double stop_s) {
  check::Plan plan = check::plan_for(model);
  plan.sources = sources;
  plan.stop_s = stop_s;
  test::expect_sources_pass(plan, kTolerance);
}

}  // namespace

TEST_CASE("start values of an index-reduced model move the slots its consistent start derives") {
  // x is the PID controller's fixed start and e = x - x_set is derived from it: d(e)/d(start(x))
  // is 1 at t0, and the guess start(e) moves nothing, its sensitivities are 0 (both also by
  // central differences of perturbed runs).
  check_sources("pid_controller", {"start(x)", "start(e)"}, 2.0);
}

TEST_CASE("a fixed start value of a reduced model carries the unknowns derived from it") {
  // The PID-positioned mass as written (models/pid_controller.hpp): x's start is fixed and
  // e = x - x_set derived from it. The equations hold e, i and v only, and x enters as
  // x - x_set, so moving x(0) by d moves e as moving x_set by -d does:
  // d(e)/d(start(x)) = d(x)/d(start(x)) = -w with the closed form w of d(e)/d(x_set)
  // (tests/sensitivity/test_sensitivities.cpp), w(t) = 2.5 e^-t - 8 e^-2t + 4.5 e^-3t, which
  // is 1 at t0. start(e) is a guess that e = x - x_set overrides: nothing depends on it.
  const std::unique_ptr<SimulationModel> pid =
      models::make_pid_controller(models::PidForm::kAsWritten);
  SimulationOptions o;
  o.stop_s = 2.0;
  o.output_interval_s = 0.5;
  o.rel_tol = 1e-9;  // the tightest a sensitivity run takes
  o.log_level = LogLevel::kOff;
  o.sensitivities = {"start(x)", "start(e)"};
  const SimulationResult r = simulate(*pid, o);
  REQUIRE_MESSAGE(r.status.outcome == Outcome::kReachedStopTime, r.status.message);
  const ResultTable& table = r.table;
  for (std::size_t k = 0; k < table.num_rows(); ++k) {
    const double t = table.time(k);
    CAPTURE(t);
    const double w = 2.5 * std::exp(-t) - 8.0 * std::exp(-2.0 * t) + 4.5 * std::exp(-3.0 * t);
    // rel_tol 1e-9 on a solution of size 1: 1e-6 leaves room for the global error.
    CHECK(table.value(k, table.column_index("d(e)/d(start(x))")) ==
          doctest::Approx(-w).epsilon(1e-6).scale(1.0));
    CHECK(table.value(k, table.column_index("d(x)/d(start(x))")) ==
          doctest::Approx(-w).epsilon(1e-6).scale(1.0));
    CHECK(std::abs(table.value(k, table.column_index("d(e)/d(start(e))"))) < 1e-6);
  }
}

}  // namespace hdae
