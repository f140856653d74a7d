// An exported FMU misused by its importer: every wrong call answers fmi3Error (or a null
// instance) with a logger message naming what was wrong, and the importer's process goes on.
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "exported_fmu.hpp"
#include "results/temp_dir.hpp"

using namespace hdae;

namespace {

/// An instance in Step Mode of the exported bouncing ball, with its functions at hand.
struct Stepping {
  test::LoadedFmu fmu{test::exported_fmu("bouncing_ball")};
  test::LogBook book;
  fmi3Instance instance = nullptr;

  Stepping() {
    instance = fmu.instantiate(book);
    REQUIRE(instance != nullptr);
    REQUIRE(fmu.function<fmi3EnterInitializationModeFn>("fmi3EnterInitializationMode")(
                instance, false, 0.0, 0.0, true, 1.0) == fmi3OK);
    REQUIRE(fmu.function<fmi3InstanceFn>("fmi3ExitInitializationMode")(instance) == fmi3OK);
  }
  ~Stepping() { fmu.function<fmi3FreeInstanceFn>("fmi3FreeInstance")(instance); }
  Stepping(const Stepping&) = delete;
  Stepping& operator=(const Stepping&) = delete;

  fmi3Status step(double t, double h) {
    fmi3Boolean event = false, terminate = false, early = false;
    double last = 0.0;
    return fmu.function<fmi3DoStepFn>("fmi3DoStep")(instance, t, h, true, &event, &terminate,
                                                    &early, &last);
  }
};

}  // namespace

TEST_CASE("fmi3GetFloat64 of an unknown value reference answers fmi3Error naming the reference") {
  Stepping s;
  const fmi3ValueReference vrs[] = {1, 99};
  double values[2] = {};
  CHECK(s.fmu.function<fmi3GetFloat64Fn>("fmi3GetFloat64")(s.instance, vrs, 2, values, 2) ==
        fmi3Error);
  INFO(s.book.all());
  CHECK(s.book.contains("3|logStatusError|"));
  CHECK(s.book.contains("no variable has the value reference 99"));
}

TEST_CASE("fmi3DoStep with a negative step size answers fmi3Error and the run can go on") {
  Stepping s;
  CHECK(s.step(0.0, -0.01) == fmi3Error);
  INFO(s.book.all());
  CHECK(s.book.contains("communicationStepSize must be positive and finite, got -0.01"));
  CHECK(s.step(0.0, 0.01) == fmi3OK);  // refused before anything changed
}

TEST_CASE("fmi3DoStep past the stop time or from another time answers fmi3Error") {
  Stepping s;
  CHECK(s.step(0.5, 0.01) == fmi3Error);
  CHECK(s.book.contains("currentCommunicationPoint 0.5 is not the time the FMU has reached, 0"));
  CHECK(s.step(0.0, 1.5) == fmi3Error);
  CHECK(s.book.contains("passes the stop time 1"));
}

TEST_CASE("fmi3SetFloat64 of an output and the other types' functions answer fmi3Error") {
  Stepping s;
  const fmi3ValueReference h = 1;
  const double value = 2.0;
  CHECK(s.fmu.function<fmi3SetFloat64Fn>("fmi3SetFloat64")(s.instance, &h, 1, &value, 1) ==
        fmi3Error);
  CHECK(s.book.contains("'h' (value reference 1) cannot be set"));
  fmi3Int32 i = 0;
  CHECK(s.fmu.function<fmi3GetInt32Fn>("fmi3GetInt32")(s.instance, &h, 1, &i, 1) == fmi3Error);
  CHECK(s.book.contains("no variables of type Int32 (value reference 1)"));
  fmi3FMUState state = nullptr;
  CHECK(s.fmu.function<fmi3GetFMUStateFn>("fmi3GetFMUState")(s.instance, &state) == fmi3Error);
  CHECK(s.book.contains("canGetAndSetFMUState"));
  CHECK(s.fmu.function<fmi3InstanceFn>("fmi3EnterEventMode")(s.instance) == fmi3Error);
  CHECK(s.book.contains("hasEventMode is false"));
}

TEST_CASE("an FMU whose resources name an unknown model fails to instantiate with a message") {
  const test::LoadedFmu fmu(test::exported_fmu("bouncing_ball"));
  const test::TempDir resources;
  resources.write("hdae_model.txt", "model no_such_model\n");
  test::LogBook book;
  CHECK(fmu.instantiate(book, resources.path().string() + "/", fmu.token()) == nullptr);
  INFO(book.all());
  CHECK(book.contains("no_such_model"));
  CHECK(book.contains("bouncing_ball"));  // the message lists the models
}

