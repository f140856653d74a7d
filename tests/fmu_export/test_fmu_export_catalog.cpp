// Every bundled model exported by `hdae fmu export` instantiates, initializes and steps through
// the first tenth of its example's run, every variable finite on the way.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "exported_fmu.hpp"
#include "hdae/models/catalog.hpp"
#include "variable_layout.hpp"

using namespace hdae;

TEST_CASE("every bundled model exports as an FMU that steps through the first tenth of its run") {
  for (const models::CatalogEntry& entry : models::catalog()) {
    CAPTURE(entry.name);
    const test::LoadedFmu fmu(test::exported_fmu(entry.name));
    test::LogBook book;
    fmi3Instance instance = fmu.instantiate(book);
    INFO(book.all());
    REQUIRE(instance != nullptr);
    const SimulationOptions& run = entry.example.options;
    REQUIRE(fmu.function<fmi3EnterInitializationModeFn>("fmi3EnterInitializationMode")(
                instance, false, 0.0, run.start_s, true, run.stop_s) == fmi3OK);
    REQUIRE(fmu.function<fmi3InstanceFn>("fmi3ExitInitializationMode")(instance) == fmi3OK);
    const fmu_export::VariableLayout layout(entry.make()->structure());
    std::vector<fmi3ValueReference> vrs(layout.size());
    for (std::size_t k = 0; k < vrs.size(); ++k) vrs[k] = static_cast<fmi3ValueReference>(k);
    std::vector<double> values(vrs.size());
    double t = run.start_s;
    const double h = (run.stop_s - run.start_s) / 100.0;
    for (int k = 0; k < 10; ++k) {
      fmi3Boolean event = false, terminate = false, early = false;
      REQUIRE(fmu.function<fmi3DoStepFn>("fmi3DoStep")(instance, t, h, true, &event, &terminate,
                                                       &early, &t) == fmi3OK);
      REQUIRE(fmu.function<fmi3GetFloat64Fn>("fmi3GetFloat64")(
                  instance, vrs.data(), vrs.size(), values.data(), values.size()) == fmi3OK);
      CHECK(std::count_if(values.begin(), values.end(),
                          [](double v) { return !std::isfinite(v); }) == 0);
    }
    // Ten communication points reached in turn: the sum of ten steps, to its rounding.
    CHECK(std::abs(t - (run.start_s + 10 * h)) < 1e-9 * std::max(1.0, std::abs(t)));
    fmu.function<fmi3FreeInstanceFn>("fmi3FreeInstance")(instance);
  }
}
