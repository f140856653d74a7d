// An example program's command line (command_line.hpp), built from its registry entry.
#include "program/command_line.hpp"

#include <array>
#include <charconv>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string_view>
#include <system_error>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "hdae/errors.hpp"
#include "hdae/options.hpp"
#include "hdae/version.hpp"
#include "program/parse_arguments.hpp"
#include "program/record_options.hpp"

namespace hdae::examples {
namespace {

/// Accepts what std::from_chars reads completely as a std::size_t >= 1 (no sign, no blanks).
std::string check_positive_integer(const std::string& text) {
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) return fmt::format("'{}' is too large", text);
  if (ec != std::errc() || end != text.data() + text.size() || value == 0) {
    return fmt::format("must be a positive integer, got '{}'", text);
  }
  return {};
}

/// CLI11 check of an option's raw text: an empty value ('--threads ""') is an error, not the
/// number 0 or an empty path; CLI11 would convert it silently.
const CLI::Validator kNotEmpty(
    [](const std::string& text) { return text.empty() ? "must not be empty" : std::string{}; }, "",
    "");

/// The value of --restart-step (SimulationOptions::restart_step), named as on the command line.
std::optional<RestartStep> parse_restart_step(const std::string& text) {
  if (text == "ida-estimate") return RestartStep::kIdaEstimate;
  if (text == "from-history") return RestartStep::kFromHistory;
  if (text == "keep-order") return RestartStep::kKeepOrder;
  return std::nullopt;
}

/// CLI11 validator for --method: "" when the name is one of SimulationOptions::method's.
std::string check_method(const std::string& text) {
  try {
    (void)parse_integration_method(text);
    return {};
  } catch (const OptionError& e) {
    return e.what();
  }
}

/// CLI11 validator for --restart-step.
std::string check_restart_step(const std::string& text) {
  if (parse_restart_step(text)) return {};
  return fmt::format("must be ida-estimate, from-history or keep-order, got '{}'", text);
}

/// CLI11 validator for --set.
std::string check_setting(const std::string& text) {
  std::string error;
  return parse_setting(text, &error) ? std::string{} : error;
}

/// The texts of --columns, --kinds and --rows; held by pointer, as CLI11 writes into them.
using RecordTexts = std::unique_ptr<std::array<std::string, 3>>;

/// A CLI11 check from a parser of record_options.hpp.
template <typename Parse>
CLI::Validator record_check(Parse parse) {
  return CLI::Validator([parse](std::string& text) { return parse(text); }, "", "");
}

RecordTexts add_record_options(CLI::App& app) {
  RecordTexts texts = std::make_unique<std::array<std::string, 3>>();
  app.add_option("--columns", (*texts)[0],
                 "record only these columns: names or globs, comma-separated ('w*,tau', "
                 "'der(*)'); with --kinds, a column is recorded when either selects it")
      ->type_name("LIST")
      ->check(record_check([](const std::string& t) {
        std::vector<std::string> columns;
        return parse_column_list(t, columns);
      }));
  app.add_option("--kinds", (*texts)[1],
                 "record whole kinds of columns, comma-separated: states, derivatives, outputs")
      ->type_name("LIST")
      ->check(record_check([](const std::string& t) {
        std::vector<ColumnKind> kinds;
        return parse_kind_list(t, kinds);
      }));
  app.add_option("--rows", (*texts)[2],
                 "rows recorded: all (the output grid), events (t0, both limits at every "
                 "event, the last row), every:K (every K-th output point and the event rows); "
                 "event rows are always kept [default: all]")
      ->type_name("WHICH")
      ->check(record_check([](const std::string& t) {
        SimulationOptions scratch;
        return parse_row_selection(t, scratch);
      }));
  return texts;
}

/// Puts the checked texts into the options (an option not given leaves its field alone).
void apply_record_options(const std::array<std::string, 3>& texts, SimulationOptions& options) {
  if (!texts[0].empty()) (void)parse_column_list(texts[0], options.record_columns);
  if (!texts[1].empty()) (void)parse_kind_list(texts[1], options.record_kinds);
  if (!texts[2].empty()) (void)parse_row_selection(texts[2], options);
}

/// What contradicts itself on a command line that CLI11 accepted, or "": a parameter set twice
/// with --set, a count parameter given both as its positional argument and with --set (either
/// would silently win), and --rows events with a grid option (event rows only: the grid would
/// be silently ignored).
std::string find_conflict(const std::vector<ParameterSetting>& settings,
                          const std::map<std::string, const CLI::Option*>& count_options,
                          const std::string& rows, std::initializer_list<const CLI::Option*> grid) {
  for (std::size_t k = 0; k < settings.size(); ++k) {
    for (std::size_t l = 0; l < k; ++l) {
      if (settings[l].name != settings[k].name) continue;
      return fmt::format("{0} is given twice: --set {0}={1} and --set {0}={2}", settings[k].name,
                         settings[l].value, settings[k].value);
    }
  }
  for (const ParameterSetting& s : settings) {
    const auto it = count_options.find(s.name);
    if (it != count_options.end() && it->second->count() > 0) {
      return fmt::format("{} is given twice: as the positional argument {} and as --set {}={}",
                         s.name, it->second->as<std::string>(), s.name, s.value);
    }
  }
  if (rows != "events") return {};
  for (const CLI::Option* option : grid) {
    if (option->count() > 0) {
      return fmt::format(
          "--rows events contradicts {}: it records the event rows only, no output grid",
          option->get_name());
    }
  }
  return {};
}

constexpr const char* kExitCodes =
    "Exit status: 0 the run reached its end, 1 it stopped early (interrupted with Ctrl-C, or a "
    "numerical outcome such as chattering; the files hold what was computed), 2 an error "
    "(bad arguments or options, a model or file error; the message says which).";

/// What CLI11 writes into that is read only after parsing, with the options whose presence
/// decides how; it must outlive the parse, as CLI11 holds references to its fields.
struct OptionTexts {
  std::string output;
  /// The --set options as given, read by parse_setting once CLI11 has checked them.
  std::vector<std::string> settings;
  std::string restart_step;
  /// Read as one text: CLI11's delimiter would drop empty items ("1,,2" as 1,2).
  std::string output_times;
  double interval_s = 0.0;
  /// The example's flags, on or off.
  std::map<std::string, bool> flags;
  /// The positional option of each count parameter, for find_conflict.
  std::map<std::string, const CLI::Option*> count_options;
  CLI::Option* times = nullptr;
  CLI::Option* interval = nullptr;
  RecordTexts record;
};

/// The result file, a positional argument or -o (not both).
void add_output_options(CLI::App& app, const Example& example, std::string& output) {
  output = (std::filesystem::path("results") / (example.name + ".csv")).string();
  CLI::Option* output_positional =
      app.add_option("output", output,
                     "result file: HDF5 when it ends in .h5 (table, units, event log and "
                     "parameters in one file), else a CSV with <stem>.units.csv (units), "
                     "<stem>.events.csv (event log) and <stem>.params.csv (parameter values) "
                     "beside it when it is a regular file, not beside a device such as /dev/null "
                     "or a pipe")
          ->type_name("PATH")
          ->check(kNotEmpty)
          ->capture_default_str();
  app.add_option("-o,--output", output, "the result file, given as an option")
      ->type_name("PATH")
      ->check(kNotEmpty)
      ->excludes(output_positional);
}

/// The example's own parameters (a positional argument per count, an option per flag) and
/// --set for any parameter of the model.
void add_parameter_options(CLI::App& app, const Example& example, ParameterValues& values,
                           OptionTexts& texts) {
  for (const ExampleParameter& p : example.parameters) {
    if (p.kind == ParameterKind::kCount) {
      // std::map keeps the reference to the value valid while CLI11 holds it.
      texts.count_options[p.name] =
          app.add_option(p.name, values.counts[p.name], p.help)
              ->type_name("INTEGER")
              ->check(CLI::Validator(check_positive_integer, "", "positive integer"))
              ->capture_default_str();
    } else {
      app.add_flag("--" + p.name, texts.flags[p.name], p.help);
    }
  }
  app.add_option("--set", texts.settings,
                 "set a model parameter, e.g. --set J2=0.5 (repeat for more; 'hdae info <model>' "
                 "lists the parameters with their ranges)")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false)
      ->check(CLI::Validator(check_setting, "", "NAME=VALUE"));
}

