// hdae-compare (compare_cli.hpp): argument parsing, input checks with file and line, the
// printed report and the report directory.
#include "compare/compare_cli.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <set>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"

namespace hdae::compare {
namespace {

/// More plots than this would bury the first failures; the summary lists the rest.
constexpr std::size_t kMaxPlots = 20;

double parse_value(std::string_view flag, std::string_view text) {
  double v = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    throw UsageError(fmt::format("{}: expected a number, got \"{}\"", flag, text));
  }
  return v;
}

std::vector<std::string> split_names(std::string_view flag, std::string_view text) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string_view name = text.substr(start, end - start);
    if (name.empty()) {
      throw UsageError(fmt::format("{}: empty signal name in \"{}\"", flag, text));
    }
    names.emplace_back(name);
    if (end == text.size()) return names;
    start = end + 1;
  }
}

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

/// Throws IoError "<file>:<line>: ..." at the first non-finite value of a compared signal:
/// a NaN in a result file means a broken run or a broken file, not a small difference.
void require_finite(const ResultTable& table, const std::filesystem::path& file,
                    const std::vector<SignalComparison>& signals) {
  for (const SignalComparison& s : signals) {
    const std::size_t j = table.column_index(s.name);
    for (std::size_t i = 0; i < table.num_rows(); ++i) {
      const double v = table.value(i, j);
      if (!std::isfinite(v)) {
        throw IoError(fmt::format("{}:{}: column \"{}\": value {} at t = {} is not finite",
                                  file.string(), line_of_row(file, i), s.name, v, table.time(i)));
      }
    }
  }
}

ResultTable read_table(const std::filesystem::path& file) {
  ResultTable table = read_csv(file);
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

/// A file name stem for a signal: letters, digits, '_', '-', '.' kept, the rest '_'.
std::string file_stem(std::string_view name, std::set<std::string>& taken) {
  // A leading 's' keeps names that are empty or start with '.' from hiding the file.
  std::string stem = name.empty() || name.front() == '.' ? "s" : "";
  for (const char c : name) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-' || c == '.';
    stem += keep ? c : '_';
  }
  std::string unique = stem;
  for (int k = 2; taken.contains(unique); ++k) unique = fmt::format("{}-{}", stem, k);
  taken.insert(unique);
  return unique;
}

/// Writes summary.md and, per failing signal, its trace CSV and a PNG drawn by plot.py; a
/// plot that cannot be made is a warning on err and a line in the summary, not an error.
void write_report_dir(const CliArguments& a, const ResultTable& reference,
                      const ResultTable& result, const CompareReport& report,
                      const PlotEnvironment& plots, std::ostream& out, std::ostream& err) {
  const std::filesystem::path& dir = *a.report_dir;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw IoError(
        fmt::format("{}: cannot create the report directory ({})", dir.string(), ec.message()));

  std::string why_no_plots;
  if (plots.plot_script.empty()) {
    why_no_plots = "no plot script configured";
  } else if (!std::filesystem::exists(plots.plot_script, ec)) {
    why_no_plots = fmt::format("{} not found", plots.plot_script.string());
  } else if (!std::filesystem::exists(plots.python, ec)) {
    why_no_plots = fmt::format("{} not found (Debian's python3 with python3-matplotlib)",
                               plots.python.string());
  }

  std::string plot_section;
  std::set<std::string> taken;
  std::size_t plotted = 0;
  const std::filesystem::path log = dir / "plot.log";
  for (const SignalComparison& s : report.signals) {
    if (s.points_outside == 0) continue;
    if (plotted == kMaxPlots) {
      plot_section += fmt::format("\nOnly the first {} failing signals are plotted.\n", kMaxPlots);
      break;
    }
    ++plotted;
    const std::string stem = file_stem(s.name, taken);
    const std::filesystem::path csv = dir / (stem + ".compare.csv");
    const std::filesystem::path png = dir / (stem + ".png");
    write_trace_csv(trace_signal(reference, result, a.options, s.name), csv);
    if (!why_no_plots.empty()) {
      plot_section += fmt::format("- {}: tube data in `{}` (no plot: {})\n", s.name,
                                  csv.filename().string(), why_no_plots);
      continue;
    }
    const std::string title = fmt::format("{}: outside the tube from t = {:.6g} (delta_y = {:.3g})",
                                          s.name, *s.first_failure_t, s.delta_y);
    const std::string command = fmt::format(
        "{} {} --compare {} {} --signal {} --units-from {} --title {} >> {} 2>&1",
        shell_quote(plots.python.string()), shell_quote(plots.plot_script.string()),
        shell_quote(csv.string()), shell_quote(png.string()), shell_quote(s.name),
        shell_quote(a.reference.string()), shell_quote(title), shell_quote(log.string()));
    if (std::system(command.c_str()) == 0 && std::filesystem::exists(png, ec)) {
      plot_section +=
          fmt::format("### {}\n\n![{}]({})\n\n", s.name, s.name, png.filename().string());
    } else {
      plot_section += fmt::format("- {}: plot failed, see plot.log; tube data in `{}`\n", s.name,
                                  csv.filename().string());
      err << fmt::format("hdae-compare: warning: the plot of {} failed; see {}\n", s.name,
                         log.string());
    }
  }
  if (!why_no_plots.empty() && plotted > 0) {
    err << "hdae-compare: warning: no plots: " << why_no_plots << '\n';
  }

  std::string summary = fmt::format("# hdae-compare\n\n- reference: `{}`\n- result: `{}`\n\n",
                                    a.reference.string(), a.result.string());
  summary += report.markdown_report();
  if (plotted > 0) summary += "\n## Failing signals\n\n" + plot_section;
  const std::filesystem::path summary_file = dir / "summary.md";
  std::ofstream f(summary_file, std::ios::binary);
  f << summary;
  f.close();
  if (!f) throw IoError(fmt::format("{}: write failed", summary_file.string()));
  out << "report: " << summary_file.string() << '\n';
}

}  // namespace

