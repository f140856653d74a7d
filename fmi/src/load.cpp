// hdae::fmi::load (hdae/fmi.hpp): unpack, read the description, open the binary of this
// platform, make the adapter of the interface imported.
#include <fmt/format.h>

#include "archive.hpp"
#include "cosimulation_model.hpp"
#include "dae_manifest.hpp"
#include "fmu_model.hpp"
#include "hdae/errors.hpp"
#include "hdae/fmi.hpp"
#include "model_description.hpp"
#include "shared_library.hpp"

namespace hdae::fmi {
namespace {

namespace fs = std::filesystem;

/// The platform folders of binaries/ in the unpacked FMU, for the message of a missing binary.
std::string platforms(const fs::path& binaries) {
  std::string text;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(binaries, ec)) {
    text += (text.empty() ? "" : ", ") + entry.path().filename().string();
  }
  return text.empty() ? "none" : text;
}

fs::path binary_path(const fs::path& directory, const detail::ModelDescription& d,
                     const std::string& fmu_name) {
  // The platform names of the two versions' tuples (FMI 3.0 section 2.5.1, FMI 2.0 2.3).
  const char* platform = d.version == detail::FmiVersion::kFmi3 ? "x86_64-linux" : "linux64";
  const fs::path relative = fs::path("binaries") / platform / (d.info.model_identifier + ".so");
  std::error_code ec;
  if (!fs::is_regular_file(directory / relative, ec)) {
    throw IoError(
        fmt::format("FMU '{}' has no binary for this platform: {} is missing (the "
                    "FMU has binaries for: {})",
                    fmu_name, relative.string(), platforms(directory / "binaries")));
  }
  return directory / relative;
}

}  // namespace

std::unique_ptr<Fmu> load(const fs::path& path, const LoadOptions& options) {
  const std::string fmu_name = path.filename().string();
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    throw IoError(fmt::format("FMU '{}': no such file", path.string()));
  }
  detail::UnpackDirectory directory =
      options.unpack_directory.empty()
          ? detail::UnpackDirectory::temporary(fmu_name)
          : detail::UnpackDirectory::kept(options.unpack_directory, fmu_name);
  detail::unpack(path, directory.path(), fmu_name);
  detail::ModelDescription description = detail::read_model_description(
      directory.path() / "modelDescription.xml", fmu_name, options.fmi_interface);
  description.info.path = path;
  detail::read_dae_manifest(directory.path(), fmu_name, description);
  description.info.dae_mode = description.dae.has_value();
  auto library = std::make_unique<detail::SharedLibrary>(
      binary_path(directory.path(), description, fmu_name), fmu_name);
  if (description.info.fmi_interface == Interface::kCoSimulation) {
    return std::make_unique<detail::CoSimulationModel>(std::move(directory), std::move(library),
                                                       std::move(description), options);
  }
  return std::make_unique<detail::FmuModel>(std::move(directory), std::move(library),
                                            std::move(description), options);
}

SimulationResult Fmu::co_simulate(const SimulationOptions& /*options*/,
                                  const RunListeners& /*listeners*/) {
  throw ModelError(fmt::format(
      "FMU '{}' is imported for Model Exchange: run it with the Simulator (hdae::simulate)",
      info().path.filename().string()));
}

}  // namespace hdae::fmi
