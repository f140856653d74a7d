// Co-Simulation FMUs (tests/fmi/fmus: decay_cs, decay_both, function_error_cs): the interface
// chosen at load, fmi3DoStep over the output grid against the closed form, `hdae run` with
// --fmi-interface, and the errors of a step that fails and of an FMU with neither interface.
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "hdae/fmi.hpp"
#include "hdae/hdae_program.hpp"
#include "results/temp_dir.hpp"
#include "test_fmus.hpp"

using namespace hdae;

namespace {

/// The decay der(x) = -k x + u from x(0) = 1: x(t) = u/k + (1 - u/k) exp(-k t).
double decay(double t, double k, double u) { return u / k + (1.0 - u / k) * std::exp(-k * t); }

std::string load_error(const std::string& fmu, const fmi::LoadOptions& options = {}) {
  try {
    static_cast<void>(fmi::load(test::test_fmu(fmu), options));
  } catch (const IoError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a Co-Simulation decay FMU gives the closed form at every communication point") {
  const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::test_fmu("decay_cs"));
  REQUIRE(fmu->info().fmi_interface == fmi::Interface::kCoSimulation);
  fmu->set_parameter("k", 2.0);
  fmu->set_parameter("u", 3.0);
  const SimulationResult r = fmu->co_simulate(test::grid(2.0, 0.1));
  CHECK(r.status.outcome == Outcome::kReachedStopTime);
  REQUIRE(r.table.num_rows() == 21);  // t = 0, 0.1, ..., 2
  const std::vector<double> x = r.table.column("x");
  const std::vector<double> y = r.table.column("y");
  for (std::size_t row = 0; row < r.table.num_rows(); ++row) {
    const double t = r.table.time(row);
    CAPTURE(t);
    CHECK(t == doctest::Approx(0.1 * static_cast<double>(row)).epsilon(1e-14));
    // The FMU's RK4 substeps of 1e-3 s err by about (k h)^4 / 5! per unit of time relative to
    // x, some 1e-13 here: 1e-10 fails any other rate, start or grid.
    CHECK(std::abs(x[row] - decay(t, 2.0, 3.0)) < 1e-10);
    CHECK(std::abs(y[row] - (x[row] + 3.0)) < 1e-14);  // the output y = x + u
  }
}

TEST_CASE("an FMU with both interfaces loads as Model Exchange unless Co-Simulation is asked") {
  const std::unique_ptr<fmi::Fmu> me = fmi::load(test::test_fmu("decay_both"));
  CHECK(me->info().fmi_interface == fmi::Interface::kModelExchange);
  CHECK_THROWS_AS(static_cast<void>(me->co_simulate(test::grid(1.0, 0.5))), ModelError);
  const std::unique_ptr<fmi::Fmu> cs =
      fmi::load(test::test_fmu("decay_both"), {.fmi_interface = fmi::Interface::kCoSimulation});
  CHECK(cs->info().fmi_interface == fmi::Interface::kCoSimulation);
  const SimulationResult r = cs->co_simulate(test::grid(1.0, 0.5));
  REQUIRE(r.table.num_rows() == 3);
  CHECK(std::abs(r.table.final_value("x") - std::exp(-1.0)) < 1e-10);  // k = 1, u = 0
}

TEST_CASE("an interface the FMU lacks, or neither interface, is named at load") {
  CHECK(load_error("decay", {.fmi_interface = fmi::Interface::kCoSimulation}) ==
        "FMU 'decay.fmu': modelDescription.xml line 2: Co-Simulation was asked for, but the FMU "
        "has no <CoSimulation> element");
  CHECK(load_error("decay_cs", {.fmi_interface = fmi::Interface::kModelExchange}) ==
        "FMU 'decay_cs.fmu': modelDescription.xml line 2: Model Exchange was asked for, but the "
        "FMU has no <ModelExchange> element");
  CHECK(load_error("no_interface") ==
        "FMU 'no_interface.fmu': modelDescription.xml line 2: the FMU has neither a "
        "<ModelExchange> nor a <CoSimulation> element: hdae can run neither interface of it");
}

TEST_CASE("a communication step that returns fmi3Error ends the run naming the FMU and function") {
  const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::test_fmu("function_error_cs"));
  try {
    static_cast<void>(fmu->co_simulate(test::grid(1.0, 0.1)));
    FAIL("no error");
  } catch (const ModelCallbackError& e) {
    const std::string message = e.what();
    CAPTURE(message);
    CHECK(message.find("FMU 'function_error_cs.fmu': fmi3DoStep returned fmi3Error at t = ") !=
          std::string::npos);
    CHECK(message.find("the FMU's last message: Error [logStatusError] the rate table ends at "
                       "t = 0.5") != std::string::npos);
    // The model fails from t = 0.5 on: the points up to 0.4 were reached (up to 0.5 when the
    // step to 0.5 ends on its last evaluation just below it).
    const std::size_t rows = e.partial_result()->table.num_rows();
    CHECK(rows >= 5);
    CHECK(rows <= 6);
    CHECK(e.partial_result()->status.outcome == Outcome::kModelFailure);
  }
}

TEST_CASE("hdae run steps a Co-Simulation FMU with --fmi-interface cs and --set") {
  const test::TempDir dir;
  const std::string csv = (dir.path() / "decay.csv").string();
  std::string err;
  REQUIRE(test::hdae_run({"run", test::test_fmu("decay_both").string(), "--fmi-interface", "cs",
                          "--set", "k=2", "--set", "u=3", "--output-interval", "0.25", csv},
                         err) == 0);
  CAPTURE(err);
  const ResultTable r = read_csv(csv);
  // The DefaultExperiment's stop time 2 s on a grid of 0.25 s: nine rows, no event rows.
  REQUIRE(r.num_rows() == 9);
  CHECK(r.time(8) == 2.0);
  CHECK(std::abs(r.final_value("x") - decay(2.0, 2.0, 3.0)) < 1e-10);
  CHECK(test::hdae_run({"run", test::test_fmu("decay_both").string(), "--fmi-interface=xy"}, err) ==
        2);
  CHECK(err.find("--fmi-interface xy: the interfaces are cs (Co-Simulation) and me") !=
        std::string::npos);
}

TEST_CASE("hdae run of a failing Co-Simulation FMU exits with 2 naming the FMU and fmi3DoStep") {
  const test::TempDir dir;
  const std::string csv = (dir.path() / "failing.csv").string();
  std::string err;
  CHECK(test::hdae_run({"run", test::test_fmu("function_error_cs").string(), "--stop", "1", csv},
                       err) == 2);
  CAPTURE(err);
  CHECK(err.find("FMU 'function_error_cs.fmu': fmi3DoStep returned fmi3Error") !=
        std::string::npos);
  CHECK(err.find("partial result written to") != std::string::npos);
  CHECK(read_csv(csv).num_rows() >= 2);
}
