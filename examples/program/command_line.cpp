// An example program's command line (command_line.hpp), built from its registry entry.
#include "program/command_line.hpp"

#include <charconv>
#include <map>
#include <ostream>
#include <system_error>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

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
                 "result CSV; <stem>.units.csv (units) and <stem>.events.csv (event log) are "
                 "written beside it when it is a regular file, not beside a device such as "
                 "/dev/null or a pipe")
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
  for (const auto& [name, on] : flags) {
    if (on) run.parameters.flags.insert(name);
  }
  return {.invocation = std::move(run)};
}

}  // namespace hdae::examples
