// hdae-compare's command line (compare_cli.hpp): the options and their rules, parsed with
// CLI11 into CompareOptions and the two file names. Messages for bad arguments name the
// argument; --help and --version are requests, not errors.
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

#include "hdae/compare.hpp"

namespace hdae::compare {

/// Unusable command-line arguments; the message names the option or argument.
class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// What the command line asks for.
enum class Request {
  kCompare,       ///< compare the two files
  kPrintHelp,     ///< -h or --help: print usage(), nothing else
  kPrintVersion,  ///< --version: print version_line(), nothing else
};

struct CliArguments {
  Request request = Request::kCompare;
  std::filesystem::path reference;
  std::filesystem::path result;
  CompareOptions options;
  std::optional<std::filesystem::path> tolerance_file;
  std::optional<std::filesystem::path> report_dir;
};

/// Parses the arguments after the program name; throws UsageError.
[[nodiscard]] CliArguments parse_arguments(std::span<const std::string> args);

/// The usage text printed by --help.
[[nodiscard]] std::string usage();

/// "hdae-compare <project version>", printed by --version.
[[nodiscard]] std::string version_line();

}  // namespace hdae::compare
