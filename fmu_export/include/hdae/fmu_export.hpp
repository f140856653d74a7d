// Export of hdae models as FMI 3.0 Co-Simulation FMUs (fmu_export/): the bundled model of the
// catalog (hdae/models/catalog.hpp) with its parameter values, packed with the runtime that
// implements FMI's C functions over hdae::Simulator. Above hdae::models, like the import
// (hdae::fmi); the `hdae fmu export` command (tools/hdae/) is its user interface.
//
//   hdae::fmu_export::export_fmu({.model = "bouncing_ball", .parameters = {{"e", 0.5}},
//                                 .output = "ball.fmu", .runtime = runtime_path});
//
// The FMU holds modelDescription.xml, binaries/x86_64-linux/<model>.so (the runtime) with the
// shared libraries it needs beside it, resources/hdae_model.txt (which model, which values)
// and documentation/index.html.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "hdae/model.hpp"
#include "hdae/options.hpp"

namespace hdae::fmu_export {

struct ExportRequest {
  std::string model;                                       ///< a catalog name
  std::vector<std::pair<std::string, double>> parameters;  ///< set in this order
  std::filesystem::path output;                            ///< the .fmu to write
  /// The runtime shared library (libhdae_fmu_runtime.so, built and installed with hdae;
  /// find_runtime in the hdae program looks for it).
  std::filesystem::path runtime;
};

struct ExportSummary {
  std::string model_identifier;        ///< the binary's name: binaries/x86_64-linux/<id>.so
  std::vector<std::string> libraries;  ///< the shipped libraries' sonames
};

/// Writes the FMU. ModelError for an unknown model (listing the names), an unknown parameter
/// (listing the model's) or a value outside its range; IoError naming the file for an
/// output that cannot be written or a runtime that is missing. Nothing is written then.
ExportSummary export_fmu(const ExportRequest& request);

/// The FMU of any model with a runtime built for it (hdae_add_fmu, cmake/HdaeAddFmu.cmake).
struct PackageRequest {
  std::string model_identifier;  ///< empty: the model's name
  std::string description;       ///< one line about the model
  SimulationOptions experiment;  ///< the DefaultExperiment: start, stop, tolerance, step size
  std::string settings;          ///< resources/hdae_model.txt when not empty
  std::filesystem::path output;
  std::filesystem::path runtime;
};

/// Writes the FMU of model with the runtime request.runtime; errors as export_fmu.
ExportSummary package_fmu(const SimulationModel& model, const PackageRequest& request);

}  // namespace hdae::fmu_export
