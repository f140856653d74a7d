// A Co-Simulation FMU that does not get past an instant (tests/fmi/fmus/stuck_cs): from its
// parameter t_stuck on, fmi3DoStep returns early at once without advancing. The run ends with
// an error naming the FMU, fmi3DoStep and the time instead of stepping on forever, and so does
// a step whose lastSuccessfulTime lies outside the step it was asked for.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "hdae/fmi.hpp"
#include "results/temp_dir.hpp"
#include "test_fmus.hpp"

using namespace hdae;

namespace {

/// The run's error; its partial result into partial.
std::string run_error(fmi::Fmu& fmu, const SimulationOptions& options, SimulationResult& partial) {
  try {
    static_cast<void>(fmu.co_simulate(options));
  } catch (const ModelCallbackError& e) {
    REQUIRE(e.partial_result() != nullptr);
    partial = *e.partial_result();
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a Co-Simulation FMU that keeps returning early at one instant ends the run there") {
  const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::test_fmu("stuck_cs"));
  SimulationResult partial;
  const std::string message = run_error(*fmu, test::grid(1.0, 0.1), partial);
  CAPTURE(message);
  // t_stuck = 0.55 (its start value in stuck_cs/modelDescription.xml): the step from 0.5
  // returns early there, and every step from there returns early without advancing.
  CHECK(message.find("FMU 'stuck_cs.fmu': fmi3DoStep returned early 100 times in a row at "
                     "t = 0.55 without advancing (lastSuccessfulTime = 0.55)") !=
        std::string::npos);
  CHECK(partial.status.outcome == Outcome::kModelFailure);
  // The communication points reached: 0, 0.1, ..., 0.5; x = t there (der(x) = 1 from 0,
  // stepped exactly: only the rounding of the sums of the steps).
  REQUIRE(partial.table.num_rows() == 6);
  for (std::size_t row = 0; row < 6; ++row) {
    const double t = partial.table.time(row);
    CHECK(t == doctest::Approx(0.1 * static_cast<double>(row)).epsilon(1e-14));
    CHECK(std::abs(partial.table.column("x")[row] - t) < 1e-14);
  }
  // The returns at 0.55 report one event: the first; the others are the same instant.
  REQUIRE(partial.events.size() == 1);
  CHECK(partial.events[0].t == 0.55);
  CHECK(partial.events[0].kind == EventKind::kState);
}

TEST_CASE("a lastSuccessfulTime before the communication point ends the run naming both") {
  const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::test_fmu("stuck_cs"));
  fmu->set_parameter("back", 0.25);
  SimulationResult partial;
  const std::string message = run_error(*fmu, test::grid(1.0, 0.1), partial);
  CAPTURE(message);
  // The stuck step from 0.55 ends 0.25 before it (the parameter back): at 0.3.
  CHECK(message.find("FMU 'stuck_cs.fmu': fmi3DoStep from t = 0.55 over h = ") !=
        std::string::npos);
  CHECK(message.find("returned lastSuccessfulTime = 0.30000000000000004, outside the step "
                     "[t, t + h]") != std::string::npos);
  CHECK(partial.table.num_rows() == 6);
}

TEST_CASE("hdae run of a stuck Co-Simulation FMU exits with 2 and writes the rows reached") {
  const test::TempDir dir;
  const std::string csv = (dir.path() / "stuck.csv").string();
  std::string err;
  CHECK(test::hdae_run({"run", test::test_fmu("stuck_cs").string(), "--set", "t_stuck=0.3",
                        "--output-interval", "0.25", csv},
                       err) == 2);
  CAPTURE(err);
  CHECK(err.find("FMU 'stuck_cs.fmu': fmi3DoStep returned early 100 times in a row at t = 0.3 ") !=
        std::string::npos);
  CHECK(err.find("partial result written to") != std::string::npos);
  // The points before t_stuck: 0 and 0.25.
  const ResultTable r = read_csv(csv);
  REQUIRE(r.num_rows() == 2);
  CHECK(r.time(1) == 0.25);
}
