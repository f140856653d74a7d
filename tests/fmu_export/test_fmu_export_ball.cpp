// The bouncing ball exported as an FMU (`hdae fmu export bouncing_ball`) and run through its
// FMI 3.0 Co-Simulation functions as an importer runs it, against the analytic solution and
// against hdae::simulate of the same catalog model.
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "exported_fmu.hpp"
#include "hdae/models/catalog.hpp"
#include "hdae/simulator.hpp"
#include "runtime_dependencies.hpp"

using namespace hdae;

namespace {

// The catalog's bouncing ball (models/src/bouncing_ball.cpp): h(0) = h_start = 1 m, v(0) = 0,
// g = 9.81 m/s^2, restitution e = 0.7; value references 0 time, 1 h, 2 v, 3 der(h), 4 der(v),
// then the parameters h_start, e, g, v_rest (fmu_export/src/variable_layout.hpp).
constexpr double kH0 = 1.0;
constexpr double kG = 9.81;
constexpr double kE = 0.7;
constexpr fmi3ValueReference kTime = 0, kH = 1, kV = 2, kDerH = 3, kDerV = 4, kRestitution = 6;

/// Free fall from h0 until the first impact at t1 = sqrt(2 h0 / g), where v jumps from
/// -g t1 to e g t1; then the flight up and down again until the second impact at
/// t2 = t1 + 2 e g t1 / g = t1 (1 + 2e). (h, v) at t < t2.
struct Ball {
  double h, v;
};
Ball analytic(double t, double e = kE) {
  const double t1 = std::sqrt(2.0 * kH0 / kG);
  if (t < t1) return {kH0 - 0.5 * kG * t * t, -kG * t};
  const double v1 = e * kG * t1;
  const double s = t - t1;
  return {v1 * s - 0.5 * kG * s * s, v1 - kG * s};
}

/// An instance through initialization, freed at the end of the scope.
class Instance {
 public:
  Instance(const test::LoadedFmu& fmu, test::LogBook& book, bool early_return = false)
      : fmu_(fmu), early_return_(early_return) {
    instance_ = fmu.instantiate(book, early_return);
    REQUIRE(instance_ != nullptr);
  }
  ~Instance() { fmu_.function<fmi3FreeInstanceFn>("fmi3FreeInstance")(instance_); }
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  fmi3Status initialize(double stop = 2.0) {
    const fmi3Status entered = fmu_.function<fmi3EnterInitializationModeFn>(
        "fmi3EnterInitializationMode")(instance_, false, 0.0, 0.0, true, stop);
    if (entered != fmi3OK) return entered;
    return fmu_.function<fmi3InstanceFn>("fmi3ExitInitializationMode")(instance_);
  }
  /// DoStep; early_return, when given, receives earlyReturn (otherwise it must be false).
  fmi3Status step(double t, double h, double* reached = nullptr, bool* early_return = nullptr) {
    fmi3Boolean event = true, terminate = true, early = true;
    double last = -1.0;
    const fmi3Status s = fmu_.function<fmi3DoStepFn>("fmi3DoStep")(instance_, t, h, true, &event,
                                                                   &terminate, &early, &last);
    if (s == fmi3OK) {
      CHECK_FALSE(event);  // hasEventMode is false: never asks for Event Mode
      CHECK_FALSE(terminate);
      if (!early_return_) CHECK_FALSE(early);  // the importer did not allow it
    }
    if (early_return != nullptr) *early_return = early;
    if (reached != nullptr) *reached = last;
    return s;
  }
  double get(fmi3ValueReference vr) {
    double value = NAN;
    REQUIRE(fmu_.function<fmi3GetFloat64Fn>("fmi3GetFloat64")(instance_, &vr, 1, &value, 1) ==
            fmi3OK);
    return value;
  }
  fmi3Status set(fmi3ValueReference vr, double value) {
    return fmu_.function<fmi3SetFloat64Fn>("fmi3SetFloat64")(instance_, &vr, 1, &value, 1);
  }

 private:
  const test::LoadedFmu& fmu_;
  bool early_return_;
  fmi3Instance instance_ = nullptr;
};

}  // namespace

