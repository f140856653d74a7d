// The hdae-compare program (tools/compare/main.cpp is a thin wrapper around run_compare):
// arguments (arguments.hpp), reading both files, the comparison (hdae/compare.hpp), the
// printed table and verdict, and the report directory with plots drawn by scripts/plot.py.
// A library apart from main.cpp so the tests exercise the program's behaviour, exit codes
// and messages in-process.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <span>
#include <string>

#include "compare/arguments.hpp"

namespace hdae::compare {

/// Exit codes of hdae-compare.
inline constexpr int kExitAgree = 0;
inline constexpr int kExitDiffer = 1;
inline constexpr int kExitError = 2;

/// Where the plots come from: Debian's interpreter with python3-matplotlib, and the script.
struct PlotEnvironment {
  std::filesystem::path python = "/usr/bin/python3";
  std::filesystem::path plot_script;  ///< scripts/plot.py; empty: no plots
};

/// Runs hdae-compare with the arguments after the program name: the report (or the text
/// --help and --version ask for) on out, errors on err; returns kExitAgree, kExitDiffer or
/// kExitError.
[[nodiscard]] int run_compare(std::span<const std::string> args, std::ostream& out,
                              std::ostream& err, const PlotEnvironment& plots);

}  // namespace hdae::compare