/// The run's end and accuracy and IDA's settings, written straight into the options.
void add_integrator_options(CLI::App& app, SimulationOptions& options, std::string& restart_step) {
  app.add_option("--stop", options.stop_s, "stop time in s")
      ->type_name("S")
      ->check(kNotEmpty)
      ->capture_default_str();
  app.add_option("--rtol", options.rel_tol, "relative tolerance of the integrator")
      ->type_name("X")
      ->check(kNotEmpty)
      ->capture_default_str();
  app.add_option("--threads", options.threads,
                 "threads of the integrator's vector operations: 0 or 1 serial, n > 1 "
                 "SUNDIALS' OpenMP vectors with n threads (for 10^5 unknowns and more)")
      ->type_name("N")
      ->check(kNotEmpty)
      ->capture_default_str();
  app.add_option_function<std::string>(
         "--method",
         [&options](const std::string& name) { options.method = parse_integration_method(name); },
         "the integrator: ida (IDA's BDF, any model), auto (IDA for DAEs; explicit ODEs on an "
         "explicit Runge-Kutta pair, moved to CVODE's BDF while stiff), bdf (CVODE's BDF), "
         "adams (CVODE's Adams-Moulton) or erk (ARKODE's explicit Runge-Kutta); the last "
         "three for explicit ODEs only [default: ida]")
      ->type_name("WHICH")
      ->check(CLI::Validator(check_method, "", ""));
  app.add_option("--restart-step", restart_step,
                 "IDA's first step after an event that restarts it: ida-estimate (IDA's own, "
                 "far more accurate than the tolerance asks), from-history (from the step "
                 "size before the event: fewer steps, as accurate as the tolerance asks) or "
                 "keep-order (IDA goes on at its order, its history shifted by the jump) "
                 "[default: ida-estimate]")
      ->type_name("WHICH")
      ->check(CLI::Validator(check_restart_step, "", ""));
  app.add_option("--max-order", options.max_order,
                 "highest order of IDA's BDF formulas (IDASetMaxOrd), 1 to 5")
      ->type_name("K")
      ->check(kNotEmpty)
      ->capture_default_str();
  app.add_option("--initial-step", options.initial_step_s,
                 "IDA's first step in s at t0 and after restarts (0: IDA's own estimate)")
      ->type_name("S")
      ->check(kNotEmpty)
      ->capture_default_str();
  app.add_option("--max-step", options.max_step_s, "IDA's largest step in s (0: no limit)")
      ->type_name("S")
      ->check(kNotEmpty)
      ->capture_default_str();
}

