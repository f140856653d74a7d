// One instance of an exported Co-Simulation FMU (fmu_export/runtime/): the model, the
// hdae::Simulator that runs it and the FMI 3.0 state machine around them. The C functions
// (fmi3_*.cpp) check their arguments' pointers, call one member and turn every exception into
// fmi3Error with a logger message; the members throw std::exception with messages that name
// the variable, value reference or time at fault.
//
// The Simulator is made at fmi3ExitInitializationMode, because hdae takes parameter values
// and the stop time when a run starts (SimulationModel::set_parameter refuses during a run):
// parameters are therefore "fixed" in the description, settable until then. fmi3DoStep is
// Simulator::advance_to, which handles every event inside the step, jumps included; when the
// importer allows early return, Simulator::advance_to_event, which ends the step at the first
// event instant in it (after its jumps), so the importer sees the event's time.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "fmi3_api.h"
#include "fmu_logger.hpp"
#include "fmu_model_source.hpp"
#include "hdae/simulator.hpp"
#include "variable_layout.hpp"

namespace hdae::fmu_export {

/// What fmi3DoStep reports besides its status.
struct StepReport {
  bool terminate = false;      ///< the model ended the run (Outcome::kStoppedByModel)
  bool early_return = false;   ///< the step ended at an event before its end
  double last_successful = 0;  ///< the time reached
};

class FmuInstance {
 public:
  /// early_return_allowed: fmi3InstantiateCoSimulation's earlyReturnAllowed.
  FmuInstance(FmuModel made, FmuLogger logger, bool early_return_allowed);
  ~FmuInstance();
  FmuInstance(const FmuInstance&) = delete;
  FmuInstance& operator=(const FmuInstance&) = delete;

  [[nodiscard]] FmuLogger& logger() { return logger_; }
  [[nodiscard]] const ModelStructure& structure() const { return model_->structure(); }

  void enter_initialization(std::optional<double> tolerance, double start_s,
                            std::optional<double> stop_s);
  void exit_initialization();
  StepReport do_step(double current, double step);
  void terminate();
  /// Back to the state after instantiation: no run, the parameters as exported.
  void reset();

  void get_float64(std::span<const fmi3ValueReference> vrs, std::span<fmi3Float64> values);
  void set_float64(std::span<const fmi3ValueReference> vrs, std::span<const fmi3Float64> values);

 private:
  enum class Phase { kInstantiated, kInitialization, kStep, kTerminated, kFailed };

  [[nodiscard]] LayoutEntry entry(fmi3ValueReference vr) const;
  [[nodiscard]] double value(const LayoutEntry& e);
  /// w at the current point, evaluated once per point.
  [[nodiscard]] const std::vector<double>& outputs();
  [[nodiscard]] SimulationOptions run_options() const;
  void report_events();
  void require(bool allowed, const char* function) const;

  FmuLogger logger_;
  std::unique_ptr<SimulationModel> model_;
  SimulationOptions defaults_;
  VariableLayout layout_;
  std::vector<double> exported_parameters_;
  bool early_return_allowed_;
  Phase phase_ = Phase::kInstantiated;
  std::optional<double> tolerance_;
  double start_s_ = 0.0;
  std::optional<double> stop_s_;
  std::unique_ptr<Simulator> simulator_;
  std::vector<double> outputs_;
  bool outputs_current_ = false;
  std::size_t events_reported_ = 0;
};

}  // namespace hdae::fmu_export
