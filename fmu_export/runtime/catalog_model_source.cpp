// The model of an FMU exported from a bundled model (fmu_model_source.hpp): the catalog entry
// and the parameter values named in resources/hdae_model.txt (fmu_settings.hpp), the example's
// run as the defaults.
#include <stdexcept>

#include <fmt/format.h>

#include "fmu_model_source.hpp"
#include "fmu_settings.hpp"
#include "hdae/models/catalog.hpp"

namespace hdae::fmu_export {

FmuModel make_fmu_model(const std::filesystem::path& resources) {
  if (resources.empty()) {
    throw std::runtime_error(
        fmt::format("the importer gave no resource path, and the model is named in resources/{}",
                    kSettingsFile));
  }
  const FmuSettings settings = read_settings(resources / kSettingsFile);
  const models::CatalogEntry* entry = models::find_model(settings.model);
  if (entry == nullptr) {
    static_cast<void>(models::make_model(settings.model));  // throws, listing the models
    throw std::runtime_error(fmt::format("no bundled model called '{}'", settings.model));
  }
  FmuModel made{entry->make(), entry->example.options};
  for (const auto& [name, value] : settings.parameters) made.model->set_parameter(name, value);
  return made;
}

}  // namespace hdae::fmu_export
