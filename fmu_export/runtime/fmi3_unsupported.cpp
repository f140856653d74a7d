// The functions of FMI 3.0 an exported hdae FMU does not support (the standard has every FMU
// export them all, section 2.5): the other interface types (Model Exchange, Scheduled
// Execution), the FMU state (canGetAndSetFMUState and canSerializeFMUState are false: a
// Simulator's run cannot be copied), partial derivatives, dependencies at run time, clocks,
// configuration and event mode. Each answers fmi3Error with a logger message saying why.
#include <stdexcept>
#include <string>
#include <type_traits>

#include "fmi3_export.hpp"

namespace hdae::fmu_export {

fmi3Status unsupported(fmi3Instance instance, const char* function, const char* why) {
  return guarded(instance, function, [&](FmuInstance&) {
    throw std::logic_error(std::string("not supported by this FMU: ") + why);
  });
}

}  // namespace hdae::fmu_export

namespace {

using hdae::fmu_export::unsupported;
constexpr const char* kCoSimulationOnly = "the FMU implements Co-Simulation only";
constexpr const char* kNoState = "canGetAndSetFMUState and canSerializeFMUState are false";
constexpr const char* kNoDerivatives =
    "providesDirectionalDerivatives and providesAdjointDerivatives are false";
constexpr const char* kNoClocks = "the FMU has no clocks";
constexpr const char* kNoEventMode = "hasEventMode is false: events are handled in fmi3DoStep";

}  // namespace

// A function that only answers fmi3Error: its name, its parameter list, the reason.
#define HDAE_FMI3_UNSUPPORTED(name, type, why, ...)                   \
  HDAE_FMI3_API fmi3Status name(fmi3Instance instance, __VA_ARGS__) { \
    return unsupported(instance, #name, why);                         \
  }                                                                   \
  static_assert(std::is_same_v<decltype(name), type>);

HDAE_FMI3_UNSUPPORTED(fmi3GetNumberOfVariableDependencies, fmi3GetNumberOfVariableDependenciesFn,
                      "the dependencies are in modelDescription.xml", fmi3ValueReference, size_t*)
HDAE_FMI3_UNSUPPORTED(fmi3GetVariableDependencies, fmi3GetVariableDependenciesFn,
                      "the dependencies are in modelDescription.xml", fmi3ValueReference, size_t[],
                      fmi3ValueReference[], size_t[], fmi3DependencyKind[], size_t)
HDAE_FMI3_UNSUPPORTED(fmi3GetFMUState, fmi3GetFMUStateFn, kNoState, fmi3FMUState*)
HDAE_FMI3_UNSUPPORTED(fmi3SetFMUState, fmi3SetFMUStateFn, kNoState, fmi3FMUState)
HDAE_FMI3_UNSUPPORTED(fmi3FreeFMUState, fmi3FreeFMUStateFn, kNoState, fmi3FMUState*)
HDAE_FMI3_UNSUPPORTED(fmi3SerializedFMUStateSize, fmi3SerializedFMUStateSizeFn, kNoState,
                      fmi3FMUState, size_t*)
HDAE_FMI3_UNSUPPORTED(fmi3SerializeFMUState, fmi3SerializeFMUStateFn, kNoState, fmi3FMUState,
                      fmi3Byte[], size_t)
HDAE_FMI3_UNSUPPORTED(fmi3DeserializeFMUState, fmi3DeserializeFMUStateFn, kNoState,
                      const fmi3Byte[], size_t, fmi3FMUState*)
// The functions of one argument.
HDAE_FMI3_API fmi3Status fmi3EnterConfigurationMode(fmi3Instance instance) {
  return unsupported(instance, "fmi3EnterConfigurationMode",
                     "the FMU has no structural parameters");
}
HDAE_FMI3_API fmi3Status fmi3ExitConfigurationMode(fmi3Instance instance) {
  return unsupported(instance, "fmi3ExitConfigurationMode", "the FMU has no structural parameters");
}
HDAE_FMI3_API fmi3Status fmi3EvaluateDiscreteStates(fmi3Instance instance) {
  return unsupported(instance, "fmi3EvaluateDiscreteStates", kNoEventMode);
}
HDAE_FMI3_API fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance instance) {
  return unsupported(instance, "fmi3EnterContinuousTimeMode", kCoSimulationOnly);
}
static_assert(std::is_same_v<decltype(fmi3EnterConfigurationMode), fmi3InstanceFn>);
static_assert(std::is_same_v<decltype(fmi3ExitConfigurationMode), fmi3InstanceFn>);
static_assert(std::is_same_v<decltype(fmi3EvaluateDiscreteStates), fmi3InstanceFn>);
static_assert(std::is_same_v<decltype(fmi3EnterContinuousTimeMode), fmi3InstanceFn>);

