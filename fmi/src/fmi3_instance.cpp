// FmuInstance in the calls of FMI 3.0 Model Exchange (fmi3_api.h; FMI 3.0 specification,
// sections 2.3 and 3.2).
#include <vector>

#include <fmt/format.h>

#include "fmi3_api.h"
#include "fmu_instance.hpp"
#include "hdae/errors.hpp"

namespace hdae::fmi::detail {
namespace {

/// The functions of the binary the adapter calls.
struct Fmi3Functions {
  fmi3InstantiateModelExchangeFn* instantiate = nullptr;
  fmi3FreeInstanceFn* free_instance = nullptr;
  fmi3EnterInitializationModeFn* enter_initialization_mode = nullptr;
  fmi3InstanceFn* exit_initialization_mode = nullptr;
  fmi3InstanceFn* enter_event_mode = nullptr;
  fmi3InstanceFn* enter_continuous_time_mode = nullptr;
  fmi3InstanceFn* reset = nullptr;
  fmi3UpdateDiscreteStatesFn* update_discrete_states = nullptr;
  fmi3CompletedIntegratorStepFn* completed_integrator_step = nullptr;
  fmi3SetTimeFn* set_time = nullptr;
  fmi3SetContinuousStatesFn* set_states = nullptr;
  fmi3GetArrayFn* get_states = nullptr;
  fmi3GetArrayFn* get_derivatives = nullptr;
  fmi3GetArrayFn* get_event_indicators = nullptr;
  fmi3GetFloat64Fn* get_float64 = nullptr;
  fmi3SetFloat64Fn* set_float64 = nullptr;
  // Needed only to switch on DAE mode (fmi-ls-dae), so optional.
  fmi3InstanceFn* enter_configuration_mode = nullptr;
  fmi3InstanceFn* exit_configuration_mode = nullptr;
  fmi3SetBooleanFn* set_boolean = nullptr;
  // Resolved when the description provides directional derivatives.
  fmi3GetDerivativeFn* directional_derivative = nullptr;
};

Fmi3Functions resolve(const SharedLibrary& library, const ModelDescription& description) {
  Fmi3Functions f;
  f.instantiate = library.function<fmi3InstantiateModelExchangeFn>("fmi3InstantiateModelExchange");
  f.free_instance = library.function<fmi3FreeInstanceFn>("fmi3FreeInstance");
  f.enter_initialization_mode =
      library.function<fmi3EnterInitializationModeFn>("fmi3EnterInitializationMode");
  f.exit_initialization_mode = library.function<fmi3InstanceFn>("fmi3ExitInitializationMode");
  f.enter_event_mode = library.function<fmi3InstanceFn>("fmi3EnterEventMode");
  f.enter_continuous_time_mode = library.function<fmi3InstanceFn>("fmi3EnterContinuousTimeMode");
  f.reset = library.function<fmi3InstanceFn>("fmi3Reset");
  f.update_discrete_states =
      library.function<fmi3UpdateDiscreteStatesFn>("fmi3UpdateDiscreteStates");
  f.completed_integrator_step =
      library.function<fmi3CompletedIntegratorStepFn>("fmi3CompletedIntegratorStep");
  f.set_time = library.function<fmi3SetTimeFn>("fmi3SetTime");
  f.set_states = library.function<fmi3SetContinuousStatesFn>("fmi3SetContinuousStates");
  f.get_states = library.function<fmi3GetArrayFn>("fmi3GetContinuousStates");
  f.get_derivatives = library.function<fmi3GetArrayFn>("fmi3GetContinuousStateDerivatives");
  f.get_event_indicators = library.function<fmi3GetArrayFn>("fmi3GetEventIndicators");
  f.get_float64 = library.function<fmi3GetFloat64Fn>("fmi3GetFloat64");
  f.set_float64 = library.function<fmi3SetFloat64Fn>("fmi3SetFloat64");
  f.enter_configuration_mode =
      library.optional_function<fmi3InstanceFn>("fmi3EnterConfigurationMode");
  f.exit_configuration_mode =
      library.optional_function<fmi3InstanceFn>("fmi3ExitConfigurationMode");
  f.set_boolean = library.optional_function<fmi3SetBooleanFn>("fmi3SetBoolean");
  if (description.info.provides_directional_derivatives) {
    f.directional_derivative =
        library.function<fmi3GetDerivativeFn>("fmi3GetDirectionalDerivative");
  }
  return f;
}

CallStatus status_of(fmi3Status s) { return static_cast<CallStatus>(s); }

void log_message(fmi3InstanceEnvironment environment, fmi3Status status, fmi3String category,
                 fmi3String message) {
  static_cast<FmuLog*>(environment)->add(status_of(status), category, message);
}

std::vector<fmi3ValueReference> references(std::span<const ScalarVariable> variables) {
  std::vector<fmi3ValueReference> vr;
  vr.reserve(variables.size());
  for (const ScalarVariable& v : variables) vr.push_back(v.value_reference);
  return vr;
}

class Fmi3Instance final : public FmuInstance {
 public:
  Fmi3Instance(const SharedLibrary& library, const ModelDescription& description,
               const InstanceSettings& settings)
      : FmuInstance(description, settings), f_(resolve(library, description)) {
    // FMI 3.0 wants the resources as a path that ends in a separator.
    const std::string resources = settings.resources.string() + "/";
    instance_ = f_.instantiate(description.info.model_identifier.c_str(),
                               description.instantiation_token.c_str(), resources.c_str(), false,
                               settings.debug_logging, settings.log, &log_message);
    if (instance_ == nullptr) {
      throw FmuError(
          fmt::format("FMU '{}': fmi3InstantiateModelExchange failed (returned no "
                      "instance); the FMU's last message: {}",
                      fmu_name(), settings.log->last()));
    }
  }
  ~Fmi3Instance() override {
    if (alive()) f_.free_instance(instance_);
  }
  Fmi3Instance(const Fmi3Instance&) = delete;
  Fmi3Instance& operator=(const Fmi3Instance&) = delete;

