// An example program's run (example_program.hpp).
#include "program/example_program.hpp"

#include <filesystem>
#include <memory>
#include <new>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "hdae/hdf5_result.hpp"
#include "hdae/simulator.hpp"
#include "program/command_line.hpp"
#include "program/progress.hpp"

namespace hdae::examples {
namespace {

/// Writes the result files (creating the output's directory) with the model's parameter
/// values: one HDF5 file for an output ending in .h5, else the CSV files, saying on err when
/// the side files were left out because the output is not a regular file.
void write_files(const SimulationResult& result, const SimulationModel& model,
                 const std::filesystem::path& output, const std::string& program,
                 std::ostream& err) {
  if (output.has_parent_path()) std::filesystem::create_directories(output.parent_path());
  if (output.extension() == ".h5") {
    write_result_hdf5(result, output, result_parameters(model.structure().parameters));
    return;
  }
  const ResultFiles files = write_result_files(result, output, model.structure().parameters);
  if (!files.side_files_written()) {
    err << program << ": " << output.string()
        << " is not a regular file: wrote the table only, no units, event log or parameters "
           "file\n";
  }
}

/// Puts the --set values into the model; a rejected one becomes a ModelError that names the
/// option as well as the model's reason.
void apply_settings(SimulationModel& model, const std::vector<ParameterSetting>& settings) {
  for (const ParameterSetting& s : settings) {
    try {
      model.set_parameter(s.name, s.value);
    } catch (const ModelError& e) {
      throw ModelError(fmt::format("--set {}={}: {}", s.name, s.value, e.what()));
    }
  }
}

/// simulate(), with progress lines on err when asked for (a terminal); the example's own run
/// when it has one.
SimulationResult run_model(const Example& example, SimulationModel& model,
                           const SimulationOptions& options, const ProgramEnvironment& env) {
  if (example.run) return example.run(model, options);
  Simulator simulator(model, options);
  std::optional<ProgressReporter> progress;
  if (env.show_progress) {
    progress.emplace(env.err, options.start_s, options.stop_s);
    simulator.add_row_sink(*progress);
    simulator.add_event_observer(*progress);
  }
  simulator.advance_to(options.stop_s);
  return simulator.take_result();
}

/// The example's key numbers, or why they are left out: they read columns by name, and the
/// command line may have left those out of the record (--columns, --kinds).
void print_key_numbers(const Example& example, const SimulationModel& model,
                       const SimulationResult& result, std::ostream& out) {
  if (result.table.num_rows() == 0) return;
  try {
    out << example.key_numbers(model, result) << '\n';
  } catch (const std::out_of_range& e) {
    out << "key numbers left out: " << e.what() << '\n';
  }
}

}  // namespace

int run_example_program(const Example& example, const std::string& program,
                        const std::vector<std::string>& args, const ProgramEnvironment& env) {
  // What the program is doing, for the messages of failures that do not say it themselves.
  const char* stage = "reading the command line";
  try {
    ParsedCommandLine parsed = parse_command_line(example, program, args, env.out, env.err);
    if (!parsed.invocation) return parsed.exit_code;
    Invocation& run = *parsed.invocation;
    run.options.cancel = env.cancel;

    // Checked before the model is built, which can take long for a large one.
    stage = "checking the options";
    run.options.validate();
    stage = "building the model";
    const std::unique_ptr<SimulationModel> model = example.make_model(run.parameters);
    apply_settings(*model, run.settings);

    stage = "running the model";
    SimulationResult result;
    try {
      result = run_model(example, *model, run.options, env);
    } catch (const RunError& e) {  // a model or engine failure, with the partial result
      env.err << program << ": " << e.what() << '\n';
      if (e.partial_result()) {
        stage = "writing the partial result";
        write_files(*e.partial_result(), *model, run.output, program, env.err);
        env.err << program << ": partial result written to " << run.output.string() << '\n';
      }
      return 2;
    }

    stage = "writing the result";
    write_files(result, *model, run.output, program, env.err);
    stage = "printing the summary";
    env.out << summary(result) << '\n';
    print_key_numbers(example, *model, result, env.out);
    env.out << "-> " << run.output.string() << '\n';
    return result.status.ok() ? 0 : 1;
  } catch (const std::bad_alloc&) {
    env.err << program << ": out of memory while " << stage << '\n';
  } catch (const std::exception& e) {
    env.err << program << ": " << e.what() << '\n';
  } catch (...) {
    env.err << program << ": an exception not derived from std::exception while " << stage << '\n';
  }
  return 2;
}

}  // namespace hdae::examples
