// The life cycle of an exported Co-Simulation FMU (FMI 3.0 specification, sections 2.3 and
// 4.2): instantiation from the FMU's resources, the modes, fmi3DoStep. Each function hands its
// work to FmuInstance (fmu_instance.hpp) inside guarded() (fmi3_export.hpp).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "fmi3_export.hpp"
#include "fmu_model_source.hpp"
#include "variable_layout.hpp"

using hdae::fmu_export::FmuInstance;
using hdae::fmu_export::FmuLogger;
using hdae::fmu_export::guarded;

HDAE_FMI3_API const char* fmi3GetVersion(void) { return "3.0"; }

HDAE_FMI3_API fmi3Status fmi3SetDebugLogging(fmi3Instance instance, fmi3Boolean logging_on,
                                             size_t /*category_count*/,
                                             const fmi3String /*categories*/[]) {
  // The categories are few and cheap: logging is on or off for all of them.
  return guarded(instance, "fmi3SetDebugLogging",
                 [&](FmuInstance& self) { self.logger().set_on(logging_on); });
}

namespace {

FmuInstance* instantiate(const char* name, const char* token, const char* resources,
                         const FmuLogger& logger, bool early_return_allowed) {
  try {
    hdae::fmu_export::FmuModel made =
        hdae::fmu_export::make_fmu_model(resources != nullptr ? resources : "");
    const std::string expected = hdae::fmu_export::instantiation_token(made.model->structure());
    if (token == nullptr || expected != token) {
      logger.error("the instantiationToken '" + std::string(token != nullptr ? token : "") +
                   "' is not this FMU's ('" + expected +
                   "'): the description belongs to another export");
      return nullptr;
    }
    return new FmuInstance(std::move(made), logger, early_return_allowed);
  } catch (const std::exception& e) {
    logger.error(std::string("fmi3InstantiateCoSimulation failed: ") + e.what() + " (instance '" +
                 name + "')");
  } catch (...) {
    logger.error("fmi3InstantiateCoSimulation failed with an exception of unknown type");
  }
  return nullptr;
}

}  // namespace

HDAE_FMI3_API fmi3Instance fmi3InstantiateCoSimulation(
    fmi3String instance_name, fmi3String instantiation_token, fmi3String resource_path,
    fmi3Boolean /*visible*/, fmi3Boolean logging_on, fmi3Boolean /*event_mode_used*/,
    fmi3Boolean early_return_allowed, const fmi3ValueReference /*required*/[],
    size_t /*required_count*/, fmi3InstanceEnvironment environment,
    fmi3LogMessageCallback log_message, fmi3IntermediateUpdateCallback /*intermediate_update*/) {
  // hasEventMode is false: events are handled inside fmi3DoStep whatever eventModeUsed says.
  // With earlyReturnAllowed a step ends at the first event in it (the description says
  // mightReturnEarlyFromDoStep). No intermediate updates.
  const char* name = instance_name != nullptr ? instance_name : "";
  const FmuLogger logger(name, environment, log_message, logging_on);
  return instantiate(name, instantiation_token, resource_path, logger, early_return_allowed);
}

HDAE_FMI3_API void fmi3FreeInstance(fmi3Instance instance) {
  // The destructor ends the run; nothing it does throws past it.
  delete static_cast<FmuInstance*>(instance);
}

HDAE_FMI3_API fmi3Status fmi3EnterInitializationMode(fmi3Instance instance,
                                                     fmi3Boolean tolerance_defined,
                                                     fmi3Float64 tolerance, fmi3Float64 start_time,
                                                     fmi3Boolean stop_time_defined,
                                                     fmi3Float64 stop_time) {
  return guarded(instance, "fmi3EnterInitializationMode", [&](FmuInstance& self) {
    self.enter_initialization(tolerance_defined ? std::optional<double>(tolerance) : std::nullopt,
                              start_time,
                              stop_time_defined ? std::optional<double>(stop_time) : std::nullopt);
  });
}

HDAE_FMI3_API fmi3Status fmi3ExitInitializationMode(fmi3Instance instance) {
  return guarded(instance, "fmi3ExitInitializationMode",
                 [](FmuInstance& self) { self.exit_initialization(); });
}

HDAE_FMI3_API fmi3Status fmi3DoStep(fmi3Instance instance, fmi3Float64 current_communication_point,
                                    fmi3Float64 communication_step_size,
                                    fmi3Boolean /*no_set_fmu_state_prior_to_current_point*/,
                                    fmi3Boolean* event_handling_needed,
                                    fmi3Boolean* terminate_simulation, fmi3Boolean* early_return,
                                    fmi3Float64* last_successful_time) {
  return guarded(instance, "fmi3DoStep", [&](FmuInstance& self) {
    const hdae::fmu_export::StepReport report =
        self.do_step(current_communication_point, communication_step_size);
    // The standard requires these pointers; a null one is skipped, not written through.
    if (event_handling_needed != nullptr) *event_handling_needed = false;
    if (terminate_simulation != nullptr) *terminate_simulation = report.terminate;
    if (early_return != nullptr) *early_return = report.early_return;
    if (last_successful_time != nullptr) *last_successful_time = report.last_successful;
  });
}

HDAE_FMI3_API fmi3Status fmi3Terminate(fmi3Instance instance) {
  return guarded(instance, "fmi3Terminate", [](FmuInstance& self) { self.terminate(); });
}

HDAE_FMI3_API fmi3Status fmi3Reset(fmi3Instance instance) {
  return guarded(instance, "fmi3Reset", [](FmuInstance& self) { self.reset(); });
}

HDAE_FMI3_API fmi3Status fmi3EnterEventMode(fmi3Instance instance) {
  return hdae::fmu_export::unsupported(
      instance, "fmi3EnterEventMode",
      "hasEventMode is false: events are handled inside fmi3DoStep");
}

HDAE_FMI3_API fmi3Status fmi3EnterStepMode(fmi3Instance instance) {
  return hdae::fmu_export::unsupported(instance, "fmi3EnterStepMode",
                                       "hasEventMode is false, so there is no Event Mode to leave");
}

// The signatures above are the standard's (fmi3_api.h): a difference does not compile.
static_assert(std::is_same_v<decltype(fmi3GetVersion), fmi3GetVersionFn>);
static_assert(std::is_same_v<decltype(fmi3SetDebugLogging), fmi3SetDebugLoggingFn>);
static_assert(std::is_same_v<decltype(fmi3InstantiateCoSimulation), fmi3InstantiateCoSimulationFn>);
static_assert(std::is_same_v<decltype(fmi3FreeInstance), fmi3FreeInstanceFn>);
static_assert(std::is_same_v<decltype(fmi3EnterInitializationMode), fmi3EnterInitializationModeFn>);
static_assert(std::is_same_v<decltype(fmi3ExitInitializationMode), fmi3InstanceFn>);
static_assert(std::is_same_v<decltype(fmi3DoStep), fmi3DoStepFn>);
static_assert(std::is_same_v<decltype(fmi3Terminate), fmi3InstanceFn>);
static_assert(std::is_same_v<decltype(fmi3Reset), fmi3InstanceFn>);
static_assert(std::is_same_v<decltype(fmi3EnterEventMode), fmi3InstanceFn>);
static_assert(std::is_same_v<decltype(fmi3EnterStepMode), fmi3InstanceFn>);
