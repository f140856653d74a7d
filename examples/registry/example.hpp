// One bundled example as data: what the registry (registry.hpp) holds per example, made from
// an entry of the catalog of models (hdae/models/catalog.hpp) and its ExampleRun with the
// defaults filled in. From an entry the build derives the program hdae-<name>
// (examples/program/), its ctest against references/<name>.csv, the reference generator's run
// (tools/make_references/), the in-process regression test (tests/compare/test_regression.cpp)
// and scripts/run.sh's list.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hdae/models/example_run.hpp"
#include "hdae/options.hpp"

namespace hdae::examples {

using models::ExampleParameter;
using models::KeyNumbers;
using models::ModelFactory;
using models::ParameterKind;
using models::ParameterValues;

struct Example {
  /// Lower case with '_': the program is hdae-<name> with '-' for '_', the reference
  /// references/<name>.csv, the default output results/<name>.csv.
  std::string name;
  /// One line for --help: the model, its parameters and what to look at.
  std::string description;
  /// The command-line parameters of the model (most examples have none).
  std::vector<ExampleParameter> parameters;
  ModelFactory make_model;
  /// The example's run; its program's --stop, --rtol and --output-interval change a copy.
  SimulationOptions options;
  /// The columns references/<name>.csv keeps.
  std::vector<std::string> reference_signals;
  /// Counts and flags of the reference run that differ from the parameters' defaults.
  ParameterValues reference_parameters;
  /// rel_tol of the reference run when it cannot be kReferenceRelTol (reference_run.hpp):
  /// set where IDA cannot reach that tolerance on the example, with the reason beside it.
  double reference_rel_tol = 0.0;
  KeyNumbers key_numbers;
  /// The run of a model that steps itself (an imported Co-Simulation FMU); empty: the
  /// Simulator runs the model.
  std::function<SimulationResult(SimulationModel&, const SimulationOptions&)> run;
};

/// hdae-<name> with '-' for '_'.
[[nodiscard]] std::string program_name(const Example& example);

/// Every count at its default, every flag off.
[[nodiscard]] ParameterValues default_parameters(const Example& example);

/// The defaults with the reference run's counts and flags put in.
[[nodiscard]] ParameterValues reference_parameters(const Example& example);

/// The arguments after the output path with which hdae-<name> runs as the reference run:
/// the counts up to the last one that differs from its default, then the flags that are on
/// ({"20"} for the chain, {} for most).
[[nodiscard]] std::vector<std::string> reference_arguments(const Example& example);

}  // namespace hdae::examples
