// Exporting a model as an FMU (hdae/fmu_export.hpp): package_fmu writes the archive of any model
// with its runtime; export_fmu makes and checks a bundled model first, so that a bad name or
// value writes nothing, and names it in the FMU's resources for the runtime of the catalog.
#include "hdae/fmu_export.hpp"

#include <fmt/format.h>

#include "documentation.hpp"
#include "fmu_archive.hpp"
#include "fmu_settings.hpp"
#include "hdae/errors.hpp"
#include "hdae/models/catalog.hpp"
#include "model_description.hpp"
#include "runtime_dependencies.hpp"

namespace hdae::fmu_export {
namespace {

namespace fs = std::filesystem;

void check_paths(const std::filesystem::path& output, const std::filesystem::path& runtime) {
  std::error_code ec;
  if (!fs::is_regular_file(runtime, ec)) {
    throw IoError(fmt::format("the FMU runtime '{}' does not exist", runtime.string()));
  }
  const fs::path folder = output.parent_path().empty() ? fs::path(".") : output.parent_path();
  if (!fs::is_directory(folder, ec)) {
    throw IoError(fmt::format("cannot write the FMU '{}': the folder '{}' does not exist",
                              output.string(), folder.string()));
  }
  if (fs::is_directory(output, ec)) {
    throw IoError(fmt::format("cannot write the FMU '{}': it is a folder", output.string()));
  }
}

}  // namespace

ExportSummary package_fmu(const SimulationModel& model, const PackageRequest& request) {
  const ModelStructure& structure = model.structure();
  structure.validate();
  check_paths(request.output, request.runtime);
  const std::string identifier =
      request.model_identifier.empty() ? structure.name : request.model_identifier;
  ExportSummary summary{identifier, {}};
  const std::string binaries = "binaries/x86_64-linux/";
  std::vector<ArchiveEntry> entries;
  entries.push_back(
      {"modelDescription.xml",
       model_description_xml(structure, {identifier, request.description, request.experiment}),
       {}});
  entries.push_back({binaries + identifier + ".so", {}, request.runtime});
  for (const ShippedLibrary& library : shipped_libraries(request.runtime)) {
    entries.push_back({binaries + library.soname, {}, library.file});
    summary.libraries.push_back(library.soname);
  }
  if (!request.settings.empty()) {
    entries.push_back({std::string("resources/") + kSettingsFile, request.settings, {}});
  }
  entries.push_back(
      {"documentation/index.html", documentation_html(structure, request.description), {}});
  write_archive(request.output, entries);
  return summary;
}

ExportSummary export_fmu(const ExportRequest& request) {
  const models::CatalogEntry* entry = models::find_model(request.model);
  if (entry == nullptr) {
    static_cast<void>(models::make_model(request.model));  // throws, listing the models
    throw ModelError(fmt::format("no bundled model called '{}'", request.model));
  }
  std::unique_ptr<SimulationModel> model = entry->make();
  for (const auto& [name, value] : request.parameters) model->set_parameter(name, value);
  return package_fmu(*model, {.description = entry->description,
                              .experiment = entry->example.options,
                              .settings = settings_text({request.model, request.parameters}),
                              .output = request.output,
                              .runtime = request.runtime});
}

}  // namespace hdae::fmu_export
