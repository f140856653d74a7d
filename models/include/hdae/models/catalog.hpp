// The bundled models by name: one list that the hdae program, the example programs and the
// Python package create models from. Each entry's factory builds the model with its default
// parameters, which are those of the example of the same name (the chain with N = 2000);
// set_parameter changes them afterwards.
//
//   std::unique_ptr<hdae::SimulationModel> m = hdae::models::make_model("ideal_clutch");
//   m->set_parameter("J2", 0.5);
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hdae/model.hpp"

namespace hdae::models {

struct CatalogEntry {
  std::string name;         ///< the model's structure().name, lower case with '_'
  std::string description;  ///< one line
  std::function<std::unique_ptr<SimulationModel>()> make;
};

/// Every bundled model, in a fixed order.
[[nodiscard]] const std::vector<CatalogEntry>& catalog();

/// The entry called name, or nullptr.
[[nodiscard]] const CatalogEntry* find_model(std::string_view name);

/// A new model called name with its default parameters; ModelError listing the known names
/// when there is none.
[[nodiscard]] std::unique_ptr<SimulationModel> make_model(std::string_view name);

}  // namespace hdae::models
