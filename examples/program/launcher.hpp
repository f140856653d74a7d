// hdae-example, the program behind every hdae-<name>: invoked under an example's program name
// (the links the build makes) it is that example; under its own name it lists the registry or
// runs an example named on its command line:
//   hdae-example --list              one line per example: its name, then the arguments after
//                                    the output path of its reference run ("mass_spring_chain
//                                    20"); read by ctest and scripts/run.sh
//   hdae-example <name> [args...]    the same as hdae-<name> [args...]
#pragma once

#include <string>
#include <vector>

#include "program/example_program.hpp"

namespace hdae::examples {

/// `hdae-example --list` as text.
[[nodiscard]] std::string registry_listing();

/// Runs hdae-example (called program) with args, the arguments after the program name;
/// returns the exit status (0, 1 or 2 as an example program; 2 for a bad command line).
[[nodiscard]] int run_launcher(const std::string& program, const std::vector<std::string>& args,
                               const ProgramEnvironment& env);

}  // namespace hdae::examples
