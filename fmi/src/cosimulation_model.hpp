// An imported FMI 3.0 Co-Simulation FMU (hdae/fmi.hpp, Fmu::co_simulate): a Model that
// declares the FMU's parameters and inputs, so that they are set like any model's, and runs by
// stepping the FMU with fmi3DoStep from one output time to the next. It has no unknowns: the
// FMU integrates itself, and the Simulator cannot run it. The run records the columns and rows
// the options select as a Simulator's run would (hdae/record_selection.hpp), and an event log
// of the events the FMU reports from inside its steps.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "archive.hpp"
#include "cosimulation_instance.hpp"
#include "hdae/fmi.hpp"
#include "model_description.hpp"
#include "shared_library.hpp"

namespace hdae::fmi::detail {

/// An output point of a run: its number k >= 1 on the run's grid (which record_every counts)
/// and its time.
struct OutputPoint {
  std::size_t k = 0;
  double t = 0.0;
};

class CoSimulationModel final : public Fmu {
 public:
  CoSimulationModel(UnpackDirectory directory, std::unique_ptr<SharedLibrary> library,
                    ModelDescription description, const LoadOptions& options);

  [[nodiscard]] const FmuInfo& info() const override { return description_.info; }
  [[nodiscard]] std::vector<std::string> messages() const override { return log_.messages(); }
  /// ModelError: the FMU steps itself (co_simulate); no solver of hdae integrates it.
  void evaluate(Evaluation& e) override;
  [[nodiscard]] SimulationResult co_simulate(const SimulationOptions& options) override;

 private:
  /// A run's recorded variables, a row's values, and the last output row left out by the row
  /// selection, which becomes the run's last row when the run ends before a later one.
  struct Recording {
    std::vector<ScalarVariable> variables;  ///< in the order of the result's columns
    std::vector<double> values;
    std::vector<double> held;
    double held_t = 0.0;
    bool holding = false;
  };

  /// Every column a run can record: states, derivatives, then outputs that are neither.
  [[nodiscard]] std::vector<ColumnInfo> columns() const;
  /// The columns options select (OptionError as a Simulator's run), with recording_ set up.
  [[nodiscard]] std::vector<ColumnInfo> select(const SimulationOptions& options);
  /// Reset, parameters and inputs, and initialization at options.start_s.
  void start(const SimulationOptions& options);
  /// Appends the FMU's values at t to result's table.
  void record(double t, SimulationResult& result);
  /// Reads the FMU's values at t and keeps them in case the run ends before another row.
  void hold(double t);
  /// Appends the held row, if any: the run ended without a later row.
  void record_held(SimulationResult& result);
  /// Steps to each output point in turn; the status says where it ended.
  void step_through(const std::vector<OutputPoint>& points, const SimulationOptions& options,
                    SimulationResult& result);
  /// fmi3DoStep from t to target, again from where the FMU stopped after each early return,
  /// each such event recorded in result's event log.
  [[nodiscard]] StepOutcome step_to(double t, double target, SimulationResult& result);
  /// The record of the FMU's request to terminate at t, and the status that says so.
  void stop_by_model(double t, SimulationResult& result);

  // Member order is destruction order in reverse: the instance goes before the library that
  // holds its code, which goes before the directory its file lies in.
  UnpackDirectory directory_;
  std::unique_ptr<SharedLibrary> library_;
  ModelDescription description_;
  FmuLog log_;
  std::unique_ptr<CoSimulationInstance> instance_;
  std::vector<ScalarVariable> settable_;    ///< parameters, then inputs
  std::vector<ScalarVariable> recordable_;  ///< in the order of columns()
  std::vector<Param> parameters_;
  Recording recording_;  ///< the current run's
};

}  // namespace hdae::fmi::detail
