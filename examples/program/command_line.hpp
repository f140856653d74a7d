// The command line of an example program hdae-<name>, read with CLI11 from the example's
// registry entry (registry/example.hpp):
//   hdae-<name> [options] [output] [counts...] [flags...]
// output is the result CSV (default results/<name>.csv), also given as -o PATH (then counts
// are set with --set: a positional argument would be taken for the output); each count
// parameter is a positional argument after it, each flag an option --<flag>. Every program has
// --help, --version, --stop, --rtol, --output-interval, --output-times, --threads, IDA's
// --max-order, --initial-step and --max-step, --restart-step and --set
// NAME=VALUE (a model parameter, given as often as needed; parsing checks the form and the
// number, the model the name and range).
// Unknown options, extra positional arguments, an option given twice and an empty value
// (an empty output path, '--threads ""', an empty item in a list such as '--output-times 1,,2')
// are errors naming the option, as are two options that contradict each other: a count given
// both as its positional argument and with --set, and --rows events with --output-interval or
// --output-times (event rows only: no grid). Parsing does not validate the values: the program
// does that with SimulationOptions::validate(), whose message names the field.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "hdae/options.hpp"
#include "registry/example.hpp"

namespace hdae::examples {

/// One --set NAME=VALUE.
struct ParameterSetting {
  std::string name;
  double value = 0.0;
};

/// A run that a command line asks for.
struct Invocation {
  /// The result CSV; the units file and event log go beside it.
  std::filesystem::path output;
  /// The example's options with --stop, --rtol, --output-interval, --output-times,
  /// --threads, --max-order, --initial-step, --max-step and --restart-step put in; not
  /// validated.
  SimulationOptions options;
  /// The parameters' values: defaults unless the command line gives them.
  ParameterValues parameters;
  /// The --set options, in command-line order (a later one for the same name wins).
  std::vector<ParameterSetting> settings;
};

/// What parse_command_line found: a run, or an exit code for a command line that asked for
/// none (0 after --help or --version, whose text went to out; 2 after an error, whose message,
/// naming the argument, went to err).
struct ParsedCommandLine {
  std::optional<Invocation> invocation;
  int exit_code = 0;
};

/// Parses args (the arguments after the program name) for example's program called program.
[[nodiscard]] ParsedCommandLine parse_command_line(const Example& example,
                                                   const std::string& program,
                                                   const std::vector<std::string>& args,
                                                   std::ostream& out, std::ostream& err);

/// Reads "NAME=VALUE" (a non-empty name, a number std::from_chars reads completely); the
/// error text names the argument. The form only: the model checks name and range.
[[nodiscard]] std::optional<ParameterSetting> parse_setting(const std::string& text,
                                                            std::string* error);

/// The text of --version: "<program> (hdae <version>)".
[[nodiscard]] std::string version_text(const std::string& program);

}  // namespace hdae::examples