std::string_view usage() {
  return R"(usage: hdae-compare reference.csv result.csv [options]

Decides whether a result CSV agrees with a reference CSV within a tube around every
reference signal (as csv-compare does for Modelica regression tests). Rows with equal time
are the two limits at an event; events are paired by order and may shift slightly. Every
signal of the reference must be in the result; signals only in the result are listed.

options:
  --rel R             tube half-height relative to each signal's range (default 1e-3)
  --abs A             least tube half-height, absolute (default 1e-6)
  --rel-time R        tube half-width in time, relative to the time range (default 1e-3)
  --event-time-tol S  largest accepted shift of an event, in s (default 1e-6)
  --tolerances FILE   per-signal tolerances, one line "signal,rel,abs" per signal
  --signals a,b       compare only these signals (each must be in both files)
  --ignore-events     no event pairing: one tube reaching across events
  --require-all       a reference signal missing from the result fails the comparison
                      (the default)
  --allow-missing     compare the signals common to both files; reference signals missing
                      from the result are a warning, not a failure
  --report DIR        write DIR/summary.md and plots of the failing signals
  -h, --help          print this text

exit status: 0 the files agree, 1 they differ, 2 error (arguments or files)
)";
}

CliArguments parse_arguments(std::span<const std::string> args) {
  CliArguments a;
  std::vector<std::string> positional;
  std::optional<std::string_view> missing_flag;  // --require-all or --allow-missing, if given
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (arg == "-h" || arg == "--help") {
      a.help = true;
      continue;
    }
    if (!arg.starts_with("--") || arg == "--") {
      if (arg.starts_with("-") && arg.size() > 1) {
        throw UsageError(fmt::format("unknown option \"{}\"", arg));
      }
      positional.emplace_back(arg);
      continue;
    }
    std::string_view flag = arg;
    std::optional<std::string_view> inline_value;
    if (const auto eq = arg.find('='); eq != std::string_view::npos) {
      flag = arg.substr(0, eq);
      inline_value = arg.substr(eq + 1);
    }
    auto value = [&]() -> std::string_view {
      if (inline_value) return *inline_value;
      if (i + 1 >= args.size()) throw UsageError(fmt::format("{} needs a value", flag));
      return args[++i];
    };
    auto set_number = [&](double& field) {
      field = parse_value(flag, value());
      try {
        a.options.validate();
      } catch (const OptionError& e) {
        throw UsageError(fmt::format("{}: {}", flag, e.what()));
      }
    };
    if (flag == "--rel") {
      set_number(a.options.rel_value);
    } else if (flag == "--abs") {
      set_number(a.options.abs_floor);
    } else if (flag == "--rel-time") {
      set_number(a.options.rel_time);
    } else if (flag == "--event-time-tol") {
      set_number(a.options.event_time_tol_s);
    } else if (flag == "--tolerances") {
      a.tolerance_file = std::filesystem::path(value());
    } else if (flag == "--signals") {
      a.options.signals = split_names(flag, value());
    } else if (flag == "--report") {
      const std::string_view dir = value();
      if (dir.empty()) throw UsageError("--report: empty directory name");
      a.report_dir = std::filesystem::path(dir);
    } else if (flag == "--ignore-events" && !inline_value) {
      a.options.events = EventMatching::kIgnore;
    } else if ((flag == "--require-all" || flag == "--allow-missing") && !inline_value) {
      const bool fail = flag == "--require-all";
      if (missing_flag && fail != a.options.missing_signals_fail) {
        throw UsageError(fmt::format("{} contradicts {}", flag, *missing_flag));
      }
      missing_flag = flag;
      a.options.missing_signals_fail = fail;
    } else {
      throw UsageError(fmt::format("unknown option \"{}\"", arg));
    }
  }
  if (a.help) return a;
  if (positional.size() != 2) {
    throw UsageError(
        fmt::format("expected two files (reference.csv result.csv), got {}", positional.size()));
  }
  a.reference = positional[0];
  a.result = positional[1];
  return a;
}

int run_compare(std::span<const std::string> args, std::ostream& out, std::ostream& err,
                const PlotEnvironment& plots) {
  try {
    CliArguments a = parse_arguments(args);
    if (a.help) {
      out << usage();
      return kExitAgree;
    }
    if (a.tolerance_file) a.options.signal_tolerances = read_tolerance_file(*a.tolerance_file);
    const ResultTable reference = read_table(a.reference);
    const ResultTable result = read_table(a.result);
    for (const auto& [name, tol] : a.options.signal_tolerances) {
      bool known = false;
      for (const ColumnInfo& c : reference.columns()) known = known || c.name == name;
      if (!known) {
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
