// One bundled example as data: what the registry (registry.hpp) holds per example. From an
// entry the build derives the program hdae-<name> (examples/program/), its ctest against
// references/<name>.csv, the reference generator's run (tools/make_references/), the
// in-process regression test (tests/compare/test_regression.cpp) and scripts/run.sh's list.
// The model comes from hdae::models; an entry only says how to build it, how to run it and
// which of its numbers matter.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "hdae/model.hpp"
#include "hdae/options.hpp"
#include "hdae/result.hpp"

namespace hdae::examples {

enum class ParameterKind {
  kCount,  ///< a positive integer, given as a positional argument after the output path
  kFlag,   ///< off unless the option --<name> is given
};

/// A model parameter that an example program takes from its command line.
struct ExampleParameter {
  ParameterKind kind = ParameterKind::kCount;
  /// kCount: the positional argument's name in --help; kFlag: the option --<name>.
  std::string name;
  /// One line for --help: what it sets.
  std::string help;
  /// kCount: the value when the command line gives none; >= 1. Unused for kFlag.
  std::size_t default_count = 1;
};

/// Values of an example's parameters, by name: every count, and the flags that are on.
struct ParameterValues {
  std::map<std::string, std::size_t, std::less<>> counts;
  std::set<std::string, std::less<>> flags;

  /// The count called name; throws std::out_of_range naming it when there is none.
  [[nodiscard]] std::size_t count(std::string_view name) const;
  [[nodiscard]] bool flag(std::string_view name) const { return flags.contains(name); }
};

/// Builds an example's model from its parameter values.
using ModelFactory = std::function<std::unique_ptr<SimulationModel>(const ParameterValues&)>;

/// The key numbers printed after a run, one line without its '\n'; called with the model the
/// run used (after the run, so a model's own counters can be read) when the result has rows.
using KeyNumbers = std::function<std::string(const SimulationModel&, const SimulationResult&)>;

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

/// key_numbers for an example whose key numbers need its model's own type (a counter or a
/// mode of the model): f is called as f(const ConcreteModel&, const SimulationResult&).
template <typename ConcreteModel, typename F>
KeyNumbers key_numbers_of(F f) {
  return [f](const SimulationModel& model, const SimulationResult& result) {
    return f(dynamic_cast<const ConcreteModel&>(model), result);
  };
}

}  // namespace hdae::examples
