// One instance of an FMI 3.0 Co-Simulation FMU: the calls the run of a Co-Simulation FMU makes
// (cosimulation_model.hpp), each checked, with the FMU's messages kept in an FmuLog. Events are
// the FMU's own business: the instance is made without Event Mode, so the FMU handles them
// inside its steps; it may return early at one (earlyReturnAllowed), which lets the run record
// when it happened.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>

#include "fmu_instance.hpp"
#include "model_description.hpp"
#include "shared_library.hpp"

namespace hdae::fmi::detail {

/// What fmi3DoStep reports besides its status.
struct StepOutcome {
  bool terminate = false;              ///< the FMU asks to end the simulation
  bool early_return = false;           ///< the step ended before its end, at an event
  bool event_handling_needed = false;  ///< the FMU met an event at last_successful_time
  double last_successful_time{};       ///< where the FMU stands after the step
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
  /// fmi3DoStep from t over h.
  [[nodiscard]] StepOutcome do_step(double t, double h);
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
  double time_ = 0.0;         ///< the time of the last call, for messages
  bool initialized_ = false;  ///< Reset is needed before the next initialization
  bool fatal_ = false;        ///< the FMU reported Fatal: no call after but FreeInstance
};

}  // namespace hdae::fmi::detail
