// hdae-compare (compare_cli.hpp): input checks with file and line, the printed report and
// the report directory; the arguments are parsed in arguments.cpp.
#include "compare/compare_cli.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <set>
#include <span>
#include <string_view>
#include <system_error>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "hdae/hdf5_result.hpp"
#include "hdae/stored_result.hpp"

namespace hdae::compare {
namespace {

/// More plots than this would bury the first failures; the summary lists the rest.
constexpr std::size_t kMaxPlots = 20;

/// The line number (1-based, as read_csv counts) of data row `row` (0-based) of a CSV:
/// '#' lines and blank lines do not hold rows, the first other line is the header.
std::size_t line_of_row(const std::filesystem::path& file, std::size_t row) {
  std::ifstream in(file);
  std::string line;
  std::size_t line_number = 0;
  std::size_t data_lines = 0;  // the header counts as the first
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line.front() == '#') continue;
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (data_lines++ == row + 1) return line_number;
  }
  return 0;
}

/// Throws IoError "<file>:<line>: ..." at the first non-finite value of a compared signal in
/// file order: a NaN in a result file means a broken run or a broken file, not a small
/// difference. Scans row by row, the table's layout, so a wide table is read once in order.
void require_finite(const ResultTable& table, const std::filesystem::path& file,
                    const std::vector<SignalComparison>& signals) {
  std::vector<bool> compared(table.num_columns(), false);
  for (const SignalComparison& s : signals) compared[table.column_index(s.name)] = true;
  for (std::size_t i = 0; i < table.num_rows(); ++i) {
    const std::span<const double> row = table.row(i);
    for (std::size_t j = 0; j < row.size(); ++j) {
      if (compared[j] && !std::isfinite(row[j])) {
        // A CSV's place is its line; an HDF5 file has rows, counted from 0 as h5py does.
        const std::string place = is_hdf5_file(file)
                                      ? fmt::format("{}: row {}", file.string(), i)
                                      : fmt::format("{}:{}", file.string(), line_of_row(file, i));
        throw IoError(fmt::format("{}: column \"{}\": value {} at t = {} is not finite", place,
                                  table.columns()[j].name, row[j], table.time(i)));
      }
    }
  }
}

/// Throws UsageError for a --signals name that neither table has: a typo or the time column
/// is a bad argument, not a difference between the files (a name in one table only is one).
void require_known_signals(const CompareOptions& options, const ResultTable& reference,
                           const ResultTable& result) {
  if (options.signals.empty()) return;
  std::unordered_set<std::string_view> names;
  for (const ResultTable* table : {&reference, &result}) {
    for (const ColumnInfo& c : table->columns()) names.insert(c.name);
  }
  for (const std::string& name : options.signals) {
    if (names.contains(name)) continue;
    if (name == "time" || name == "t") {
      throw UsageError(fmt::format(
          "--signals: \"{}\" is the independent variable (the first column), not a signal", name));
    }
    throw UsageError(fmt::format("--signals: \"{}\" is a signal of neither file", name));
  }
}

/// A result CSV or HDF5 file (read_result tells them apart by content).
ResultTable read_table(const std::filesystem::path& file) {
  ResultTable table = read_result(file).table;
  if (table.num_rows() == 0) {
    throw IoError(fmt::format("{}: no data rows (only a header)", file.string()));
  }
  return table;
}

std::string shell_quote(std::string_view s) {
  std::string q = "'";
  for (const char c : s) {
    if (c == '\'') {
      q += "'\\''";
    } else {
      q += c;
    }
  }
  return q + "'";
}

/// The longest file name stem made of a signal's name: with ".compare.csv" and a "-k" for
/// uniqueness it stays far below the 255 bytes a file name may have on Linux file systems.
constexpr std::size_t kMaxStem = 100;

/// FNV-1a, 64 bits: a hash that is the same on every platform and run, for file names.
std::uint64_t stable_hash(std::string_view text) {
  std::uint64_t h = 14695981039346656037ULL;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

/// A file name stem for a signal: letters, digits, '_', '-', '.' kept, the rest '_'; a long
/// name is cut to its first characters and a hash of the whole name, so that names alike
/// in their first hundred characters still get different stems.
std::string file_stem(std::string_view name, std::set<std::string>& taken) {
  // A leading 's' keeps names that are empty or start with '.' from hiding the file.
  std::string stem = name.empty() || name.front() == '.' ? "s" : "";
  for (const char c : name) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-' || c == '.';
    stem += keep ? c : '_';
  }
  if (stem.size() > kMaxStem) {
    stem = fmt::format("{}-{:016x}", stem.substr(0, kMaxStem - 17), stable_hash(name));
  }
  std::string unique = stem;
  for (int k = 2; taken.contains(unique); ++k) unique = fmt::format("{}-{}", stem, k);
  taken.insert(unique);
  return unique;
}

