// `hdae fmu export <model> -o <file>.fmu [--set NAME=VALUE ...]`: a bundled model as an FMI 3.0
// Co-Simulation FMU (hdae/fmu_export.hpp), with the runtime library found beside the program
// (the build tree) or in <libdir>/hdae (an installation).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "program/example_program.hpp"

namespace hdae::cli {

/// rest: the words after `hdae fmu`. Exit status 0 after writing the FMU; 2 with a message
/// naming the problem (unknown model or parameter, bad value, unwritable output, no runtime).
[[nodiscard]] int run_fmu_command(const std::vector<std::string>& rest,
                                  const examples::ProgramEnvironment& env);

/// The runtime library: $HDAE_FMU_RUNTIME when set, else libhdae_fmu_runtime.so beside the
/// running program, else in <program>/../<libdir>/hdae. Empty when none exists; searched
/// lists the places looked at.
[[nodiscard]] std::filesystem::path find_runtime(std::vector<std::filesystem::path>* searched);

}  // namespace hdae::cli
