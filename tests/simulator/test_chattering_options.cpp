// Validation of the chattering options (options.hpp, "Chattering and Zeno behaviour"): each
// violated rule throws OptionError naming the field; 0 switches a rule off.
#include <limits>
#include <string>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/options.hpp"
#include "hdae/simulator.hpp"
#include "support/test_models.hpp"

using namespace hdae;

namespace {

/// validate() must throw OptionError with exactly this text.
void check_rejected(const SimulationOptions& options, const std::string& message) {
  CHECK_THROWS_WITH_AS(options.validate(), message.c_str(), OptionError);
}

}  // namespace

TEST_CASE("chattering options out of range are rejected with the field and its rule") {
  SimulationOptions o;
  o.chattering_event_count = 2;
  check_rejected(o, "SimulationOptions::chattering_event_count must be >= 3, got 2");

  o = {};
  o.chattering_min_relative_spacing = -1e-10;
  check_rejected(
      o,
      "SimulationOptions::chattering_min_relative_spacing must be in [0, 1e-3] (0: rule off), "
      "got -1e-10");
  o.chattering_min_relative_spacing = 0.01;
  check_rejected(
      o,
      "SimulationOptions::chattering_min_relative_spacing must be in [0, 1e-3] (0: rule off), "
      "got 0.01");
  o.chattering_min_relative_spacing = std::numeric_limits<double>::quiet_NaN();
  check_rejected(
      o,
      "SimulationOptions::chattering_min_relative_spacing must be in [0, 1e-3] (0: rule off), "
      "got nan");

  o = {};
  o.chattering_dense_event_count = 2;
  check_rejected(o, "SimulationOptions::chattering_dense_event_count must be >= 3, got 2");

  o = {};
  o.chattering_dense_span_fraction = 1.0;
  check_rejected(
      o,
      "SimulationOptions::chattering_dense_span_fraction must be in [0, 1) (0: rule off), got 1");
  o.chattering_dense_span_fraction = -0.5;
  check_rejected(
      o,
      "SimulationOptions::chattering_dense_span_fraction must be in [0, 1) (0: rule off), got "
      "-0.5");
  o.chattering_dense_span_fraction = std::numeric_limits<double>::infinity();
  check_rejected(
      o,
      "SimulationOptions::chattering_dense_span_fraction must be in [0, 1) (0: rule off), got "
      "inf");
}

TEST_CASE("the chattering rules can be switched off with 0 and simulate checks the options") {
  SimulationOptions o;
  o.chattering_min_relative_spacing = 0.0;
  o.chattering_dense_span_fraction = 0.0;
  CHECK_NOTHROW(o.validate());
  // simulate() validates the options before it runs.
  test::FirstOrderLag model(1.0, 1.0);
  o.chattering_dense_event_count = 0;
  CHECK_THROWS_WITH_AS(simulate(model, o),
                       "SimulationOptions::chattering_dense_event_count must be >= 3, got 0",
                       OptionError);
}