HDAE_FMI3_UNSUPPORTED(fmi3GetDirectionalDerivative, fmi3GetDerivativeFn, kNoDerivatives,
                      const fmi3ValueReference[], size_t, const fmi3ValueReference[], size_t,
                      const fmi3Float64[], size_t, fmi3Float64[], size_t)
HDAE_FMI3_UNSUPPORTED(fmi3GetAdjointDerivative, fmi3GetDerivativeFn, kNoDerivatives,
                      const fmi3ValueReference[], size_t, const fmi3ValueReference[], size_t,
                      const fmi3Float64[], size_t, fmi3Float64[], size_t)
HDAE_FMI3_UNSUPPORTED(fmi3GetOutputDerivatives, fmi3GetOutputDerivativesFn,
                      "maxOutputDerivativeOrder is 0", const fmi3ValueReference[], size_t,
                      const fmi3Int32[], fmi3Float64[], size_t)
HDAE_FMI3_UNSUPPORTED(fmi3GetIntervalDecimal, fmi3GetIntervalDecimalFn, kNoClocks,
                      const fmi3ValueReference[], size_t, fmi3Float64[], fmi3IntervalQualifier[])
HDAE_FMI3_UNSUPPORTED(fmi3GetIntervalFraction, fmi3GetIntervalFractionFn, kNoClocks,
                      const fmi3ValueReference[], size_t, fmi3UInt64[], fmi3UInt64[],
                      fmi3IntervalQualifier[])
HDAE_FMI3_UNSUPPORTED(fmi3GetShiftDecimal, fmi3GetShiftDecimalFn, kNoClocks,
                      const fmi3ValueReference[], size_t, fmi3Float64[])
HDAE_FMI3_UNSUPPORTED(fmi3GetShiftFraction, fmi3GetShiftFractionFn, kNoClocks,
                      const fmi3ValueReference[], size_t, fmi3UInt64[], fmi3UInt64[])
HDAE_FMI3_UNSUPPORTED(fmi3SetIntervalDecimal, fmi3SetIntervalDecimalFn, kNoClocks,
                      const fmi3ValueReference[], size_t, const fmi3Float64[])
HDAE_FMI3_UNSUPPORTED(fmi3SetIntervalFraction, fmi3SetIntervalFractionFn, kNoClocks,
                      const fmi3ValueReference[], size_t, const fmi3UInt64[], const fmi3UInt64[])
HDAE_FMI3_UNSUPPORTED(fmi3SetShiftDecimal, fmi3SetShiftDecimalFn, kNoClocks,
                      const fmi3ValueReference[], size_t, const fmi3Float64[])
HDAE_FMI3_UNSUPPORTED(fmi3SetShiftFraction, fmi3SetShiftFractionFn, kNoClocks,
                      const fmi3ValueReference[], size_t, const fmi3UInt64[], const fmi3UInt64[])
HDAE_FMI3_UNSUPPORTED(fmi3ActivateModelPartition, fmi3ActivateModelPartitionFn, kNoClocks,
                      fmi3ValueReference, fmi3Float64)
