// What an example program hdae-<name> does with its registry entry: read the command line
// (command_line.hpp), validate the options, build the model, run it with the cancel flag that
// Ctrl-C sets (with progress lines on a terminal), write the CSV, units file, event log and
// parameter values (also after a model failure, with what was computed), print the summary
// and the example's key numbers, and map the outcome to an exit status: 0 the run reached its
// end, 1 it stopped early (the files hold what was computed), 2 an error. Every failure, wherever
// it happens (parsing, option validation, model construction including running out of memory, the
// run, file writing), ends in a message on err and exit status 2, never in an escaping exception.
#pragma once

#include <atomic>
#include <iosfwd>
#include <string>
#include <vector>

#include "registry/example.hpp"

namespace hdae::examples {

/// Where an example program writes, and the flag that stops its run.
struct ProgramEnvironment {
  std::ostream& out;  ///< summary, key numbers, --help and --version
  std::ostream& err;  ///< errors and notes
  /// Put into SimulationOptions::cancel (main() sets it on SIGINT); may be null.
  const std::atomic<bool>* cancel = nullptr;
  /// Progress lines on err during the run (progress.hpp); main() sets it when standard error
  /// is a terminal.
  bool show_progress = false;
};

/// Runs example's program called program with args (the arguments after the program name);
/// returns the exit status.
[[nodiscard]] int run_example_program(const Example& example, const std::string& program,
                                      const std::vector<std::string>& args,
                                      const ProgramEnvironment& env);

}  // namespace hdae::examples
