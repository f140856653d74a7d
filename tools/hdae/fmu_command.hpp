// `hdae run <file>.fmu [options] [output]`: an FMU's model (hdae::fmi::load) run as a bundled
// model is, with the same options, --set for its parameters and inputs, and the same files.
#pragma once

#include <string>
#include <vector>

#include "program/example_program.hpp"

namespace hdae::cli {

/// rest: the FMU's path, then the run's options. The run's defaults are the FMU's
/// DefaultExperiment (start, stop and tolerance where it gives them). Exit status as for a
/// bundled model; 2 with the reason when the FMU cannot be loaded.
[[nodiscard]] int run_fmu(const std::vector<std::string>& rest,
                          const examples::ProgramEnvironment& env);

}  // namespace hdae::cli
