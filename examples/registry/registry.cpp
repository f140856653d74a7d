// The table of bundled examples (registry.hpp): one per entry of the catalog of models
// (hdae/models/catalog.hpp), in its order, with the defaults of ExampleRun filled in.
//
// Adding an example takes its model and one catalog entry (docs/programs.md, "Adding an
// example"), then its reference: build, run `build/dev/tools/hdae-make-references references
// <name>`, check references/<name>.csv against known answers in
// tests/compare/test_references.cpp and commit it with its .units.csv. The program
// hdae-<name>, its ctest against the reference, the reference generator's run, the in-process
// regression test and scripts/run.sh's list all come from the entry.
#include "registry/registry.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace hdae::examples {
namespace {

/// The entry's own factory with each count, and each flag that is on (as 1), set as the model
/// parameter of its name.
ModelFactory parameters_as_model_parameters(const models::CatalogEntry& entry) {
  return [&entry](const ParameterValues& values) {
    std::unique_ptr<SimulationModel> model = entry.make();
    for (const auto& [name, count] : values.counts) {
      model->set_parameter(name, static_cast<double>(count));
    }
    for (const std::string& name : values.flags) model->set_parameter(name, 1.0);
    return model;
  };
}

/// The final values of the signals, at the time of the last row.
KeyNumbers final_values(std::vector<std::string> signals) {
  return [signals = std::move(signals)](const SimulationModel&, const SimulationResult& r) {
    std::string line;
    const double t = r.table.time(r.table.num_rows() - 1);
    for (const std::string& name : signals) {
      line += fmt::format("{}{}({:g}) = {:.6g}", line.empty() ? "" : ", ", name, t,
                          r.table.final_value(name));
    }
    return line;
  };
}

}  // namespace

Example example_of(const models::CatalogEntry& entry) {
  const models::ExampleRun& run = entry.example;
  return {
      .name = entry.name,
      .description = run.description.empty() ? entry.description : run.description,
      .parameters = run.parameters,
      .make_model = run.make_model ? run.make_model : parameters_as_model_parameters(entry),
      .options = run.options,
      .reference_signals = run.reference_signals,
      .reference_parameters = run.reference_parameters,
      .reference_rel_tol = run.reference_rel_tol,
      .key_numbers = run.key_numbers ? run.key_numbers : final_values(run.reference_signals),
  };
}

namespace {

std::vector<Example> make_registry() {
  std::vector<Example> examples;
  for (const models::CatalogEntry& entry : models::catalog()) {
    examples.push_back(example_of(entry));
  }
  return examples;
}

}  // namespace

const std::vector<Example>& registry() {
  static const std::vector<Example> examples = make_registry();
  return examples;
}

const Example* find_example(std::string_view name) {
  const auto& all = registry();
  const auto it =
      std::find_if(all.begin(), all.end(), [name](const Example& e) { return e.name == name; });
  return it == all.end() ? nullptr : &*it;
}

const Example* find_example_by_program(std::string_view program) {
  const auto& all = registry();
  const auto it = std::find_if(all.begin(), all.end(),
                               [program](const Example& e) { return program_name(e) == program; });
  return it == all.end() ? nullptr : &*it;
}

}  // namespace hdae::examples
