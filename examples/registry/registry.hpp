// The registry of bundled examples: one per entry of the catalog of models
// (hdae/models/catalog.hpp), made by registry.cpp. Everything that runs or checks an example
// reads it: the programs hdae-<name> (links to hdae-example, which picks its entry by its own
// name), `hdae-example --list` (read by ctest to register one test per example and by
// scripts/run.sh), the reference generator and the regression tests. How to add an example:
// docs/programs.md, "Adding an example".
#pragma once

#include <string_view>
#include <vector>

#include "hdae/models/catalog.hpp"
#include "registry/example.hpp"

namespace hdae::examples {

/// The example of a catalog entry: its ExampleRun with the defaults filled in (the entry's
/// description, its factory with the counts and flags set as model parameters, the final
/// values of the reference signals as key numbers).
[[nodiscard]] Example example_of(const models::CatalogEntry& entry);

/// Every bundled example, in the catalog's order (which scripts/run.sh runs); names are unique.
[[nodiscard]] const std::vector<Example>& registry();

/// The entry called name, or nullptr.
[[nodiscard]] const Example* find_example(std::string_view name);

/// The entry whose program is program (hdae-pendulum -> pendulum), or nullptr.
[[nodiscard]] const Example* find_example_by_program(std::string_view program);

}  // namespace hdae::examples
