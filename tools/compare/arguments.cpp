// hdae-compare's command line (arguments.hpp). CLI11 recognises the options, their values
// (--opt value or --opt=value) and --help/--version; the checks of each value, the two file
// names and the contradiction of --require-all and --allow-missing are ours, so their
// messages read as before CLI11 parsed the line.
#include "compare/arguments.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <memory>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "hdae/errors.hpp"
#include "hdae/version.hpp"

namespace hdae::compare {
namespace {

constexpr std::string_view kTwoFiles = "expected two files (reference.csv result.csv)";

constexpr std::string_view kDescription =
    "Decides whether a result CSV agrees with a reference CSV within a tube around every\n"
    "reference signal (as csv-compare does for Modelica regression tests). Rows with equal time\n"
    "are the two limits at an event; events are paired by order and may shift slightly. Every\n"
    "signal of the reference must be in the result; signals only in the result are listed.\n"
    "Either file may be an HDF5 result file (hdae's .h5 format, recognised by its content).";

constexpr std::string_view kFooter =
    "exit status: 0 the files agree, 1 they differ, 2 error (arguments or files)";

constexpr std::string_view kIgnoreEvents = "--ignore-events";
constexpr std::string_view kRequireAll = "--require-all";
constexpr std::string_view kAllowMissing = "--allow-missing";
/// The flags, which take no value ("--ignore-events=yes" is an error, not a spelling of on).
constexpr std::array<std::string_view, 3> kFlags = {kIgnoreEvents, kRequireAll, kAllowMissing};

/// CLI11's help with our usage line first (the two files are not optional), then the
/// description.
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_description(const CLI::App* /*app*/) const override { return {}; }
  std::string make_usage(const CLI::App* app, std::string /*name*/) const override {
    return "usage: hdae-compare reference.csv result.csv [options]\n\n" + app->get_description() +
           '\n';
  }
};

double parse_value(std::string_view flag, std::string_view text) {
  double v = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    throw CLI::ValidationError(std::string(flag),
                               fmt::format("expected a number, got \"{}\"", text));
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
      throw CLI::ValidationError(std::string(flag),
                                 fmt::format("empty signal name in \"{}\"", text));
    }
    names.emplace_back(name);
    if (end == text.size()) return names;
    start = end + 1;
  }
}

/// The options of hdae-compare on `app`: values go to `a` and the two file names as they are
/// read, the flags are counted.
struct CommandLine {
  CliArguments a;
  std::string reference;
  std::string result;
  CLI::App app{std::string(kDescription), "hdae-compare"};

  CommandLine() {
    app.formatter(std::make_shared<HelpFormatter>());
    // Wide enough for "--event-time-tol NUMBER"; descriptions are broken to fit 80 columns.
    app.get_formatter()->column_width(27);
    app.footer(std::string(kFooter));
    app.set_help_flag("-h,--help", "print this text");
    app.set_version_flag("--version", version_line(), "print the program's version");
    // Unknown options and surplus files are collected and reported by parse_arguments.
    app.allow_extras();
    app.add_option("reference", reference, "the reference CSV (or HDF5 result file)")
        ->type_name("");
    app.add_option("result", result,
                   "the result CSV (or HDF5 result file), compared with the reference")
        ->type_name("");

    add_number("--rel", &CompareOptions::rel_value,
               "tube half-height relative to each signal's range\n(default 1e-3)");
    add_number("--abs", &CompareOptions::abs_floor,
               "least tube half-height, absolute (default 1e-6)");
    add_number("--rel-time", &CompareOptions::rel_time,
               "tube half-width in time, relative to the time\nrange (default 1e-3)");
    add_number("--event-time-tol", &CompareOptions::event_time_tol_s,
               "largest accepted shift of an event, in s (default 1e-6)");
    once(app.add_option_function<std::string>(
             "--tolerances", [this](const std::string& file) { a.tolerance_file = file; },
             "per-signal tolerances, one line \"signal,rel,abs\"\nper signal"))
        ->type_name("FILE");
    once(app.add_option_function<std::string>(
             "--signals",
             [this](const std::string& names) {
               a.options.signals = split_names("--signals", names);
             },
             "compare only these signals (each must be in both\nfiles)"))
        ->type_name("a,b");
    add_flag(kIgnoreEvents, "no event pairing: one tube reaching across\nevents");
    add_flag(kRequireAll,
             "a reference signal missing from the result fails\nthe comparison (the default)");
    add_flag(kAllowMissing,
             "compare the signals common to both files;\n"
             "reference signals missing from the result are a\n"
             "warning, not a failure");
    once(app.add_option_function<std::string>(
             "--report",
             [this](const std::string& dir) {
               if (dir.empty()) {
                 throw CLI::ValidationError("--report", "empty directory name");
               }
               a.report_dir = dir;
             },
             "write DIR/summary.md and plots of the failing\nsignals"))
        ->type_name("DIR");
  }

