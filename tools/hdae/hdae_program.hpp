// The hdae program: one command for the bundled models and their results, with CLI11
// subcommands:
//   hdae list                            the bundled models, one line each
//   hdae info <model>                    variables, parameters, equations, crossings, events
//   hdae run <model> [options] [output]  an example program's run (examples/program/), with
//                                        --set NAME=VALUE for parameters; hdae-<name> is the
//                                        same run under the example's own name
//   hdae compare ref.csv res.csv [...]   hdae-compare (tools/compare/)
//   hdae plot res.csv [out.png] [sig...] scripts/plot.py (plot_command.hpp)
//   hdae fmu export <model> -o <f>.fmu   an FMI 3.0 Co-Simulation FMU (fmu_export_command.hpp)
// Everything after the model name (run) or after the subcommand (compare, plot) goes to that
// command unchanged, so `hdae run <model> --help` and `hdae compare --help` print theirs.
// Exit status: the subcommand's; 2 for a command line hdae itself cannot use.
#pragma once

#include <string>
#include <vector>

#include "program/example_program.hpp"

namespace hdae::cli {

/// Runs hdae with args (after the program name); output, errors, the cancel flag and whether
/// to show progress come from env.
[[nodiscard]] int run_hdae(const std::vector<std::string>& args,
                           const examples::ProgramEnvironment& env);

}  // namespace hdae::cli
