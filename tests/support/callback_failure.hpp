// The message of the ModelCallbackError a run throws, for tests of models that misuse the API.
#pragma once

#include <string>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/simulator.hpp"

namespace hdae::test {

/// Runs the model with default options (logging off) and returns what() of the
/// ModelCallbackError it throws, after checking that the error carries the partial result of
/// a model failure; "no failure" when the run throws none.
inline std::string callback_failure(SimulationModel& model) {
  SimulationOptions options;
  options.log_level = LogLevel::kOff;
  try {
    static_cast<void>(simulate(model, options));
  } catch (const ModelCallbackError& e) {
    REQUIRE(e.partial_result() != nullptr);
    CHECK(e.partial_result()->status.outcome == Outcome::kModelFailure);
    return e.what();
  }
  return "no failure";
}

}  // namespace hdae::test
