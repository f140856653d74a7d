// The bundled models by name: the one list that the hdae program, the example programs and the
// Python package create models from. Each entry is also an example: the program hdae-<name>
// runs it as its ExampleRun says (example_run.hpp), and references/<name>.csv holds its
// reference. Each entry's factory builds the model with its default parameters, which are
// those of its example (the chain with N = 2000); set_parameter changes them afterwards.
//
//   std::unique_ptr<hdae::SimulationModel> m = hdae::models::make_model("ideal_clutch");
//   m->set_parameter("J2", 0.5);
//
// Adding a model (docs/programs.md, "Adding an example"): its source in models/src (a header in
// models/include/hdae/models), one entry in a group of models/src/catalog_*.cpp, e.g.
//   {"my_model", "one line", make_default<MyModel>, {run_to(2.0), {"x", "v"}}},
// and its reference written by hdae-make-references.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hdae/model.hpp"
#include "hdae/models/example_run.hpp"

namespace hdae::models {

struct CatalogEntry {
  std::string name;         ///< the model's structure().name, lower case with '_'
  std::string description;  ///< one line
  std::function<std::unique_ptr<SimulationModel>()> make;
  /// The example program `hdae-<name>`: its run, reference columns and key numbers.
  ExampleRun example;
};

/// Every bundled model, in a fixed order.
[[nodiscard]] const std::vector<CatalogEntry>& catalog();

/// The entry called name, or nullptr.
[[nodiscard]] const CatalogEntry* find_model(std::string_view name);

/// A new model called name with its default parameters; ModelError listing the known names
/// when there is none.
[[nodiscard]] std::unique_ptr<SimulationModel> make_model(std::string_view name);

}  // namespace hdae::models
