// `hdae plot result.csv [out.png] [signals...]`: draws a result with scripts/plot.py (panels by
// unit from <stem>.units.csv, event instants dotted). The second argument is the output when
// it ends in .png, .svg or .pdf; otherwise the plot goes to <stem>.png beside the CSV and
// every argument after the CSV names a signal.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace hdae::cli {

/// The arguments of plot.py for `hdae plot` args: csv, output, signals.
[[nodiscard]] std::vector<std::string> plot_arguments(const std::vector<std::string>& args);

/// Runs python script with plot_arguments(args) and waits; returns its exit status (0 written,
/// 2 bad input: plot.py's message "hdae plot: <file>: <reason>" on standard error), or 2 with
/// a message on err when args are missing or python cannot start. --help or -h first prints
/// the usage on out and returns 0.
[[nodiscard]] int run_plot(const std::vector<std::string>& args,
                           const std::filesystem::path& python, const std::filesystem::path& script,
                           std::ostream& out, std::ostream& err);

}  // namespace hdae::cli
