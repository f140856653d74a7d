// FmuInstance in the calls of FMI 2.0 Model Exchange (fmi2_api.h; FMI 2.0 specification,
// sections 2.1 and 3.2). What differs from FMI 3.0: instantiation with a struct of callbacks
// and a file URI for the resources, SetupExperiment before Initialization Mode, and
// NewDiscreteStates filling an fmi2EventInfo.
#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <fmt/format.h>

#include "fmi2_api.h"
#include "fmu_instance.hpp"
#include "hdae/errors.hpp"

namespace hdae::fmi::detail {
namespace {

struct Fmi2Functions {
  fmi2InstantiateFn* instantiate = nullptr;
  fmi2FreeInstanceFn* free_instance = nullptr;
  fmi2SetupExperimentFn* setup_experiment = nullptr;
  fmi2ComponentFn* enter_initialization_mode = nullptr;
  fmi2ComponentFn* exit_initialization_mode = nullptr;
  fmi2ComponentFn* enter_event_mode = nullptr;
  fmi2ComponentFn* enter_continuous_time_mode = nullptr;
  fmi2ComponentFn* reset = nullptr;
  fmi2NewDiscreteStatesFn* new_discrete_states = nullptr;
  fmi2CompletedIntegratorStepFn* completed_integrator_step = nullptr;
  fmi2SetTimeFn* set_time = nullptr;
  fmi2SetContinuousStatesFn* set_states = nullptr;
  fmi2GetArrayFn* get_states = nullptr;
  fmi2GetArrayFn* get_derivatives = nullptr;
  fmi2GetArrayFn* get_event_indicators = nullptr;
  fmi2GetRealFn* get_real = nullptr;
  fmi2SetRealFn* set_real = nullptr;
  // Resolved when the description provides directional derivatives.
  fmi2GetDirectionalDerivativeFn* directional_derivative = nullptr;
};

Fmi2Functions resolve(const SharedLibrary& library, const ModelDescription& description) {
  Fmi2Functions f;
  f.instantiate = library.function<fmi2InstantiateFn>("fmi2Instantiate");
  f.free_instance = library.function<fmi2FreeInstanceFn>("fmi2FreeInstance");
  f.setup_experiment = library.function<fmi2SetupExperimentFn>("fmi2SetupExperiment");
  f.enter_initialization_mode = library.function<fmi2ComponentFn>("fmi2EnterInitializationMode");
  f.exit_initialization_mode = library.function<fmi2ComponentFn>("fmi2ExitInitializationMode");
  f.enter_event_mode = library.function<fmi2ComponentFn>("fmi2EnterEventMode");
  f.enter_continuous_time_mode = library.function<fmi2ComponentFn>("fmi2EnterContinuousTimeMode");
  f.reset = library.function<fmi2ComponentFn>("fmi2Reset");
  f.new_discrete_states = library.function<fmi2NewDiscreteStatesFn>("fmi2NewDiscreteStates");
  f.set_time = library.function<fmi2SetTimeFn>("fmi2SetTime");
  f.set_states = library.function<fmi2SetContinuousStatesFn>("fmi2SetContinuousStates");
  f.get_states = library.function<fmi2GetArrayFn>("fmi2GetContinuousStates");
  f.get_derivatives = library.function<fmi2GetArrayFn>("fmi2GetDerivatives");
  f.get_event_indicators = library.function<fmi2GetArrayFn>("fmi2GetEventIndicators");
  f.get_real = library.function<fmi2GetRealFn>("fmi2GetReal");
  f.set_real = library.function<fmi2SetRealFn>("fmi2SetReal");
  f.completed_integrator_step =
      library.function<fmi2CompletedIntegratorStepFn>("fmi2CompletedIntegratorStep");
  if (description.info.provides_directional_derivatives) {
    f.directional_derivative =
        library.function<fmi2GetDirectionalDerivativeFn>("fmi2GetDirectionalDerivative");
  }
  return f;
}

CallStatus status_of(fmi2Status s) { return static_cast<CallStatus>(s); }

/// The FMI 2.0 logger formats like printf.
void log_message(fmi2ComponentEnvironment environment, fmi2String /*instance_name*/,
                 fmi2Status status, fmi2String category, fmi2String format, ...) {
  char text[1024];
  va_list arguments;
  va_start(arguments, format);
  std::vsnprintf(text, sizeof text, format != nullptr ? format : "", arguments);
  va_end(arguments);
  static_cast<FmuLog*>(environment)->add(status_of(status), category, text);
}

/// "file://" and the path, each byte outside the unreserved characters and '/' percent-encoded
/// (RFC 3986), as FMI 2.0 hands the resources to an FMU.
std::string file_uri(const std::filesystem::path& path) {
  std::string uri = "file://";
  for (const char c : path.string()) {
    const auto u = static_cast<unsigned char>(c);
    const bool plain =
        std::isalnum(u) != 0 || c == '/' || c == '-' || c == '_' || c == '.' || c == '~';
    uri += plain ? std::string(1, c) : fmt::format("%{:02X}", u);
  }
  return uri;
}

std::vector<fmi2ValueReference> references(std::span<const ScalarVariable> variables) {
  std::vector<fmi2ValueReference> vr;
  vr.reserve(variables.size());
  for (const ScalarVariable& v : variables) vr.push_back(v.value_reference);
  return vr;
}

class Fmi2Instance final : public FmuInstance {
 public:
  Fmi2Instance(const SharedLibrary& library, const ModelDescription& description,
               const InstanceSettings& settings)
      : FmuInstance(description, settings), f_(resolve(library, description)) {
    callbacks_ = {&log_message, &std::calloc, &std::free, nullptr, settings.log};
    const std::string resources = file_uri(settings.resources);
    component_ =
        f_.instantiate(description.info.model_identifier.c_str(), fmi2ModelExchange,
                       description.instantiation_token.c_str(), resources.c_str(), &callbacks_,
                       fmi2False, settings.debug_logging ? fmi2True : fmi2False);
    if (component_ == nullptr) {
      throw FmuError(
          fmt::format("FMU '{}': fmi2Instantiate failed (returned no instance); the "
                      "FMU's last message: {}",
                      fmu_name(), settings.log->last()));
    }
  }
  ~Fmi2Instance() override {
    if (alive()) f_.free_instance(component_);
  }
  Fmi2Instance(const Fmi2Instance&) = delete;
  Fmi2Instance& operator=(const Fmi2Instance&) = delete;

