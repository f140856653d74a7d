// The resources file of an FMU exported from a bundled model (fmu_export/): which catalog
// model the runtime builds and which parameter values it sets first, written by the exporter
// (export_fmu.cpp) and read by the runtime at fmi3InstantiateCoSimulation
// (runtime/catalog_model_source.cpp). One runtime binary then serves every bundled model.
//
//   # hdae FMU: the bundled model and its parameters
//   model bouncing_ball
//   set e 0.5
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace hdae::fmu_export {

inline constexpr const char* kSettingsFile = "hdae_model.txt";

struct FmuSettings {
  std::string model;                                       ///< a name of hdae::models::catalog()
  std::vector<std::pair<std::string, double>> parameters;  ///< set in this order
};

/// The file's text (values with 17 significant digits: read back exactly).
[[nodiscard]] std::string settings_text(const FmuSettings& settings);

/// Reads the file; std::runtime_error naming the file and line for one it cannot read.
[[nodiscard]] FmuSettings read_settings(const std::filesystem::path& file);

}  // namespace hdae::fmu_export