  void reset() override {
    require_alive("fmi3Reset");
    if (initialized_) check(status_of(f_.reset(instance_)), "fmi3Reset");
    initialized_ = false;
    time_ = 0.0;
  }
  void enable_dae_mode(const ScalarVariable& parameter) override {
    require_alive("fmi3EnterConfigurationMode");
    if (f_.enter_configuration_mode == nullptr || f_.exit_configuration_mode == nullptr ||
        f_.set_boolean == nullptr) {
      throw FmuError(fmt::format(
          "FMU '{}' follows fmi-ls-dae but does not export fmi3EnterConfigurationMode, "
          "fmi3SetBoolean and fmi3ExitConfigurationMode, which set its DAE mode parameter {}",
          fmu_name(), parameter.name));
    }
    const fmi3ValueReference vr = parameter.value_reference;
    const fmi3Boolean on = true;
    check(status_of(f_.enter_configuration_mode(instance_)), "fmi3EnterConfigurationMode");
    check(status_of(f_.set_boolean(instance_, &vr, 1, &on, 1)), "fmi3SetBoolean", parameter.name);
    check(status_of(f_.exit_configuration_mode(instance_)), "fmi3ExitConfigurationMode");
  }
  void initialize(double start_s, std::optional<double> tolerance) override {
    require_alive("fmi3EnterInitializationMode");
    time_ = start_s;
    initialized_ = true;
    check(status_of(f_.enter_initialization_mode(instance_, tolerance.has_value(),
                                                 tolerance.value_or(0.0), start_s, false, 0.0)),
          "fmi3EnterInitializationMode");
    check(status_of(f_.exit_initialization_mode(instance_)), "fmi3ExitInitializationMode");
  }
  void enter_event_mode() override {
    check(status_of(f_.enter_event_mode(instance_)), "fmi3EnterEventMode");
  }
  DiscreteUpdate update_discrete_states() override {
    fmi3Boolean needs = false, terminate = false, nominals = false, values = false;
    fmi3Boolean defined = false;
    fmi3Float64 next = 0.0;
    check(status_of(f_.update_discrete_states(instance_, &needs, &terminate, &nominals, &values,
                                              &defined, &next)),
          "fmi3UpdateDiscreteStates");
    return {needs, terminate, nominals, values,
            defined ? std::optional<double>(next) : std::nullopt};
  }
  void enter_continuous_time_mode() override {
    check(status_of(f_.enter_continuous_time_mode(instance_)), "fmi3EnterContinuousTimeMode");
  }
  StepReport completed_integrator_step() override {
    fmi3Boolean enter = false, terminate = false;
    check(status_of(f_.completed_integrator_step(instance_, true, &enter, &terminate)),
          "fmi3CompletedIntegratorStep");
    return {enter, terminate};
  }
  void set_time(double t) override {
    time_ = t;
    check(status_of(f_.set_time(instance_, t)), "fmi3SetTime");
  }
  void set_states(std::span<const double> x) override {
    check(status_of(f_.set_states(instance_, x.data(), x.size())), "fmi3SetContinuousStates",
          state_names());
  }
  void get_states(std::span<double> x) override {
    check(status_of(f_.get_states(instance_, x.data(), x.size())), "fmi3GetContinuousStates",
          state_names());
  }
  void get_derivatives(std::span<double> der_x) override {
    check(status_of(f_.get_derivatives(instance_, der_x.data(), der_x.size())),
          "fmi3GetContinuousStateDerivatives", derivative_names());
  }
  void get_event_indicators(std::span<double> z) override {
    check(status_of(f_.get_event_indicators(instance_, z.data(), z.size())),
          "fmi3GetEventIndicators", indicator_names());
  }
  void get_reals(std::span<const ScalarVariable> variables, std::span<double> values) override {
    if (variables.empty()) return;
    const std::vector<fmi3ValueReference> vr = references(variables);
    check(status_of(f_.get_float64(instance_, vr.data(), vr.size(), values.data(), values.size())),
          "fmi3GetFloat64", names_of(variables));
  }
  void set_reals(std::span<const ScalarVariable> variables,
                 std::span<const double> values) override {
    if (variables.empty()) return;
    const std::vector<fmi3ValueReference> vr = references(variables);
    check(status_of(f_.set_float64(instance_, vr.data(), vr.size(), values.data(), values.size())),
          "fmi3SetFloat64", names_of(variables));
  }
  void directional_derivative(std::span<const std::uint32_t> unknowns,
                              std::span<const std::uint32_t> knowns, std::span<const double> seed,
                              std::span<double> sensitivity) override {
    check(status_of(f_.directional_derivative(instance_, unknowns.data(), unknowns.size(),
                                              knowns.data(), knowns.size(), seed.data(),
                                              seed.size(), sensitivity.data(), sensitivity.size())),
          "fmi3GetDirectionalDerivative");
  }

 private:
  Fmi3Functions f_;
  fmi3Instance instance_ = nullptr;
  bool initialized_ = false;  ///< Reset is needed before the next initialization
};

}  // namespace

std::unique_ptr<FmuInstance> make_fmi3_instance(const SharedLibrary& library,
                                                const ModelDescription& description,
                                                const InstanceSettings& settings) {
  return std::make_unique<Fmi3Instance>(library, description, settings);
}

}  // namespace hdae::fmi::detail
