// An example program's command line (command_line.hpp), built from its registry entry.
#include "program/command_line.hpp"

#include <array>
#include <charconv>
#include <map>
#include <memory>
#include <ostream>
#include <system_error>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

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

constexpr const char* kExitCodes =
    "Exit status: 0 the run reached its end, 1 it stopped early (interrupted with Ctrl-C, or a "
    "numerical outcome such as chattering; the files hold what was computed), 2 an error "
    "(bad arguments or options, a model or file error; the message says which).";

}  // namespace

std::string version_text(const std::string& program) {
  return fmt::format("{} (hdae {})", program, HDAE_VERSION);
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

  std::string output = (std::filesystem::path("results") / (example.name + ".csv")).string();
  app.add_option("output", output,
                 "result file: HDF5 when it ends in .h5 (table, units, event log in one file), "
                 "else a CSV with <stem>.units.csv (units) and <stem>.events.csv (event log) "
                 "beside it when it is a regular file, not beside a device such as /dev/null "
                 "or a pipe")
      ->type_name("PATH")
      ->capture_default_str();

  std::map<std::string, bool> flags;
  for (const ExampleParameter& p : example.parameters) {
    if (p.kind == ParameterKind::kCount) {
      // std::map keeps the reference to the value valid while CLI11 holds it.
      app.add_option(p.name, run.parameters.counts[p.name], p.help)
          ->type_name("INTEGER")
          ->check(CLI::Validator(check_positive_integer, "", "positive integer"))
          ->capture_default_str();
    } else {
      app.add_flag("--" + p.name, flags[p.name], p.help);
    }
  }

  app.add_option("--stop", run.options.stop_s, "stop time in s")
      ->type_name("S")
      ->capture_default_str();
  app.add_option("--rtol", run.options.rel_tol, "relative tolerance of the integrator")
      ->type_name("X")
      ->capture_default_str();
  double interval_s = example.options.output_interval_s.value_or(0.0);
  CLI::Option* interval =
      app.add_option("--output-interval", interval_s,
                     example.options.output_interval_s
                         ? "spacing of the output grid in s"
                         : "spacing of the output grid in s [default: (stop - start) / 500]")
          ->type_name("S");
  if (example.options.output_interval_s) interval->capture_default_str();
  const RecordTexts record = add_record_options(app);

  try {
    // CLI11 takes the arguments in reverse order.
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return {};
  } catch (const CLI::CallForVersion& e) {
    out << e.what() << '\n';
    return {};
  } catch (const CLI::ParseError& e) {
    err << program << ": " << e.what() << '\n' << "Run '" << program << " --help' for the usage.\n";
    return {.exit_code = 2};
  }

  run.output = output;
  if (interval->count() > 0) run.options.output_interval_s = interval_s;
  apply_record_options(*record, run.options);
  for (const auto& [name, on] : flags) {
    if (on) run.parameters.flags.insert(name);
  }
  return {.invocation = std::move(run)};
}

}  // namespace hdae::examples