TEST_CASE(
    "the exported bouncing ball's description declares its variables, parameters and "
    "capabilities") {
  const test::LoadedFmu fmu(test::exported_fmu("bouncing_ball"));
  const std::string xml = fmu.file_text("modelDescription.xml");
  CHECK(xml.find("fmiVersion=\"3.0\"") != std::string::npos);
  CHECK(xml.find("<CoSimulation modelIdentifier=\"bouncing_ball\"") != std::string::npos);
  CHECK(xml.find("canHandleVariableCommunicationStepSize=\"true\"") != std::string::npos);
  CHECK(xml.find("canGetAndSetFMUState=\"false\"") != std::string::npos);
  CHECK(xml.find("hasEventMode=\"false\"") != std::string::npos);
  CHECK(xml.find("mightReturnEarlyFromDoStep=\"true\"") != std::string::npos);
  CHECK(xml.find("<Float64 name=\"h\" valueReference=\"1\" causality=\"output\" "
                 "variability=\"continuous\" unit=\"m\" initial=\"approx\" start=\"1\"") !=
        std::string::npos);
  CHECK(xml.find("name=\"der(v)\" valueReference=\"4\" causality=\"local\"") != std::string::npos);
  CHECK(xml.find("derivative=\"2\"") != std::string::npos);
  CHECK(xml.find("name=\"e\" valueReference=\"6\" causality=\"parameter\" variability=\"fixed\"") !=
        std::string::npos);
  CHECK(xml.find("<Unit name=\"m/s2\"") != std::string::npos);
  CHECK(xml.find("<Output valueReference=\"2\"") != std::string::npos);
  // The example run of the catalog entry (models/src/catalog_basic.cpp) runs to 3 s.
  CHECK(xml.find("<DefaultExperiment startTime=\"0\" stopTime=\"3\"") != std::string::npos);
  CHECK(fmu.file_text("resources/hdae_model.txt").find("model bouncing_ball") != std::string::npos);
  CHECK(fmu.file_text("documentation/index.html").find("bouncing_ball") != std::string::npos);
  // The shared libraries hdae needs lie beside the binary (SUNDIALS' IDA among them); the C and
  // C++ runtime does not.
  CHECK(std::filesystem::exists(fmu.folder() / "binaries/x86_64-linux/bouncing_ball.so"));
  CHECK(std::filesystem::exists(fmu.folder() / "binaries/x86_64-linux/libsundials_ida.so.6"));
  CHECK_FALSE(std::filesystem::exists(fmu.folder() / "binaries/x86_64-linux/libc.so.6"));
  CHECK_FALSE(std::filesystem::exists(fmu.folder() / "binaries/x86_64-linux/libstdc++.so.6"));
  // The loader, asked about the unpacked binary, finds every library but the C and C++ runtime
  // in the FMU (RPATH $ORIGIN), so that it runs where hdae's dependencies are not installed.
  const std::string folder = std::filesystem::canonical(fmu.folder()).string();
  const std::vector<fmu_export::ShippedLibrary> needed =
      fmu_export::shipped_libraries(fmu.folder() / "binaries/x86_64-linux/bouncing_ball.so");
  CHECK(needed.size() > 10);
  for (const fmu_export::ShippedLibrary& library : needed) {
    INFO(library.soname << " from " << library.file);
    CHECK(library.file.string().starts_with(folder));
  }
}

TEST_CASE("the exported bouncing ball stepped by 0.01 s follows the analytic bounce") {
  const test::LoadedFmu fmu(test::exported_fmu("bouncing_ball"));
  test::LogBook book;
  Instance ball(fmu, book);
  REQUIRE(ball.initialize() == fmi3OK);
  CHECK(ball.get(kH) == kH0);
  double t = 0.0;
  // 100 steps to 1 s: one impact at t1 = 0.4515 s, before the second at t2 = 1.0836 s. The
  // example's tolerance (rel_tol 1e-8) keeps IDA's global error far below 1e-6 m.
  for (int k = 1; k <= 100; ++k) {
    double reached = 0.0;
    REQUIRE(ball.step(t, 0.01, &reached) == fmi3OK);
    CHECK(reached == t + 0.01);
    t = reached;
    const Ball expected = analytic(t);
    INFO("t = " << t);
    CHECK(ball.get(kTime) == t);
    CHECK(std::abs(ball.get(kH) - expected.h) < 1e-6);
    CHECK(std::abs(ball.get(kV) - expected.v) < 1e-6);
    CHECK(std::abs(ball.get(kDerH) - expected.v) < 1e-6);  // der(h) = v
    CHECK(ball.get(kDerV) == doctest::Approx(-kG));        // flying: der(v) = -g
  }
  // The impact is reported in the logger's category logEvents, with the jump of v.
  CHECK(book.contains("|logEvents|"));
  CHECK(book.contains("v: -4.42944"));
}

TEST_CASE("a DoStep whose interval holds the impact keeps the jump of the velocity") {
  const test::LoadedFmu fmu(test::exported_fmu("bouncing_ball"));
  test::LogBook book;
  Instance ball(fmu, book);
  REQUIRE(ball.initialize() == fmi3OK);
  REQUIRE(ball.step(0.0, 0.45) == fmi3OK);
  const double before = ball.get(kV);
  CHECK(std::abs(before - analytic(0.45).v) < 1e-6);
  CHECK(before < 0.0);
  // One step over t1 = sqrt(2/9.81) = 0.45152 s: v(t1-) = -g t1 becomes -e v(t1-) and then
  // decreases by g (0.46 - t1).
  REQUIRE(ball.step(0.45, 0.01) == fmi3OK);
  const double t1 = std::sqrt(2.0 * kH0 / kG);
  const double after = ball.get(kV);
  CHECK(after > 0.0);
  CHECK(std::abs(after - (-kE * (-kG * t1) - kG * (0.46 - t1))) < 1e-6);
  CHECK(std::abs(ball.get(kH) - analytic(0.46).h) < 1e-6);
}

