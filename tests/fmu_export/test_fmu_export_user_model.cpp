// A user's own model made into an FMU with hdae_add_fmu (cmake/HdaeAddFmu.cmake; the model is
// tests/fmu_export/user_model/decay_model.cpp): its description and its run through the FMI
// functions against the analytic decay.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "exported_fmu.hpp"

using namespace hdae;

TEST_CASE("an FMU built by hdae_add_fmu runs the user's model to its analytic decay") {
  const test::LoadedFmu fmu(HDAE_TEST_USER_FMU);
  const std::string xml = fmu.file_text("modelDescription.xml");
  CHECK(xml.find("<CoSimulation modelIdentifier=\"user_decay\"") != std::string::npos);
  // hdae_add_fmu's STOP_TIME and TOLERANCE (tests/CMakeLists.txt).
  CHECK(xml.find("stopTime=\"2\" tolerance=\"1e-10\"") != std::string::npos);
  CHECK(xml.find("name=\"y\" valueReference=\"3\" causality=\"output\"") != std::string::npos);
  test::LogBook book;
  fmi3Instance instance = fmu.instantiate(book);
  INFO(book.all());
  REQUIRE(instance != nullptr);
  REQUIRE(fmu.function<fmi3EnterInitializationModeFn>("fmi3EnterInitializationMode")(
              instance, false, 0.0, 0.0, false, 0.0) == fmi3OK);
  REQUIRE(fmu.function<fmi3InstanceFn>("fmi3ExitInitializationMode")(instance) == fmi3OK);
  auto* step = fmu.function<fmi3DoStepFn>("fmi3DoStep");
  auto* get = fmu.function<fmi3GetFloat64Fn>("fmi3GetFloat64");
  double t = 0.0;
  for (int k = 1; k <= 20; ++k) {  // to the DefaultExperiment's stop time, 2 s
    fmi3Boolean event = false, terminate = false, early = false;
    REQUIRE(step(instance, t, 0.1, true, &event, &terminate, &early, &t) == fmi3OK);
    // x = exp(-t / T) with T = 0.5 s; rel_tol 1e-10 keeps IDA's error below 1e-8; y = 2 x.
    const fmi3ValueReference vrs[] = {1, 3};
    double values[2] = {};
    REQUIRE(get(instance, vrs, 2, values, 2) == fmi3OK);
    CHECK(std::abs(values[0] - std::exp(-t / 0.5)) < 1e-8);
    CHECK(values[1] == 2.0 * values[0]);
  }
  fmi3Boolean event = false, terminate = false, early = false;
  CHECK(step(instance, t, 0.1, true, &event, &terminate, &early, &t) == fmi3Error);
  CHECK(book.contains("passes the stop time 2"));
  fmu.function<fmi3FreeInstanceFn>("fmi3FreeInstance")(instance);
}