constexpr std::string_view kTraceSuffix = ".compare.csv";

/// Whether a file in the report directory is one the report writes (and removes when stale):
/// summary.md, plot.log, a trace <stem>.compare.csv or a plot <stem>.png.
bool is_report_file(const std::filesystem::path& name) {
  const std::string n = name.filename().string();
  return n == "summary.md" || n == "plot.log" || n.ends_with(kTraceSuffix) || n.ends_with(".png");
}

/// Throws UsageError when an input file is in the report directory under a name of the
/// report's own files, which writing the report would overwrite or remove.
void check_report_inputs(const CliArguments& a) {
  std::vector<std::filesystem::path> inputs{a.reference, a.result};
  if (a.tolerance_file) inputs.push_back(*a.tolerance_file);
  for (const std::filesystem::path& input : inputs) {
    std::error_code ec;
    const std::filesystem::path folder = input.has_parent_path() ? input.parent_path() : ".";
    if (is_report_file(input) && std::filesystem::equivalent(folder, *a.report_dir, ec)) {
      throw UsageError(fmt::format(
          "--report {}: the input {} is in the report directory under the name of a report "
          "file (summary.md, plot.log, *.compare.csv, *.png), which the report would overwrite "
          "or remove; choose another directory",
          a.report_dir->string(), input.string()));
    }
  }
}

/// Removes what an earlier report left in dir: summary.md, plot.log and each trace
/// <stem>.compare.csv with its plot <stem>.png, so that no plot of an earlier failure stands
/// beside the new summary. Other files, other PNGs among them, stay.
void remove_stale_report(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> stale{dir / "summary.md", dir / "plot.log"};
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.ends_with(kTraceSuffix) || !entry.is_regular_file(ec)) continue;
    stale.push_back(entry.path());
    stale.push_back(dir / (name.substr(0, name.size() - kTraceSuffix.size()) + ".png"));
  }
  for (const std::filesystem::path& file : stale) {
    std::filesystem::remove(file, ec);
    if (ec) {
      throw IoError(fmt::format("{}: cannot remove the earlier report's file ({})", file.string(),
                                ec.message()));
    }
  }
}

/// Creates dir if need be and clears what an earlier report left in it.
void prepare_report_dir(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    throw IoError(
        fmt::format("{}: cannot create the report directory ({})", dir.string(), ec.message()));
  }
  remove_stale_report(dir);
}

/// Why plot.py cannot be run, or "" when it can: the summary and the warning say so instead
/// of trying a plot per signal.
std::string why_no_plots(const PlotEnvironment& plots) {
  std::error_code ec;
  if (plots.plot_script.empty()) return "no plot script configured";
  if (!std::filesystem::exists(plots.plot_script, ec)) {
    return fmt::format("{} not found", plots.plot_script.string());
  }
  if (!std::filesystem::exists(plots.python, ec)) {
    return fmt::format("{} not found (Debian's python3 with python3-matplotlib)",
                       plots.python.string());
  }
  return {};
}

/// Draws the plot png of failing signal s from its trace csv with plot.py, whose output goes
/// to plot.log; returns the summary's entry: the plot, or a line saying it failed (with a
/// warning on err).
std::string plot_entry(const SignalComparison& s, const std::filesystem::path& csv,
                       const std::filesystem::path& png, const CliArguments& a,
                       const PlotEnvironment& plots, std::ostream& err) {
  const std::filesystem::path log = *a.report_dir / "plot.log";
  const std::string title = fmt::format("{}: outside the tube from t = {:.6g} (delta_y = {:.3g})",
                                        s.name, *s.first_failure_t, s.delta_y);
  const std::string command =
      fmt::format("{} {} --compare {} {} --signal {} --units-from {} --title {} >> {} 2>&1",
                  shell_quote(plots.python.string()), shell_quote(plots.plot_script.string()),
                  shell_quote(csv.string()), shell_quote(png.string()), shell_quote(s.name),
                  shell_quote(a.reference.string()), shell_quote(title), shell_quote(log.string()));
  std::error_code ec;
  if (std::system(command.c_str()) == 0 && std::filesystem::exists(png, ec)) {
    return fmt::format("### {}\n\n![{}]({})\n\n", s.name, s.name, png.filename().string());
  }
  err << fmt::format("hdae-compare: warning: the plot of {} failed; see {}\n", s.name,
                     log.string());
  return fmt::format("- {}: plot failed, see plot.log; tube data in `{}`\n", s.name,
                     csv.filename().string());
}

/// The summary's section on the failing signals and how many of them it shows.
struct FailingSignals {
  std::string markdown;
  std::size_t plotted = 0;
};

