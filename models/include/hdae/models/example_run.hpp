// The example of a bundled model (catalog.hpp): every entry of the catalog is also the example
// program hdae-<name> (examples/), and ExampleRun says what that program runs, what its
// reference file references/<name>.csv keeps and which numbers it prints after a run. The
// programs, their ctests against the references, the reference generator and the regression
// tests are all made from these fields; nothing else lists the examples.
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

namespace hdae::models {

enum class ParameterKind {
  kCount,  ///< a positive integer, given as a positional argument after the output path
  kFlag,   ///< off unless the option `--<name>` is given
};

/// A model parameter that an example program takes from its command line.
struct ExampleParameter {
  ParameterKind kind = ParameterKind::kCount;
  /// kCount: the positional argument's name in --help; kFlag: the option `--<name>`.
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

/// What the example program of a catalog entry runs. Only options and reference_signals are
/// needed; the other fields have defaults that suit a model without command-line parameters.
struct ExampleRun {
  /// The example's run; its program's --stop, --rtol and --output-interval change a copy.
  SimulationOptions options;
  /// The columns `references/<name>.csv` keeps.
  std::vector<std::string> reference_signals;
  /// KeyNumbers; empty: the final values of the reference signals.
  KeyNumbers key_numbers;
  /// One line for --help: the model, its parameters and what to look at; empty: the entry's
  /// description.
  std::string description;
  /// The command-line parameters of the model (most examples have none).
  std::vector<ExampleParameter> parameters;
  /// Builds the model from the parameters' values; empty: the entry's make() with each count
  /// (and each flag that is on, as 1) set as the model parameter of its name.
  ModelFactory make_model;
  /// Counts and flags of the reference run that differ from the parameters' defaults.
  ParameterValues reference_parameters;
  /// rel_tol of the reference run when it cannot be the reference tolerance (1e-10,
  /// examples/registry/reference_run.hpp): set where IDA cannot reach that tolerance on the
  /// example, with the reason beside it.
  double reference_rel_tol = 0.0;
};

/// stop_s and rel_tol 1e-8 (the examples' accuracy), the default output grid of 500 intervals.
[[nodiscard]] SimulationOptions run_to(double stop_s);

/// run_to with rows at IDA's steps (no interpolation), so that the constraints of a reduced
/// model and their hidden derivatives hold on every row to the Newton tolerance.
[[nodiscard]] SimulationOptions run_to_at_steps(double stop_s);

/// key_numbers for an example whose key numbers need its model's own type (a counter or a
/// mode of the model): f is called as f(const ConcreteModel&, const SimulationResult&).
template <typename ConcreteModel, typename F>
KeyNumbers key_numbers_of(F f) {
  return [f](const SimulationModel& model, const SimulationResult& result) {
    return f(dynamic_cast<const ConcreteModel&>(model), result);
  };
}

}  // namespace hdae::models
