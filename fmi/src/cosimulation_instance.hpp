// One instance of an FMI 3.0 Co-Simulation FMU: the calls the run of a Co-Simulation FMU makes
// (cosimulation_model.hpp), each checked, with the FMU's messages kept in an FmuLog. An FMU
// that declares hasEventMode is made with Event Mode (eventModeUsed): it returns from a step at
// an event with eventHandlingNeeded, and the run calls its discrete-state updates. Any other
// handles its events inside its steps; it may return early at one (earlyReturnAllowed), which
// lets the run record when it happened.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "fmu_instance.hpp"
#include "model_description.hpp"
#include "shared_library.hpp"

namespace hdae::fmi::detail {

/// The times a run cannot tell apart near a and b, as the Simulator's resolution
/// (SimulationOptions::stop_s): 1000 u max(|a|, |b|, 1), u the unit round-off.
[[nodiscard]] inline double time_resolution(double a, double b) {
  return 1000.0 * std::numeric_limits<double>::epsilon() *
         std::max({std::abs(a), std::abs(b), 1.0});
}

/// What fmi3DoStep reports besides its status.
struct StepOutcome {
  bool terminate = false;              ///< the FMU asks to end the simulation
  bool early_return = false;           ///< the step ended before its end, at an event
  bool event_handling_needed = false;  ///< the FMU met an event at last_successful_time
  double last_successful_time{};       ///< where the FMU stands after the step, in [t, t + h]
  /// The function that asked to terminate: fmi3DoStep, or the updates of Event Mode after it.
  const char* terminated_by = "fmi3DoStep";
};

class CoSimulationInstance {
 public:
  /// FmuError naming the FMU when fmi3InstantiateCoSimulation returns no instance, IoError when
  /// the binary lacks a function.
  CoSimulationInstance(const SharedLibrary& library, const ModelDescription& description,
                       const InstanceSettings& settings);
  ~CoSimulationInstance();
  CoSimulationInstance(const CoSimulationInstance&) = delete;
  CoSimulationInstance& operator=(const CoSimulationInstance&) = delete;

  /// Back to the state after instantiation (fmi3Reset), when the instance has been initialized.
  void reset();
  /// Initialization Mode at start_s (with the stop time) and out of it, into Step Mode.
  void initialize(double start_s, double stop_s, std::optional<double> tolerance);
  /// fmi3DoStep from t over h; FmuError for a lastSuccessfulTime outside [t, t + h] (beyond
  /// round-off).
  [[nodiscard]] StepOutcome do_step(double t, double h);
  /// The FMU hands its events to the run (it declares hasEventMode): a step that ends with
  /// eventHandlingNeeded is followed by Event Mode (event_mode).
  [[nodiscard]] bool event_mode_used() const { return event_mode_used_; }
  /// Event Mode at t: fmi3EnterEventMode, fmi3UpdateDiscreteStates until the FMU asks for no
  /// more (FmuError after kMaxUpdates), and fmi3EnterStepMode unless the FMU asks to
  /// terminate. Whether it does.
  [[nodiscard]] bool event_mode(double t);
  void get_reals(std::span<const ScalarVariable> variables, std::span<double> values);
  void set_reals(std::span<const ScalarVariable> variables, std::span<const double> values);
  [[nodiscard]] const std::string& fmu_name() const { return fmu_name_; }

 private:
  struct Functions;
  /// Nothing for OK and Warning; FmuError naming the FMU, the function, the time, the
  /// variables (when given) and the FMU's last message otherwise (Discard included: a
  /// communication step is not retried).
  void check(int status, const char* function, const std::string& variables = {});

  std::unique_ptr<Functions> f_;
  std::string fmu_name_;
  FmuLog& log_;
  void* instance_ = nullptr;
  double time_ = 0.0;  ///< the time of the last call, for messages
  bool event_mode_used_ = false;
  bool initialized_ = false;  ///< Reset is needed before the next initialization
  bool fatal_ = false;        ///< the FMU reported Fatal: no call after but FreeInstance
};

}  // namespace hdae::fmi::detail
