// Option validation: each violated rule throws OptionError with the field's name.
#include <cmath>
#include <limits>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/options.hpp"
#include "hdae/simulator.hpp"
#include "support/test_models.hpp"

using namespace hdae;

namespace {

std::string error_of(const SimulationOptions& options) {
  try {
    options.validate();
  } catch (const OptionError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("invalid options are rejected with a message naming the field") {
  SimulationOptions o;
  CHECK(error_of(o) == "no error");

  o = {};
  o.rel_tol = -1e-6;
  CHECK(error_of(o) == "SimulationOptions::rel_tol must be in (0, 1), got -1e-06");

  o = {};
  o.stop_s = -1.0;
  CHECK(error_of(o) == "SimulationOptions::stop_s must be > start_s (0), got -1");

  o = {};
  o.output_interval_s = 0.0;
  CHECK(error_of(o) ==
        "SimulationOptions::output_interval_s must be > 0 when set (unset selects "
        "(stop_s - start_s)/500), got 0");

  o = {};
  o.start_s = std::numeric_limits<double>::quiet_NaN();
  CHECK(error_of(o) == "SimulationOptions::start_s must be finite, got nan");

  o = {};
  o.max_event_iterations = 0;
  CHECK(error_of(o) == "SimulationOptions::max_event_iterations must be >= 1, got 0");
}

TEST_CASE("simulate validates options before touching the model") {
  test::FirstOrderLag model(2.0, 1.5);
  SimulationOptions o;
  o.abs_tol_factor = 0.0;
  CHECK_THROWS_WITH_AS(static_cast<void>(simulate(model, o)),
                       "SimulationOptions::abs_tol_factor must be > 0, got 0", OptionError);
}
