// FMUs that cannot be loaded or that fail in a run (tests/fmi/fmus): each error names the FMU,
// and the line, function or variable concerned.
#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/fmi.hpp"
#include "hdae/simulator.hpp"
#include "test_fmus.hpp"

using namespace hdae;

namespace {

std::string load_error(const std::string& fmu) {
  try {
    static_cast<void>(fmi::load(test::test_fmu(fmu)));
  } catch (const IoError& e) {
    return e.what();
  }
  return "no error";
}

SimulationOptions to_one_second() {
  SimulationOptions o;
  o.stop_s = 1.0;
  return o;
}

}  // namespace

TEST_CASE("an FMU whose modelDescription.xml does not parse names the file, line and reason") {
  // pugixml reports the unclosed <Float64> where the parser meets </ModelVariables>.
  CHECK(load_error("broken_xml") ==
        "FMU 'broken_xml.fmu': modelDescription.xml line 6: Start-end tags mismatch");
}

TEST_CASE(
    "an FMU whose state derivative refers to no variable names the file, line and "
    "reference") {
  CHECK(load_error("broken_reference") ==
        "FMU 'broken_reference.fmu': modelDescription.xml line 9: <ContinuousStateDerivative> "
        "refers to valueReference 3, which no variable has");
}

TEST_CASE("an FMU without a binary for this platform names the file it lacks") {
  CHECK(load_error("missing_binary") ==
        "FMU 'missing_binary.fmu' has no binary for this platform: "
        "binaries/x86_64-linux/bouncing_ball.so is missing (the FMU has binaries for: none)");
}

TEST_CASE("a file that does not exist or is no zip archive is named") {
  CHECK(load_error("no_such") == "FMU '" + test::test_fmu("no_such").string() + "': no such file");
  // A file that is not an archive: the description of a test FMU, as staged for packing.
  const std::filesystem::path not_zip =
      std::filesystem::path(HDAE_TEST_FMU_DIR) / "stage/broken_xml/modelDescription.xml";
  try {
    static_cast<void>(fmi::load(not_zip));
    FAIL("no error");
  } catch (const IoError& e) {
    const std::string message = e.what();
    CAPTURE(message);
    CHECK(message.starts_with("FMU 'modelDescription.xml': not a readable zip archive ("));
  }
}

TEST_CASE(
    "an FMU function that returns fmi3Error ends the run naming the FMU, the function "
    "and the FMU's message") {
  const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::test_fmu("function_error"));
  try {
    static_cast<void>(simulate(*fmu, to_one_second()));
    FAIL("no error");
  } catch (const ModelCallbackError& e) {
    const std::string message = e.what();
    CAPTURE(message);
    CHECK(message.find("FMU 'function_error.fmu': fmi3GetContinuousStateDerivatives returned "
                       "fmi3Error at t = ") != std::string::npos);
    CHECK(message.find("(variables: der(x)); the FMU's last message: Error [logStatusError] "
                       "the rate table ends at t = 0.5") != std::string::npos);
    CHECK(e.partial_result()->table.num_rows() > 1);
  }
}

TEST_CASE("an FMU that returns a NaN derivative stops the run naming the derivative and state") {
  const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::test_fmu("nan_derivative"));
  // A NaN derivative is recoverable (a smaller step may avoid it): IDA retries and fails,
  // and its failure names the last reason.
  const SimulationResult r = simulate(*fmu, to_one_second());
  CHECK(r.status.outcome == Outcome::kSolverFailure);
  CAPTURE(r.status.message);
  CHECK(r.status.message.find("FMU 'nan_derivative.fmu': fmi3GetContinuousStateDerivatives "
                              "returned der(x) = nan for the state x = ") != std::string::npos);
  CHECK(r.status.t == doctest::Approx(0.5).epsilon(1e-6));
}

TEST_CASE("an FMU whose directional derivative is NaN stops the run naming both variables") {
  const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::test_fmu("nan_partial"));
  // IDA forms its Newton matrix from the FMU's partials; a NaN among them is recoverable as a
  // NaN derivative is, so IDA retries with smaller steps and fails, naming the last reason.
  SimulationOptions o = to_one_second();
  o.method = IntegrationMethod::kIda;
  const SimulationResult r = simulate(*fmu, o);
  CHECK(r.status.outcome == Outcome::kSolverFailure);
  CAPTURE(r.status.message);
  CHECK(r.status.message.find("FMU 'nan_partial.fmu': fmi3GetDirectionalDerivative returned "
                              "d(der(x))/d(x) = nan at t = ") != std::string::npos);
  // IDA keeps a Newton matrix over several steps: the NaN shows at its first new one after
  // 0.5 s, and the run stops there, before the stop time.
  CHECK(r.status.t >= 0.5);
  CHECK(r.status.t < 1.0);
}