  void reset() override {
    require_alive("fmi2Reset");
    if (initialized_) check(status_of(f_.reset(component_)), "fmi2Reset");
    initialized_ = false;
    time_ = 0.0;
  }
  void enable_dae_mode(const ScalarVariable& parameter) override {
    // read_dae_manifest reads the manifest of FMI 3.0 FMUs only.
    throw FmuError(fmt::format("FMU '{}': FMI 2.0 has no structural parameters to set {} with",
                               fmu_name(), parameter.name));
  }
  void initialize(double start_s, std::optional<double> tolerance) override {
    require_alive("fmi2SetupExperiment");
    time_ = start_s;
    initialized_ = true;
    check(status_of(f_.setup_experiment(component_, tolerance ? fmi2True : fmi2False,
                                        tolerance.value_or(0.0), start_s, fmi2False, 0.0)),
          "fmi2SetupExperiment");
    check(status_of(f_.enter_initialization_mode(component_)), "fmi2EnterInitializationMode");
    check(status_of(f_.exit_initialization_mode(component_)), "fmi2ExitInitializationMode");
  }
  void enter_event_mode() override {
    check(status_of(f_.enter_event_mode(component_)), "fmi2EnterEventMode");
  }
  DiscreteUpdate update_discrete_states() override {
    fmi2EventInfo info{};
    check(status_of(f_.new_discrete_states(component_, &info)), "fmi2NewDiscreteStates");
    return {info.newDiscreteStatesNeeded != fmi2False, info.terminateSimulation != fmi2False,
            info.nominalsOfContinuousStatesChanged != fmi2False,
            info.valuesOfContinuousStatesChanged != fmi2False,
            info.nextEventTimeDefined != fmi2False ? std::optional<double>(info.nextEventTime)
                                                   : std::nullopt};
  }
  void enter_continuous_time_mode() override {
    check(status_of(f_.enter_continuous_time_mode(component_)), "fmi2EnterContinuousTimeMode");
  }
  StepReport completed_integrator_step() override {
    fmi2Boolean enter = 0, terminate = 0;
    check(status_of(f_.completed_integrator_step(component_, 1, &enter, &terminate)),
          "fmi2CompletedIntegratorStep");
    return {enter != 0, terminate != 0};
  }
  void set_time(double t) override {
    time_ = t;
    check(status_of(f_.set_time(component_, t)), "fmi2SetTime");
  }
  void set_states(std::span<const double> x) override {
    check(status_of(f_.set_states(component_, x.data(), x.size())), "fmi2SetContinuousStates",
          state_names());
  }
  void get_states(std::span<double> x) override {
    check(status_of(f_.get_states(component_, x.data(), x.size())), "fmi2GetContinuousStates",
          state_names());
  }
  void get_derivatives(std::span<double> der_x) override {
    check(status_of(f_.get_derivatives(component_, der_x.data(), der_x.size())),
          "fmi2GetDerivatives", derivative_names());
  }
  void get_event_indicators(std::span<double> z) override {
    check(status_of(f_.get_event_indicators(component_, z.data(), z.size())),
          "fmi2GetEventIndicators", indicator_names());
  }
  void get_reals(std::span<const ScalarVariable> variables, std::span<double> values) override {
    if (variables.empty()) return;
    const std::vector<fmi2ValueReference> vr = references(variables);
    check(status_of(f_.get_real(component_, vr.data(), vr.size(), values.data())), "fmi2GetReal",
          names_of(variables));
  }
  void set_reals(std::span<const ScalarVariable> variables,
                 std::span<const double> values) override {
    if (variables.empty()) return;
    const std::vector<fmi2ValueReference> vr = references(variables);
    check(status_of(f_.set_real(component_, vr.data(), vr.size(), values.data())), "fmi2SetReal",
          names_of(variables));
  }

  void directional_derivative(std::span<const std::uint32_t> unknowns,
                              std::span<const std::uint32_t> knowns, std::span<const double> seed,
                              std::span<double> sensitivity) override {
    check(status_of(f_.directional_derivative(component_, unknowns.data(), unknowns.size(),
                                              knowns.data(), knowns.size(), seed.data(),
                                              sensitivity.data())),
          "fmi2GetDirectionalDerivative");
  }

 private:
  Fmi2Functions f_;
  /// The FMU keeps a pointer to it for its whole life.
  fmi2CallbackFunctions callbacks_{};
  fmi2Component component_ = nullptr;
  bool initialized_ = false;
};

}  // namespace

std::unique_ptr<FmuInstance> make_fmi2_instance(const SharedLibrary& library,
                                                const ModelDescription& description,
                                                const InstanceSettings& settings) {
  return std::make_unique<Fmi2Instance>(library, description, settings);
}

}  // namespace hdae::fmi::detail
