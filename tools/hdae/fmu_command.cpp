// `hdae run <file>.fmu` (fmu_command.hpp): the FMU as an entry of the example programs' kind,
// made on the spot, so that the run, its options and its files are theirs. A Co-Simulation FMU
// brings its own run (Fmu::co_simulate) in place of the Simulator's, with the same progress
// lines.
#include "fmu_command.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>

#include <fmt/format.h>

#include "hdae/fmi.hpp"
#include "program/progress.hpp"

namespace hdae::cli {
namespace {

constexpr const char* kInterfaceOption = "--fmi-interface";

/// The arguments without --fmi-interface and its value, and the interface it asks for.
struct InterfaceChoice {
  std::vector<std::string> rest;
  std::optional<fmi::Interface> wanted;
  std::string problem;  ///< why the option's value is not understood; empty when it is
};

InterfaceChoice choose_interface(const std::vector<std::string>& args) {
  InterfaceChoice choice;
  for (std::size_t k = 0; k < args.size(); ++k) {
    std::string value;
    if (args[k] == kInterfaceOption) {
      if (k + 1 == args.size()) {
        choice.problem = fmt::format("{} needs a value: cs or me", kInterfaceOption);
        return choice;
      }
      value = args[++k];
    } else if (args[k].starts_with(std::string(kInterfaceOption) + "=")) {
      value = args[k].substr(std::string(kInterfaceOption).size() + 1);
    } else {
      choice.rest.push_back(args[k]);
      continue;
    }
    if (value == "cs") {
      choice.wanted = fmi::Interface::kCoSimulation;
    } else if (value == "me") {
      choice.wanted = fmi::Interface::kModelExchange;
    } else {
      choice.problem = fmt::format(
          "{} {}: the interfaces are cs (Co-Simulation) and me (Model "
          "Exchange)",
          kInterfaceOption, value);
    }
  }
  return choice;
}

/// The key numbers: the states at the end, as the FMU names them; every column when there are
/// none (a Co-Simulation FMU need not say which variables are its states).
std::string key_numbers(const SimulationResult& r) {
  std::string text = fmt::format("at t = {:g}:", r.table.time(r.table.num_rows() - 1));
  const auto& columns = r.table.columns();
  const bool has_states = std::any_of(columns.begin(), columns.end(), [](const ColumnInfo& c) {
    return c.kind == ColumnKind::kState;
  });
  for (const ColumnInfo& c : columns) {
    if (has_states && c.kind != ColumnKind::kState) continue;
    text += fmt::format(" {} = {:.6g}", c.name, r.table.final_value(c.name));
  }
  return text;
}

}  // namespace

int run_fmu(const std::vector<std::string>& rest, const examples::ProgramEnvironment& env) {
  const std::filesystem::path path = rest.front();
  const InterfaceChoice choice = choose_interface({rest.begin() + 1, rest.end()});
  if (!choice.problem.empty()) {
    env.err << "hdae run " << rest.front() << ": " << choice.problem << '\n';
    return 2;
  }
  const fmi::LoadOptions load_options{.fmi_interface = choice.wanted};
  std::shared_ptr<std::unique_ptr<fmi::Fmu>> loaded;
  try {
    loaded = std::make_shared<std::unique_ptr<fmi::Fmu>>(fmi::load(path, load_options));
  } catch (const std::exception& e) {
    env.err << "hdae run: " << e.what() << '\n';
    return 2;
  }
  const fmi::FmuInfo& info = (*loaded)->info();
  const bool co_simulation = info.fmi_interface == fmi::Interface::kCoSimulation;
  examples::Example example;
  example.name = path.stem().string();
  example.description = fmt::format(
      "the FMU {} (FMI {} {}, model {}); {} cs|me chooses the interface of an FMU that has both "
      "(Model Exchange unless asked: hdae's solvers and event handling; Co-Simulation: the "
      "FMU's fmi3DoStep from one output time to the next)",
      path.filename().string(), info.fmi_version,
      co_simulation ? "Co-Simulation" : "Model Exchange", info.model_name, kInterfaceOption);
  // The model loaded above serves the first run; another would unpack the FMU anew.
  example.make_model = [loaded, path, load_options](const examples::ParameterValues&) {
    std::unique_ptr<SimulationModel> model;
    if (*loaded) {
      model = std::move(*loaded);
    } else {
      model = fmi::load(path, load_options);
    }
    return model;
  };
  example.key_numbers = [](const SimulationModel&, const SimulationResult& r) {
    return key_numbers(r);
  };
  if (co_simulation) {
    // Progress lines on a terminal as for a Simulator's run (example_program.cpp), from the
    // rows and events of the FMU's steps.
    std::ostream* progress_out = env.show_progress ? &env.err : nullptr;
    example.run = [progress_out](SimulationModel& model, const SimulationOptions& options) {
      auto& fmu = dynamic_cast<fmi::Fmu&>(model);
      if (progress_out == nullptr) return fmu.co_simulate(options);
      examples::ProgressReporter progress(*progress_out, options.start_s, options.stop_s);
      return fmu.co_simulate(options, {.sinks = {&progress}, .observers = {&progress}});
    };
  }
  example.options.start_s = info.start_s;
  if (info.stop_s) example.options.stop_s = *info.stop_s;
  if (info.tolerance) example.options.rel_tol = *info.tolerance;
  return examples::run_example_program(example, "hdae run " + rest.front(), choice.rest, env);
}

}  // namespace hdae::cli
