// The hdae program's subcommands (hdae_program.hpp).
#include "hdae_program.hpp"

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "compare/compare_cli.hpp"
#include "compare/plot_script.hpp"
#ifdef HDAE_WITH_FMI
#include "fmu_command.hpp"
#include "fmu_export_command.hpp"
#endif
#include "hdae/errors.hpp"
#include "hdae/models/catalog.hpp"
#include "hdae/version.hpp"
#include "model_info.hpp"
#include "plot_command.hpp"
#include "program/parse_arguments.hpp"
#include "registry/registry.hpp"

namespace hdae::cli {
namespace {

constexpr const char* kProgram = "hdae";

int list_command(const std::vector<std::string>& rest, const examples::ProgramEnvironment& env) {
  if (!rest.empty()) {
    env.err << "hdae list: takes no arguments, got '" << rest.front() << "'\n";
    return 2;
  }
  env.out << model_list();
  return 0;
}

int info_command(const std::string& name, const examples::ProgramEnvironment& env) {
  const models::CatalogEntry* entry = models::find_model(name);
  if (entry == nullptr) {
    try {
      static_cast<void>(models::make_model(name));  // its message lists the models
    } catch (const ModelError& e) {
      env.err << "hdae info: " << e.what() << '\n';
    }
    return 2;
  }
  env.out << model_info(*entry->make(), entry->description);
  return 0;
}

int run_command(const std::vector<std::string>& rest, const examples::ProgramEnvironment& env) {
  constexpr const char* kUsage =
      "hdae run <model> [options] [output]: 'hdae list' names the models, 'hdae run <model> "
      "--help' lists the options; <model> may be an FMU, <file>.fmu, with --fmi-interface cs|me "
      "choosing Co-Simulation or Model Exchange when it has both (me unless given)";
  if (!rest.empty() && (rest.front() == "--help" || rest.front() == "-h")) {
    env.out << "Usage: " << kUsage << '\n';
    return 0;
  }
  if (rest.empty() || rest.front().starts_with('-')) {
    env.err << "hdae run: name a model first. Usage: " << kUsage << '\n';
    return 2;
  }
#ifdef HDAE_WITH_FMI
  if (rest.front().ends_with(".fmu")) return run_fmu(rest, env);
#endif
  const examples::Example* example = examples::find_example(rest.front());
  if (example == nullptr) {
    env.err << "hdae run: no model called '" << rest.front() << "' ('hdae list' names them)\n";
    return 2;
  }
  return examples::run_example_program(*example, "hdae run " + example->name,
                                       {rest.begin() + 1, rest.end()}, env);
}

int compare_command(const std::vector<std::string>& rest, const examples::ProgramEnvironment& env) {
  compare::PlotEnvironment plots{.python = compare::plot_python(),
                                 .plot_script = compare::plot_script()};
  return compare::run_compare(rest, env.out, env.err, plots);
}

/// The problem with a command line whose first argument is no command and no --help or
/// --version, naming it and the commands ("" when the first argument is fine): CLI11 alone says
/// only "A subcommand is required".
std::string first_argument_problem(const std::vector<std::string>& args,
                                   const std::vector<std::string>& commands) {
  std::string names;
  for (const std::string& c : commands) names += (names.empty() ? "" : ", ") + c;
  if (args.empty()) return fmt::format("name a command: {}", names);
  const std::string& first = args.front();
  if (first == "--help" || first == "-h" || first == "--version") return {};
  if (std::find(commands.begin(), commands.end(), first) != commands.end()) return {};
  return fmt::format("{} '{}'; the commands are: {}",
                     first.starts_with('-') ? "unknown option" : "unknown command", first, names);
}

}  // namespace

int run_hdae(const std::vector<std::string>& args, const examples::ProgramEnvironment& env) {
  CLI::App app("hdae: the bundled hybrid DAE models and their results", kProgram);
  app.set_version_flag("--version", std::string(kProgram) + " " + std::string(kVersion));
  app.require_subcommand(1);
  app.footer("'hdae <command> --help' (for run: 'hdae run <model> --help') tells more.");
  std::string model;
  CLI::App* list = app.add_subcommand("list", "the bundled models, one line each");
  list->allow_extras();
  CLI::App* info = app.add_subcommand("info", "a model's variables, parameters and equations");
  info->add_option("model", model, "the model's name ('hdae list')")->required();
  CLI::App* run = app.add_subcommand("run", "run a model: hdae run <model> [options] [output]");
  CLI::App* compare = app.add_subcommand("compare", "compare a result with a reference");
  CLI::App* plot = app.add_subcommand("plot", "plot a result: result.csv [out.png] [signal ...]");
  std::vector<CLI::App*> forwarded{run, compare, plot};
#ifdef HDAE_WITH_FMI
  forwarded.push_back(
      app.add_subcommand("fmu", "export a model as an FMU: fmu export <model> -o <file>.fmu"));
#endif
  for (CLI::App* forwarding : forwarded) {
    // The rest of the command line belongs to the command; it prints its own --help.
    forwarding->prefix_command();
    forwarding->set_help_flag();
  }
  std::vector<std::string> commands;
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    commands.push_back(command->get_name());
  }
  if (const std::string problem = first_argument_problem(args, commands); !problem.empty()) {
    return examples::usage_error(kProgram, problem, env.err);
  }
  if (const std::optional<int> done =
          examples::parse_arguments(app, args, kProgram, env.out, env.err)) {
    return *done;
  }
  if (list->parsed()) return list_command(list->remaining(), env);
  if (info->parsed()) return info_command(model, env);
  if (run->parsed()) return run_command(run->remaining(), env);
  if (compare->parsed()) return compare_command(compare->remaining(), env);
#ifdef HDAE_WITH_FMI
  if (forwarded.back()->parsed()) return run_fmu_command(forwarded.back()->remaining(), env);
#endif
  return run_plot(plot->remaining(), compare::plot_python(), compare::plot_script(), env.out,
                  env.err);
}

}  // namespace hdae::cli