/// Where the rows go: listed times or a grid, whose default is the example's own when it has
/// one.
void add_grid_options(CLI::App& app, const SimulationOptions& defaults, OptionTexts& texts) {
  texts.times =
      app.add_option("--output-times", texts.output_times,
                     "rows at these times instead of the output grid, comma-separated and "
                     "increasing, e.g. --output-times 0.5,1,2.5 (besides t0, events and stop), "
                     "or @FILE for the times in FILE (commas, blanks or lines between them)")
          ->type_name("LIST")
          ->check(record_check([](const std::string& t) {
            std::vector<double> scratch;
            return parse_time_argument(t, scratch);
          }));
  texts.interval_s = defaults.output_interval_s.value_or(0.0);
  texts.interval =
      app.add_option("--output-interval", texts.interval_s,
                     defaults.output_interval_s
                         ? "spacing of the output grid in s"
                         : "spacing of the output grid in s [default: (stop - start) / 500]")
          ->type_name("S")
          ->check(kNotEmpty);
  if (defaults.output_interval_s) texts.interval->capture_default_str();
}

/// Puts the checked texts of the options given into the run (one not given leaves its field
/// alone).
void apply_option_texts(const OptionTexts& texts, Invocation& run) {
  if (texts.times->count() > 0) {
    // The listed times replace the example's grid; with --output-interval as well, both are
    // set and validate() names the conflict.
    (void)parse_time_argument(texts.output_times, run.options.output_times);
    run.options.output_interval_s.reset();
  }
  if (texts.interval->count() > 0) run.options.output_interval_s = texts.interval_s;
  if (!texts.restart_step.empty())
    run.options.restart_step = *parse_restart_step(texts.restart_step);
  apply_record_options(*texts.record, run.options);
  for (const auto& [name, on] : texts.flags) {
    if (on) run.parameters.flags.insert(name);
  }
}

}  // namespace

std::optional<ParameterSetting> parse_setting(const std::string& text, std::string* error) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    *error = fmt::format("'{}' is not NAME=VALUE", text);
    return std::nullopt;
  }
  ParameterSetting setting{.name = text.substr(0, eq)};
  const std::string_view value = std::string_view(text).substr(eq + 1);
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), setting.value);
  if (ec == std::errc::result_out_of_range && end == value.data() + value.size()) {
    *error = fmt::format(
        "the value of parameter '{}' is out of range: '{}' (numbers from -{:g} to {:g} are "
        "taken, and the parameter's own range is checked after)",
        setting.name, value, std::numeric_limits<double>::max(),
        std::numeric_limits<double>::max());
    return std::nullopt;
  }
  if (ec != std::errc() || end != value.data() + value.size()) {
    *error = fmt::format("the value of parameter '{}' is not a number: '{}'", setting.name, value);
    return std::nullopt;
  }
  return setting;
}

std::string version_text(const std::string& program) {
  return fmt::format("{} (hdae {})", program, kVersion);
}

ParsedCommandLine parse_command_line(const Example& example, const std::string& program,
                                     const std::vector<std::string>& args, std::ostream& out,
                                     std::ostream& err) {
  Invocation run;
  run.options = example.options;
  run.parameters = default_parameters(example);

  CLI::App app(example.description, program);
  app.set_version_flag("--version", version_text(program));
  app.footer(kExitCodes);
  // Added in the order --help lists them.
  OptionTexts texts;
  add_output_options(app, example, texts.output);
  add_parameter_options(app, example, run.parameters, texts);
  add_integrator_options(app, run.options, texts.restart_step);
  add_grid_options(app, example.options, texts);
  texts.record = add_record_options(app);

  if (const std::optional<int> done = parse_arguments(app, args, program, out, err)) {
    return {.exit_code = *done};
  }

  run.output = texts.output;
  std::string unused;
  for (const std::string& text : texts.settings) {
    run.settings.push_back(*parse_setting(text, &unused));
  }
  if (const std::string conflict = find_conflict(run.settings, texts.count_options,
                                                 (*texts.record)[2], {texts.interval, texts.times});
      !conflict.empty()) {
    return {.exit_code = usage_error(program, conflict, err)};
  }
  apply_option_texts(texts, run);
  return {.invocation = std::move(run)};
}

}  // namespace hdae::examples