/// Writes the trace CSV of each failing signal, up to kMaxPlots of them, and draws its plot
/// when plot.py can run; a plot that cannot be made is a warning on err and a line in the
/// section, not an error.
FailingSignals write_failing_signals(const CliArguments& a, const ResultTable& reference,
                                     const ResultTable& result, const CompareReport& report,
                                     const PlotEnvironment& plots, std::ostream& err) {
  const std::string no_plots = why_no_plots(plots);
  FailingSignals failing;
  std::set<std::string> taken;
  for (const SignalComparison& s : report.signals) {
    if (s.points_outside == 0) continue;
    if (failing.plotted == kMaxPlots) {
      failing.markdown +=
          fmt::format("\nOnly the first {} failing signals are plotted.\n", kMaxPlots);
      break;
    }
    ++failing.plotted;
    const std::string stem = file_stem(s.name, taken);
    const std::filesystem::path csv = *a.report_dir / (stem + std::string(kTraceSuffix));
    write_trace_csv(trace_signal(reference, result, a.options, s.name), csv);
    if (!no_plots.empty()) {
      failing.markdown += fmt::format("- {}: tube data in `{}` (no plot: {})\n", s.name,
                                      csv.filename().string(), no_plots);
      continue;
    }
    failing.markdown += plot_entry(s, csv, *a.report_dir / (stem + ".png"), a, plots, err);
  }
  if (!no_plots.empty() && failing.plotted > 0) {
    err << "hdae-compare: warning: no plots: " << no_plots << '\n';
  }
  return failing;
}

/// Writes summary.md: the inputs, the comparison's report and the failing signals' section.
void write_summary(const CliArguments& a, const CompareReport& report,
                   const FailingSignals& failing, std::ostream& out) {
  std::string summary = fmt::format("# hdae-compare\n\n- reference: `{}`\n- result: `{}`\n\n",
                                    a.reference.string(), a.result.string());
  summary += report.markdown_report();
  if (failing.plotted > 0) summary += "\n## Failing signals\n\n" + failing.markdown;
  const std::filesystem::path summary_file = *a.report_dir / "summary.md";
  std::ofstream f(summary_file, std::ios::binary);
  f << summary;
  f.close();
  if (!f) throw IoError(fmt::format("{}: write failed", summary_file.string()));
  out << "report: " << summary_file.string() << '\n';
}

/// Writes summary.md and, per failing signal, its trace CSV and a PNG drawn by plot.py.
void write_report_dir(const CliArguments& a, const ResultTable& reference,
                      const ResultTable& result, const CompareReport& report,
                      const PlotEnvironment& plots, std::ostream& out, std::ostream& err) {
  prepare_report_dir(*a.report_dir);
  const FailingSignals failing = write_failing_signals(a, reference, result, report, plots, err);
  write_summary(a, report, failing, out);
}

}  // namespace

int run_compare(std::span<const std::string> args, std::ostream& out, std::ostream& err,
                const PlotEnvironment& plots) {
  try {
    CliArguments a = parse_arguments(args);
    if (a.request == Request::kPrintHelp) {
      out << usage();
      return kExitAgree;
    }
    if (a.request == Request::kPrintVersion) {
      out << version_line() << '\n';
      return kExitAgree;
    }
    if (a.report_dir) check_report_inputs(a);
    if (a.tolerance_file) a.options.signal_tolerances = read_tolerance_file(*a.tolerance_file);
    const ResultTable reference = read_table(a.reference);
    const ResultTable result = read_table(a.result);
    require_known_signals(a.options, reference, result);
    std::unordered_set<std::string_view> reference_names;
    for (const ColumnInfo& c : reference.columns()) reference_names.insert(c.name);
    for (const auto& [name, tol] : a.options.signal_tolerances) {
      if (!reference_names.contains(name)) {
        err << fmt::format("hdae-compare: warning: {}: signal \"{}\" is not in the reference\n",
                           a.tolerance_file->string(), name);
      }
    }
    const CompareReport report = compare_results(reference, result, a.options);
    require_finite(reference, a.reference, report.signals);
    require_finite(result, a.result, report.signals);

    out << fmt::format("reference: {}\nresult:    {}\n\n", a.reference.string(), a.result.string());
    out << report.full_report();
    if (a.options.missing_signals_fail && a.options.signals.empty() &&
        !report.only_in_reference.empty()) {
      out << "(--allow-missing compares the common signals only; --signals names the ones to "
             "compare)\n";
    }
    if (a.report_dir) write_report_dir(a, reference, result, report, plots, out, err);
    out << (report.agree ? "verdict: agree\n" : "verdict: differ\n");
    return report.agree ? kExitAgree : kExitDiffer;
  } catch (const UsageError& e) {
    err << "hdae-compare: " << e.what() << "\n(hdae-compare --help prints the usage)\n";
  } catch (const std::exception& e) {
    err << "hdae-compare: " << e.what() << '\n';
  }
  return kExitError;
}

}  // namespace hdae::compare