TEST_CASE("an instantiation token of another export is refused with a message") {
  const test::LoadedFmu fmu(test::exported_fmu("bouncing_ball"));
  test::LogBook book;
  CHECK(fmu.instantiate(book, fmu.resources(), "hdae-0.0.0-other-0000") == nullptr);
  CHECK(book.contains("the instantiationToken 'hdae-0.0.0-other-0000' is not this FMU's"));
}

TEST_CASE("an exported FMU with a --set value starts from it and is reset to it") {
  const test::LoadedFmu fmu(test::exported_fmu("bouncing_ball", {"h_start=2"}));
  CHECK(fmu.file_text("modelDescription.xml")
            .find("name=\"h\" valueReference=\"1\" "
                  "causality=\"output\" variability=\"continuous\" "
                  "unit=\"m\" initial=\"approx\" start=\"2\"") != std::string::npos);
  test::LogBook book;
  fmi3Instance instance = fmu.instantiate(book);
  REQUIRE(instance != nullptr);
  const fmi3ValueReference h = 1, h_start = 5;
  const double three = 3.0;
  double value = 0.0;
  auto* get = fmu.function<fmi3GetFloat64Fn>("fmi3GetFloat64");
  CHECK(fmu.function<fmi3SetFloat64Fn>("fmi3SetFloat64")(instance, &h_start, 1, &three, 1) ==
        fmi3OK);
  CHECK(get(instance, &h, 1, &value, 1) == fmi3OK);
  CHECK(value == 3.0);
  CHECK(fmu.function<fmi3InstanceFn>("fmi3Reset")(instance) == fmi3OK);
  CHECK(get(instance, &h, 1, &value, 1) == fmi3OK);
  CHECK(value == 2.0);
  fmu.function<fmi3FreeInstanceFn>("fmi3FreeInstance")(instance);
}

TEST_CASE(
    "a run that fails inside fmi3DoStep answers fmi3Error with the reason and fmi3Reset starts "
    "over") {
  // Without the rest rule (v_rest = 0) the impacts of the ball accumulate at
  // t1 (1 + e) / (1 - e) = 0.4515 s * 1.7 / 0.3 = 2.559 s (models/include/hdae/models/
  // bouncing_ball.hpp), where hdae ends the run as chattering.
  const test::LoadedFmu fmu(test::exported_fmu("bouncing_ball", {"v_rest=0"}));
  test::LogBook book;
  fmi3Instance instance = fmu.instantiate(book);
  REQUIRE(instance != nullptr);
  auto* enter = fmu.function<fmi3EnterInitializationModeFn>("fmi3EnterInitializationMode");
  auto* exit = fmu.function<fmi3InstanceFn>("fmi3ExitInitializationMode");
  auto* step = fmu.function<fmi3DoStepFn>("fmi3DoStep");
  fmi3Boolean event = false, terminate = false, early = false;
  double t = 0.0;
  REQUIRE(enter(instance, false, 0.0, 0.0, true, 3.0) == fmi3OK);
  REQUIRE(exit(instance) == fmi3OK);
  fmi3Status status = fmi3OK;
  while (status == fmi3OK && t < 2.99) {
    status = step(instance, t, 0.1, true, &event, &terminate, &early, &t);
  }
  CHECK(status == fmi3Error);
  INFO(book.all());
  CHECK(book.contains("the run failed at t = 2.55"));
  CHECK(t < 2.6);
  // The failed instance refuses further steps until it is reset.
  CHECK(step(instance, t, 0.1, true, &event, &terminate, &early, &t) == fmi3Error);
  CHECK(book.contains("not allowed in the state failed"));
  REQUIRE(fmu.function<fmi3InstanceFn>("fmi3Reset")(instance) == fmi3OK);
  t = 0.0;
  REQUIRE(enter(instance, false, 0.0, 0.0, true, 3.0) == fmi3OK);
  REQUIRE(exit(instance) == fmi3OK);
  CHECK(step(instance, 0.0, 1.0, true, &event, &terminate, &early, &t) == fmi3OK);
  CHECK(t == 1.0);
  fmu.function<fmi3FreeInstanceFn>("fmi3FreeInstance")(instance);
}
