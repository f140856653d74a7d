// The text of `hdae list` and `hdae info <model>`: what a user needs to run a bundled model
// with other parameters, taken from the models' declarations (ModelStructure).
#pragma once

#include <string>

#include "hdae/model.hpp"

namespace hdae::cli {

/// One line per bundled model (hdae/models/catalog.hpp): its name, then its description.
[[nodiscard]] std::string model_list();

/// The model's variables (unit, start, nominal), parameters (unit, value, range,
/// description), equations (with their row kind at t0), crossings and time events, as
/// aligned tables under a heading each; description goes on the first line.
[[nodiscard]] std::string model_info(const SimulationModel& model, const std::string& description);

}  // namespace hdae::cli
