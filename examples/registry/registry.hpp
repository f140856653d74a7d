// The registry of bundled examples: the one list of them (registry.cpp). Everything that
// runs or checks an example reads it: the programs hdae-<name> (links to hdae-example, which
// picks its entry by its own name), `hdae-example --list` (read by ctest to register one
// test per example and by scripts/run.sh), the reference generator and the regression tests.
// How to add an example: docs/design.md, "Adding an example", and the comment above the table.
#pragma once

#include <string_view>
#include <vector>

#include "registry/example.hpp"

namespace hdae::examples {

/// Every bundled example, in the order scripts/run.sh runs them; names are unique.
[[nodiscard]] const std::vector<Example>& registry();

/// The entry called name, or nullptr.
[[nodiscard]] const Example* find_example(std::string_view name);

/// The entry whose program is program (hdae-pendulum -> pendulum), or nullptr.
[[nodiscard]] const Example* find_example_by_program(std::string_view program);

}  // namespace hdae::examples
