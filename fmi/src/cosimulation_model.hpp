// An imported FMI 3.0 Co-Simulation FMU (hdae/fmi.hpp, Fmu::co_simulate): a Model that
// declares the FMU's parameters and inputs, so that they are set like any model's, and runs by
// stepping the FMU with fmi3DoStep from one output time to the next. It has no unknowns: the
// FMU integrates itself, and the Simulator cannot run it. The run records the columns and rows
// the options select as a Simulator's run would (hdae/record_selection.hpp), to the sinks a
// Simulator's run would (cosimulation_recorder.hpp), with an event log of the events the FMU
// reports from inside its steps.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <vector>

#include "archive.hpp"
#include "cosimulation_instance.hpp"
#include "cosimulation_recorder.hpp"
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
  [[nodiscard]] SimulationResult co_simulate(const SimulationOptions& options,
                                             const RunListeners& listeners = {}) override;

 private:
  /// What one run works with: its options, its result, where its rows go and when it began.
  struct Run {
    const SimulationOptions& options;
    SimulationResult& result;
    CoSimulationRecorder& recorder;
    std::chrono::steady_clock::time_point began;
  };

  /// Every column a run can record: states, derivatives, then outputs that are neither.
  [[nodiscard]] std::vector<ColumnInfo> columns() const;
  /// The columns options select (OptionError as a Simulator's run), with recorded_ and
  /// values_ set up for them.
  [[nodiscard]] std::vector<ColumnInfo> select(const SimulationOptions& options);
  /// Reset, parameters and inputs, and initialization at options.start_s.
  void start(const SimulationOptions& options);
  /// Records the FMU's values at t as a row.
  void record(double t, Run& run);
  /// Reads the FMU's values at t and keeps them in case the run ends before another row.
  void hold(double t, Run& run);
  /// Records the held row, if any: the run ended without a later row.
  static void record_held(Run& run);
  /// Steps to each output point in turn; the status says where it ended.
  void step_through(const std::vector<OutputPoint>& points, Run& run);
  /// True, with the status set, when options.cancel is set or options.max_wall_time_s has
  /// passed: the run ends at t, its last communication point.
  [[nodiscard]] static bool stopped_from_outside(double t, Run& run);
  /// fmi3DoStep from t to target, again from where the FMU stopped after each early return,
  /// each such event recorded in the run's event log, and Event Mode after a step that ends
  /// with eventHandlingNeeded when the FMU hands its events to the run (event_mode_used);
  /// FmuError when the FMU returns early kMaxReturnsAtOneInstant times in a row without
  /// advancing.
  [[nodiscard]] StepOutcome step_to(double t, double target, Run& run);
  /// The event an early return (or eventHandlingNeeded) reports, in the run's event log.
  void record_event(const StepOutcome& step, Run& run);
  /// The record of the FMU's request to terminate at t from function, and the status that
  /// says so.
  void stop_by_model(double t, const char* function, Run& run);
  /// The run from start to end, its failures left to co_simulate.
  void run_through(Run& run);

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
  std::vector<ScalarVariable> recorded_;  ///< the current run's columns, in their order
  std::vector<double> values_;            ///< a row of them
};

}  // namespace hdae::fmi::detail