  /// The options that take a value; each may be given once (check_given_once).
  std::vector<std::string> value_options;

  /// A value option: CLI11 hands the callback the last value, check_given_once rejects a
  /// repeat after the line is read, so "--rel 1 --rel 2" is an error naming --rel rather than
  /// a silent choice (the example programs reject a repeated option too).
  CLI::Option* once(CLI::Option* option) {
    value_options.push_back(option->get_name());
    return option->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  }

  void check_given_once() const {
    for (const std::string& name : value_options) {
      if (const std::size_t n = app.count(name); n > 1) {
        throw UsageError(fmt::format("{} is given {} times; give it once", name, n));
      }
    }
  }

  /// A number option, checked by CompareOptions::validate as soon as it is read.
  void add_number(std::string_view flag, double CompareOptions::*field, std::string_view help) {
    once(app.add_option_function<std::string>(
             std::string(flag),
             [this, flag, field](const std::string& text) {
               a.options.*field = parse_value(flag, text);
               try {
                 a.options.validate();
               } catch (const OptionError& e) {
                 throw CLI::ValidationError(std::string(flag), e.what());
               }
             },
             std::string(help)))
        ->type_name("NUMBER");
  }

  void add_flag(std::string_view flag, std::string_view help) {
    app.add_flag(std::string(flag))->description(std::string(help))->disable_flag_override();
  }

  [[nodiscard]] bool given(std::string_view flag) const { return app.count(std::string(flag)) > 0; }

  /// The first of --require-all and --allow-missing on the line, and the other one after it.
  void check_missing_signal_flags() const {
    std::string_view first;
    for (const CLI::Option* o : app.parse_order()) {
      const std::string name = o->get_name();
      if (name != kRequireAll && name != kAllowMissing) continue;
      if (first.empty()) {
        first = name == kRequireAll ? kRequireAll : kAllowMissing;
      } else if (name != first) {
        throw UsageError(fmt::format("{} contradicts {}", name, first));
      }
    }
  }
};

}  // namespace

std::string usage() { return CommandLine().app.help(); }

std::string version_line() { return fmt::format("hdae-compare {}", kVersion); }

CliArguments parse_arguments(std::span<const std::string> args) {
  CommandLine line;
  // CLI11 takes the arguments last first.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    line.app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    line.a.request = Request::kPrintHelp;
    return line.a;
  } catch (const CLI::CallForVersion&) {
    line.a.request = Request::kPrintVersion;
    return line.a;
  } catch (const CLI::ArgumentMismatch& e) {
    // A flag given a value: CLI11 names the flag without its dashes; name the argument.
    for (const std::string& arg : args) {
      for (const std::string_view flag : kFlags) {
        if (arg.starts_with(flag) && arg.size() > flag.size() && arg[flag.size()] == '=') {
          throw UsageError(fmt::format("{} takes no value, got \"{}\"", flag, arg));
        }
      }
    }
    throw UsageError(e.what());
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }

  for (const std::string& extra : line.app.remaining()) {
    if (extra == "--") continue;  // CLI11 keeps the end-of-options marker
    if (extra.size() > 1 && extra.front() == '-') {
      throw UsageError(fmt::format("unknown option \"{}\"", extra));
    }
    throw UsageError(fmt::format("unexpected argument \"{}\": {}", extra, kTwoFiles));
  }
  const std::size_t files = line.app.count("reference") + line.app.count("result");
  if (files != 2) throw UsageError(fmt::format("{}, got {}", kTwoFiles, files));
  line.check_given_once();
  line.check_missing_signal_flags();

  CliArguments& a = line.a;
  a.reference = line.reference;
  a.result = line.result;
  if (line.given(kIgnoreEvents)) a.options.events = EventMatching::kIgnore;
  if (line.given(kAllowMissing)) a.options.missing_signals_fail = false;
  return a;
}

}  // namespace hdae::compare
