// Where the runtime of an exported FMU gets its model (fmu_export/runtime/): the one function
// that differs between the runtime of the bundled models (catalog_model_source.cpp: the model
// named in the FMU's resources) and the runtime of a user's own model (hdae_add_fmu). The rest
// of the runtime, the FMI functions and the instance, is the same for both.
#pragma once

#include <filesystem>
#include <memory>

#include "hdae/model.hpp"
#include "hdae/options.hpp"

namespace hdae::fmu_export {

/// A model ready to run, with the run's defaults: tolerance and the stop time to use when the
/// importer gives none (the DefaultExperiment of the description).
struct FmuModel {
  std::unique_ptr<SimulationModel> model;
  SimulationOptions options;
};

/// Builds the FMU's model; resources is the FMU's resources folder (may be empty when the
/// importer gave none). Throws std::exception with a message naming the problem.
[[nodiscard]] FmuModel make_fmu_model(const std::filesystem::path& resources);

}  // namespace hdae::fmu_export
