// CoSimulationInstance (cosimulation_instance.hpp) in the calls of FMI 3.0 Co-Simulation
// (fmi3_api.h; FMI 3.0 specification, chapter 4).
#include "cosimulation_instance.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "fmi3_api.h"
#include "hdae/errors.hpp"

namespace hdae::fmi::detail {

/// The functions of the binary the run calls.
struct CoSimulationInstance::Functions {
  fmi3InstantiateCoSimulationFn* instantiate = nullptr;
  fmi3FreeInstanceFn* free_instance = nullptr;
  fmi3EnterInitializationModeFn* enter_initialization_mode = nullptr;
  fmi3InstanceFn* exit_initialization_mode = nullptr;
  fmi3InstanceFn* reset = nullptr;
  fmi3DoStepFn* do_step = nullptr;
  fmi3GetFloat64Fn* get_float64 = nullptr;
  fmi3SetFloat64Fn* set_float64 = nullptr;
  // Event Mode, for an FMU that declares hasEventMode only.
  fmi3InstanceFn* enter_event_mode = nullptr;
  fmi3UpdateDiscreteStatesFn* update_discrete_states = nullptr;
  fmi3InstanceFn* enter_step_mode = nullptr;
};

namespace {

/// Discrete-state updates at one instant before the FMU is taken to loop, as in a Model
/// Exchange run (fmu_events.cpp).
constexpr int kMaxUpdates = 1000;

void log_message(fmi3InstanceEnvironment environment, fmi3Status status, fmi3String category,
                 fmi3String message) {
  static_cast<FmuLog*>(environment)->add(static_cast<CallStatus>(status), category, message);
}

std::vector<fmi3ValueReference> references(std::span<const ScalarVariable> variables) {
  std::vector<fmi3ValueReference> vr;
  vr.reserve(variables.size());
  for (const ScalarVariable& v : variables) vr.push_back(v.value_reference);
  return vr;
}

}  // namespace

CoSimulationInstance::CoSimulationInstance(const SharedLibrary& library,
                                           const ModelDescription& description,
                                           const InstanceSettings& settings)
    : f_(std::make_unique<Functions>()), fmu_name_(settings.fmu_name), log_(*settings.log) {
  f_->instantiate = library.function<fmi3InstantiateCoSimulationFn>("fmi3InstantiateCoSimulation");
  f_->free_instance = library.function<fmi3FreeInstanceFn>("fmi3FreeInstance");
  f_->enter_initialization_mode =
      library.function<fmi3EnterInitializationModeFn>("fmi3EnterInitializationMode");
  f_->exit_initialization_mode = library.function<fmi3InstanceFn>("fmi3ExitInitializationMode");
  f_->reset = library.function<fmi3InstanceFn>("fmi3Reset");
  f_->do_step = library.function<fmi3DoStepFn>("fmi3DoStep");
  f_->get_float64 = library.function<fmi3GetFloat64Fn>("fmi3GetFloat64");
  f_->set_float64 = library.function<fmi3SetFloat64Fn>("fmi3SetFloat64");
  event_mode_used_ = description.has_event_mode;
  if (event_mode_used_) {
    f_->enter_event_mode = library.function<fmi3InstanceFn>("fmi3EnterEventMode");
    f_->update_discrete_states =
        library.function<fmi3UpdateDiscreteStatesFn>("fmi3UpdateDiscreteStates");
    f_->enter_step_mode = library.function<fmi3InstanceFn>("fmi3EnterStepMode");
  }
  // FMI 3.0 wants the resources as a path that ends in a separator.
  const std::string resources = settings.resources.string() + "/";
  // Without Event Mode the FMU handles its events inside fmi3DoStep; early return (for an FMU
  // that declares mightReturnEarlyFromDoStep) ends a step at an event, so that the run learns
  // its time. With it the FMU ends its step at the event and the run handles it. No
  // intermediate update callback: an early return is an event's.
  const bool early_return_allowed = true;
  instance_ = f_->instantiate(description.info.model_identifier.c_str(),
                              description.instantiation_token.c_str(), resources.c_str(), false,
                              settings.debug_logging, event_mode_used_, early_return_allowed,
                              nullptr, 0, settings.log, &log_message, nullptr);
  if (instance_ == nullptr) {
    throw FmuError(
        fmt::format("FMU '{}': fmi3InstantiateCoSimulation failed (returned no instance); the "
                    "FMU's last message: {}",
                    fmu_name_, log_.last()));
  }
}

CoSimulationInstance::~CoSimulationInstance() {
  if (!fatal_) f_->free_instance(instance_);
}

void CoSimulationInstance::check(int status, const char* function, const std::string& variables) {
  const auto s = static_cast<CallStatus>(status);
  if (s == CallStatus::kOk || s == CallStatus::kWarning) return;
  std::string message = fmt::format("FMU '{}': {} returned fmi3{} at t = {}", fmu_name_, function,
                                    to_string(s), time_);
  if (!variables.empty()) message += fmt::format(" (variables: {})", variables);
  if (const std::string last = log_.last(); !last.empty()) {
    message += fmt::format("; the FMU's last message: {}", last);
  }
  if (s == CallStatus::kFatal) fatal_ = true;
  throw FmuError(message);
}

void CoSimulationInstance::reset() {
  if (!initialized_) return;
  // After Fatal the instance may not be called; a new load() makes a new one.
  if (fatal_)
    throw FmuError(fmt::format("FMU '{}' reported Fatal before: load it anew", fmu_name_));
  check(f_->reset(instance_), "fmi3Reset");
  initialized_ = false;
}

void CoSimulationInstance::initialize(double start_s, double stop_s,
                                      std::optional<double> tolerance) {
  time_ = start_s;
  initialized_ = true;
  check(f_->enter_initialization_mode(instance_, tolerance.has_value(), tolerance.value_or(0.0),
                                      start_s, true, stop_s),
        "fmi3EnterInitializationMode");
  check(f_->exit_initialization_mode(instance_), "fmi3ExitInitializationMode");
}

StepOutcome CoSimulationInstance::do_step(double t, double h) {
  time_ = t;
  fmi3Boolean event_handling_needed = false, terminate = false, early_return = false;
  fmi3Float64 last = t;
  check(
      f_->do_step(instance_, t, h, true, &event_handling_needed, &terminate, &early_return, &last),
      "fmi3DoStep");
  // The next step starts where this one ended: a time outside the step would send the run
  // back in time or past the step it asked for. Round-off of the FMU's own sum of substeps
  // is forgiven.
  const double slack = time_resolution(t, t + h);
  if (!(last >= t - slack && last <= t + h + slack)) {
    throw FmuError(fmt::format(
        "FMU '{}': fmi3DoStep from t = {} over h = {} returned lastSuccessfulTime = {}, outside "
        "the step [t, t + h]",
        fmu_name_, t, h, last));
  }
  last = std::clamp(last, t, t + h);
  time_ = last;
  return {.terminate = terminate,
          .early_return = early_return,
          .event_handling_needed = event_handling_needed,
          .last_successful_time = last};
}

bool CoSimulationInstance::event_mode(double t) {
  time_ = t;
  check(f_->enter_event_mode(instance_), "fmi3EnterEventMode");
  for (int updates = 1; updates <= kMaxUpdates; ++updates) {
    fmi3Boolean needs_update = false, terminate = false, nominals_changed = false,
                values_changed = false, next_event_defined = false;
    fmi3Float64 next_event = 0.0;
    check(f_->update_discrete_states(instance_, &needs_update, &terminate, &nominals_changed,
                                     &values_changed, &next_event_defined, &next_event),
          "fmi3UpdateDiscreteStates");
    if (terminate) return true;
    if (!needs_update) {
      check(f_->enter_step_mode(instance_), "fmi3EnterStepMode");
      return false;
    }
  }
  throw FmuError(
      fmt::format("FMU '{}': fmi3UpdateDiscreteStates asked for another update {} "
                  "times at t = {}",
                  fmu_name_, kMaxUpdates, t));
}

void CoSimulationInstance::get_reals(std::span<const ScalarVariable> variables,
                                     std::span<double> values) {
  if (variables.empty()) return;
  const std::vector<fmi3ValueReference> vr = references(variables);
  check(f_->get_float64(instance_, vr.data(), vr.size(), values.data(), values.size()),
        "fmi3GetFloat64", FmuInstance::names_of(variables));
}

void CoSimulationInstance::set_reals(std::span<const ScalarVariable> variables,
                                     std::span<const double> values) {
  if (variables.empty()) return;
  const std::vector<fmi3ValueReference> vr = references(variables);
  check(f_->set_float64(instance_, vr.data(), vr.size(), values.data(), values.size()),
        "fmi3SetFloat64", FmuInstance::names_of(variables));
}

}  // namespace hdae::fmi::detail