TEST_CASE("with early return allowed a DoStep over the impact ends at the impact time") {
  const test::LoadedFmu fmu(test::exported_fmu("bouncing_ball"));
  test::LogBook book;
  Instance ball(fmu, book, true);
  REQUIRE(ball.initialize() == fmi3OK);
  double t = 0.0;
  bool early = true;
  REQUIRE(ball.step(0.0, 0.4, &t, &early) == fmi3OK);  // no event in [0, 0.4]
  CHECK_FALSE(early);
  CHECK(t == 0.4);
  // The impact at t1 = sqrt(2 h0 / g) = 0.45152 s lies in [0.4, 0.5]: the step ends there,
  // after the jump of v from -g t1 to e g t1.
  const double t1 = std::sqrt(2.0 * kH0 / kG);
  REQUIRE(ball.step(0.4, 0.1, &t, &early) == fmi3OK);
  CHECK(early);
  CHECK(std::abs(t - t1) < 1e-7);
  CHECK(ball.get(kTime) == t);
  CHECK(std::abs(ball.get(kV) - kE * kG * t1) < 1e-6);
  // The importer goes on from there; the next step has no event.
  REQUIRE(ball.step(t, 0.5 - t, &t, &early) == fmi3OK);
  CHECK_FALSE(early);
  CHECK(std::abs(ball.get(kV) - analytic(0.5).v) < 1e-6);
}

TEST_CASE("a restitution set before initialization changes the rebound of the exported ball") {
  const test::LoadedFmu fmu(test::exported_fmu("bouncing_ball"));
  test::LogBook book;
  Instance ball(fmu, book);
  REQUIRE(ball.set(kRestitution, 0.5) == fmi3OK);
  REQUIRE(ball.initialize() == fmi3OK);
  CHECK(ball.get(kRestitution) == 0.5);
  REQUIRE(ball.step(0.0, 0.6) == fmi3OK);
  CHECK(std::abs(ball.get(kV) - analytic(0.6, 0.5).v) < 1e-6);
  // Parameters are fixed once the run has started.
  CHECK(ball.set(kRestitution, 0.9) == fmi3Error);
  CHECK(book.contains("fmi3SetFloat64 of a parameter"));
}

TEST_CASE("the exported bouncing ball gives hdae::simulate's values at the communication points") {
  const test::LoadedFmu fmu(test::exported_fmu("bouncing_ball"));
  test::LogBook book;
  Instance ball(fmu, book);
  REQUIRE(ball.initialize(2.0) == fmi3OK);
  std::vector<double> times, heights, speeds;
  double t = 0.0;
  for (int k = 1; k <= 40; ++k) {  // to 2 s: seven impacts, the ball not yet at rest
    REQUIRE(ball.step(t, 0.05, &t) == fmi3OK);
    times.push_back(t);
    heights.push_back(ball.get(kH));
    speeds.push_back(ball.get(kV));
  }
  // The same catalog model and example options run in one piece with rows at those times.
  const models::CatalogEntry* entry = models::find_model("bouncing_ball");
  REQUIRE(entry != nullptr);
  const std::unique_ptr<SimulationModel> model = entry->make();
  SimulationOptions options = entry->example.options;
  options.stop_s = 2.0;
  options.output_interval_s.reset();
  options.output_times.assign(times.begin(), times.end() - 1);  // the stop time has its row
  const SimulationResult result = simulate(*model, options);
  REQUIRE(result.status.ok());
  const std::vector<double> h = result.table.column("h");
  const std::vector<double> v = result.table.column("v");
  // Slicing a run into advances gives the run of one advance (simulator.hpp: IDA is never
  // stopped at an advance's end), and both interpolate IDA's steps at the same times: the
  // values agree to round-off. Event rows come in pairs; a time's last row is its value.
  std::size_t row = 0;
  for (std::size_t k = 0; k < times.size(); ++k) {
    while (row + 1 < result.table.num_rows() && result.table.time(row + 1) <= times[k]) ++row;
    INFO("t = " << times[k]);
    REQUIRE(result.table.time(row) == times[k]);
    CHECK(std::abs(heights[k] - h[row]) < 1e-12);
    CHECK(std::abs(speeds[k] - v[row]) < 1e-12);
  }
}