HDAE_FMI3_UNSUPPORTED(fmi3UpdateDiscreteStates, fmi3UpdateDiscreteStatesFn, kNoEventMode,
                      fmi3Boolean*, fmi3Boolean*, fmi3Boolean*, fmi3Boolean*, fmi3Boolean*,
                      fmi3Float64*)
HDAE_FMI3_UNSUPPORTED(fmi3CompletedIntegratorStep, fmi3CompletedIntegratorStepFn, kCoSimulationOnly,
                      fmi3Boolean, fmi3Boolean*, fmi3Boolean*)
HDAE_FMI3_UNSUPPORTED(fmi3SetTime, fmi3SetTimeFn, kCoSimulationOnly, fmi3Float64)
HDAE_FMI3_UNSUPPORTED(fmi3SetContinuousStates, fmi3SetContinuousStatesFn, kCoSimulationOnly,
                      const fmi3Float64[], size_t)
HDAE_FMI3_UNSUPPORTED(fmi3GetContinuousStateDerivatives, fmi3GetArrayFn, kCoSimulationOnly,
                      fmi3Float64[], size_t)
HDAE_FMI3_UNSUPPORTED(fmi3GetEventIndicators, fmi3GetArrayFn, kCoSimulationOnly, fmi3Float64[],
                      size_t)
HDAE_FMI3_UNSUPPORTED(fmi3GetContinuousStates, fmi3GetArrayFn, kCoSimulationOnly, fmi3Float64[],
                      size_t)
HDAE_FMI3_UNSUPPORTED(fmi3GetNominalsOfContinuousStates, fmi3GetArrayFn, kCoSimulationOnly,
                      fmi3Float64[], size_t)
HDAE_FMI3_UNSUPPORTED(fmi3GetNumberOfEventIndicators, fmi3GetCountFn, kCoSimulationOnly, size_t*)
HDAE_FMI3_UNSUPPORTED(fmi3GetNumberOfContinuousStates, fmi3GetCountFn, kCoSimulationOnly, size_t*)
#undef HDAE_FMI3_UNSUPPORTED

// The other interface types cannot be instantiated; the logger says so.
HDAE_FMI3_API fmi3Instance fmi3InstantiateModelExchange(
    fmi3String instance_name, fmi3String /*token*/, fmi3String /*resource_path*/,
    fmi3Boolean /*visible*/, fmi3Boolean /*logging_on*/, fmi3InstanceEnvironment environment,
    fmi3LogMessageCallback log_message) {
  hdae::fmu_export::FmuLogger(instance_name != nullptr ? instance_name : "", environment,
                              log_message, true)
      .error("fmi3InstantiateModelExchange: the FMU implements Co-Simulation only");
  return nullptr;
}
HDAE_FMI3_API fmi3Instance fmi3InstantiateScheduledExecution(
    fmi3String instance_name, fmi3String /*token*/, fmi3String /*resource_path*/,
    fmi3Boolean /*visible*/, fmi3Boolean /*logging_on*/, fmi3InstanceEnvironment environment,
    fmi3LogMessageCallback log_message, fmi3ClockUpdateCallback /*clock_update*/,
    fmi3LockPreemptionCallback /*lock*/, fmi3UnlockPreemptionCallback /*unlock*/) {
  hdae::fmu_export::FmuLogger(instance_name != nullptr ? instance_name : "", environment,
                              log_message, true)
      .error("fmi3InstantiateScheduledExecution: the FMU implements Co-Simulation only");
  return nullptr;
}
static_assert(
    std::is_same_v<decltype(fmi3InstantiateModelExchange), fmi3InstantiateModelExchangeFn>);
static_assert(std::is_same_v<decltype(fmi3InstantiateScheduledExecution),
                             fmi3InstantiateScheduledExecutionFn>);
