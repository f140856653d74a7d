// The one way the programs (hdae-<name>, hdae-example, hdae) hand their arguments to CLI11
// and answer --help, --version and a bad command line.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace hdae::examples {

/// Parses args (after the program name) with app. Returns 0 after printing the text --help or
/// --version asks for on out, 2 after "<program>: <problem>" and "Run '<program> --help' for
/// the usage." on err, or nothing when the program goes on.
[[nodiscard]] std::optional<int> parse_arguments(CLI::App& app,
                                                 const std::vector<std::string>& args,
                                                 const std::string& program, std::ostream& out,
                                                 std::ostream& err);

/// The answer to a bad command line that CLI11 cannot see (two options that contradict each
/// other): "<program>: <problem>" and the --help hint on err, as parse_arguments; returns 2.
int usage_error(const std::string& program, const std::string& problem, std::ostream& err);

}  // namespace hdae::examples
