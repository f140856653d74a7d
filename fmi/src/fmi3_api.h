/* The C interface of FMI 3.0: the platform types, the status codes and the types of the
 * functions an FMU's shared library exports under their unprefixed names. The first part is
 * what the importer of Model Exchange FMUs (fmi/) calls; the second completes the set for the
 * exporter (fmu_export/), whose FMUs must export every function of the standard, also those of
 * interface types and capabilities they do not support. Written from the standard's function
 * signatures (the FMI 3.0 specification, chapters 2 to 5); C and C++ read it alike, so the FMUs
 * of the tests (tests/fmi/fmus) implement the very signatures the importer calls. */
#ifndef HDAE_FMI_FMI3_API_H
#define HDAE_FMI_FMI3_API_H

#include <stddef.h>
#include <stdint.h>

#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef void* fmi3Instance;
typedef void* fmi3InstanceEnvironment;
typedef uint32_t fmi3ValueReference;
typedef double fmi3Float64;
typedef bool fmi3Boolean;
typedef const char* fmi3String;

/* The order is the standard's: the importer compares codes, not names. */
typedef enum { fmi3OK, fmi3Warning, fmi3Discard, fmi3Error, fmi3Fatal } fmi3Status;

/* How an instance reports to its importer: a message with its status and category. */
typedef void (*fmi3LogMessageCallback)(fmi3InstanceEnvironment environment, fmi3Status status,
                                       fmi3String category, fmi3String message);

/* Life cycle. */
typedef fmi3Instance fmi3InstantiateModelExchangeFn(fmi3String instance_name,
                                                    fmi3String instantiation_token,
                                                    fmi3String resource_path, fmi3Boolean visible,
                                                    fmi3Boolean logging_on,
                                                    fmi3InstanceEnvironment environment,
                                                    fmi3LogMessageCallback log_message);
typedef void fmi3FreeInstanceFn(fmi3Instance instance);
typedef fmi3Status fmi3EnterInitializationModeFn(fmi3Instance instance,
                                                 fmi3Boolean tolerance_defined,
                                                 fmi3Float64 tolerance, fmi3Float64 start_time,
                                                 fmi3Boolean stop_time_defined,
                                                 fmi3Float64 stop_time);
typedef fmi3Status fmi3InstanceFn(fmi3Instance instance); /* ExitInitializationMode, EnterEventMode,
                                                             EnterContinuousTimeMode, Terminate,
                                                             Reset */

/* Values by value reference. */
typedef fmi3Status fmi3GetFloat64Fn(fmi3Instance instance,
                                    const fmi3ValueReference value_references[],
                                    size_t value_reference_count, fmi3Float64 values[],
                                    size_t value_count);
typedef fmi3Status fmi3SetFloat64Fn(fmi3Instance instance,
                                    const fmi3ValueReference value_references[],
                                    size_t value_reference_count, const fmi3Float64 values[],
                                    size_t value_count);

/* Event Mode. */
typedef fmi3Status fmi3UpdateDiscreteStatesFn(fmi3Instance instance,
                                              fmi3Boolean* discrete_states_need_update,
                                              fmi3Boolean* terminate_simulation,
                                              fmi3Boolean* nominals_of_continuous_states_changed,
                                              fmi3Boolean* values_of_continuous_states_changed,
                                              fmi3Boolean* next_event_time_defined,
                                              fmi3Float64* next_event_time);

/* Continuous-Time Mode. */
typedef fmi3Status fmi3CompletedIntegratorStepFn(fmi3Instance instance,
                                                 fmi3Boolean no_set_fmu_state_prior,
                                                 fmi3Boolean* enter_event_mode,
                                                 fmi3Boolean* terminate_simulation);
typedef fmi3Status fmi3SetTimeFn(fmi3Instance instance, fmi3Float64 time);
/* SetContinuousStates takes const values; the getters (GetContinuousStates,
 * GetContinuousStateDerivatives, GetEventIndicators, GetNominalsOfContinuousStates) fill an
 * array of the given length. */
typedef fmi3Status fmi3SetContinuousStatesFn(fmi3Instance instance, const fmi3Float64 states[],
                                             size_t state_count);
typedef fmi3Status fmi3GetArrayFn(fmi3Instance instance, fmi3Float64 values[], size_t count);

/* Partial derivatives (directional and adjoint share the signature). */
typedef fmi3Status fmi3GetDerivativeFn(fmi3Instance instance, const fmi3ValueReference unknowns[],
                                       size_t unknown_count, const fmi3ValueReference knowns[],
                                       size_t known_count, const fmi3Float64 seed[],
                                       size_t seed_count, fmi3Float64 sensitivity[],
                                       size_t sensitivity_count);

/* ---- The rest of the standard's functions, for FMUs that hdae exports (fmu_export/). ---- */

typedef float fmi3Float32;
typedef int8_t fmi3Int8;
typedef uint8_t fmi3UInt8;
typedef int16_t fmi3Int16;
typedef uint16_t fmi3UInt16;
typedef int32_t fmi3Int32;
typedef uint32_t fmi3UInt32;
typedef int64_t fmi3Int64;
typedef uint64_t fmi3UInt64;
typedef uint8_t fmi3Byte;
typedef const fmi3Byte* fmi3Binary;
typedef bool fmi3Clock;
typedef void* fmi3FMUState;

typedef enum {
  fmi3Independent,
  fmi3Constant,
  fmi3Fixed,
  fmi3Tunable,
  fmi3Discrete,
  fmi3Dependent
} fmi3DependencyKind;
typedef enum {
  fmi3IntervalNotYetKnown,
  fmi3IntervalUnchanged,
  fmi3IntervalChanged
} fmi3IntervalQualifier;

typedef void (*fmi3ClockUpdateCallback)(fmi3InstanceEnvironment environment);
typedef void (*fmi3IntermediateUpdateCallback)(
    fmi3InstanceEnvironment environment, fmi3Float64 intermediate_update_time,
    fmi3Boolean intermediate_variable_set_requested, fmi3Boolean intermediate_variable_get_allowed,
    fmi3Boolean intermediate_step_finished, fmi3Boolean can_return_early,
    fmi3Boolean* early_return_requested, fmi3Float64* early_return_time);
typedef void (*fmi3LockPreemptionCallback)(void);
typedef void (*fmi3UnlockPreemptionCallback)(void);

typedef const char* fmi3GetVersionFn(void);
typedef fmi3Status fmi3SetDebugLoggingFn(fmi3Instance instance, fmi3Boolean logging_on,
                                         size_t category_count, const fmi3String categories[]);
typedef fmi3Instance fmi3InstantiateCoSimulationFn(
    fmi3String instance_name, fmi3String instantiation_token, fmi3String resource_path,
    fmi3Boolean visible, fmi3Boolean logging_on, fmi3Boolean event_mode_used,
    fmi3Boolean early_return_allowed, const fmi3ValueReference required_intermediate_variables[],
    size_t required_intermediate_variable_count, fmi3InstanceEnvironment environment,
    fmi3LogMessageCallback log_message, fmi3IntermediateUpdateCallback intermediate_update);
typedef fmi3Instance fmi3InstantiateScheduledExecutionFn(
    fmi3String instance_name, fmi3String instantiation_token, fmi3String resource_path,
    fmi3Boolean visible, fmi3Boolean logging_on, fmi3InstanceEnvironment environment,
    fmi3LogMessageCallback log_message, fmi3ClockUpdateCallback clock_update,
    fmi3LockPreemptionCallback lock_preemption, fmi3UnlockPreemptionCallback unlock_preemption);

/* fmi3Get<T> and fmi3Set<T> of the scalar types: the signature of fmi3GetFloat64 with T. */
#define HDAE_FMI3_VALUE_ACCESS(T)                                          \
  typedef fmi3Status fmi3Get##T##Fn(                                       \
      fmi3Instance instance, const fmi3ValueReference value_references[],  \
      size_t value_reference_count, fmi3##T values[], size_t value_count); \
  typedef fmi3Status fmi3Set##T##Fn(                                       \
      fmi3Instance instance, const fmi3ValueReference value_references[],  \
      size_t value_reference_count, const fmi3##T values[], size_t value_count);
HDAE_FMI3_VALUE_ACCESS(Float32)
HDAE_FMI3_VALUE_ACCESS(Int8)
HDAE_FMI3_VALUE_ACCESS(UInt8)
HDAE_FMI3_VALUE_ACCESS(Int16)
HDAE_FMI3_VALUE_ACCESS(UInt16)
HDAE_FMI3_VALUE_ACCESS(Int32)
HDAE_FMI3_VALUE_ACCESS(UInt32)
HDAE_FMI3_VALUE_ACCESS(Int64)
HDAE_FMI3_VALUE_ACCESS(UInt64)
HDAE_FMI3_VALUE_ACCESS(Boolean)
HDAE_FMI3_VALUE_ACCESS(String)
#undef HDAE_FMI3_VALUE_ACCESS
typedef fmi3Status fmi3GetBinaryFn(fmi3Instance instance,
                                   const fmi3ValueReference value_references[],
                                   size_t value_reference_count, size_t value_sizes[],
                                   fmi3Binary values[], size_t value_count);
typedef fmi3Status fmi3SetBinaryFn(fmi3Instance instance,
                                   const fmi3ValueReference value_references[],
                                   size_t value_reference_count, const size_t value_sizes[],
                                   const fmi3Binary values[], size_t value_count);
typedef fmi3Status fmi3GetClockFn(fmi3Instance instance,
                                  const fmi3ValueReference value_references[],
                                  size_t value_reference_count, fmi3Clock values[]);
typedef fmi3Status fmi3SetClockFn(fmi3Instance instance,
                                  const fmi3ValueReference value_references[],
                                  size_t value_reference_count, const fmi3Clock values[]);

/* Variable dependencies. */
typedef fmi3Status fmi3GetNumberOfVariableDependenciesFn(fmi3Instance instance,
                                                         fmi3ValueReference value_reference,
                                                         size_t* dependency_count);
typedef fmi3Status fmi3GetVariableDependenciesFn(
    fmi3Instance instance, fmi3ValueReference dependent, size_t element_indices_of_dependent[],
    fmi3ValueReference independents[], size_t element_indices_of_independents[],
    fmi3DependencyKind dependency_kinds[], size_t dependency_count);

/* FMU state. */
typedef fmi3Status fmi3GetFMUStateFn(fmi3Instance instance, fmi3FMUState* state);
typedef fmi3Status fmi3SetFMUStateFn(fmi3Instance instance, fmi3FMUState state);
typedef fmi3Status fmi3FreeFMUStateFn(fmi3Instance instance, fmi3FMUState* state);
typedef fmi3Status fmi3SerializedFMUStateSizeFn(fmi3Instance instance, fmi3FMUState state,
                                                size_t* size);
typedef fmi3Status fmi3SerializeFMUStateFn(fmi3Instance instance, fmi3FMUState state,
                                           fmi3Byte serialized_state[], size_t size);
typedef fmi3Status fmi3DeserializeFMUStateFn(fmi3Instance instance,
                                             const fmi3Byte serialized_state[], size_t size,
                                             fmi3FMUState* state);

/* Clocks: intervals and shifts as decimals or fractions. */
typedef fmi3Status fmi3GetIntervalDecimalFn(fmi3Instance instance,
                                            const fmi3ValueReference value_references[],
                                            size_t value_reference_count, fmi3Float64 intervals[],
                                            fmi3IntervalQualifier qualifiers[]);
typedef fmi3Status fmi3GetIntervalFractionFn(fmi3Instance instance,
                                             const fmi3ValueReference value_references[],
                                             size_t value_reference_count, fmi3UInt64 counters[],
                                             fmi3UInt64 resolutions[],
                                             fmi3IntervalQualifier qualifiers[]);
typedef fmi3Status fmi3GetShiftDecimalFn(fmi3Instance instance,
                                         const fmi3ValueReference value_references[],
                                         size_t value_reference_count, fmi3Float64 shifts[]);
typedef fmi3Status fmi3GetShiftFractionFn(fmi3Instance instance,
                                          const fmi3ValueReference value_references[],
                                          size_t value_reference_count, fmi3UInt64 counters[],
                                          fmi3UInt64 resolutions[]);
typedef fmi3Status fmi3SetIntervalDecimalFn(fmi3Instance instance,
                                            const fmi3ValueReference value_references[],
                                            size_t value_reference_count,
                                            const fmi3Float64 intervals[]);
typedef fmi3Status fmi3SetIntervalFractionFn(fmi3Instance instance,
                                             const fmi3ValueReference value_references[],
                                             size_t value_reference_count,
                                             const fmi3UInt64 counters[],
                                             const fmi3UInt64 resolutions[]);
typedef fmi3Status fmi3SetShiftDecimalFn(fmi3Instance instance,
                                         const fmi3ValueReference value_references[],
                                         size_t value_reference_count, const fmi3Float64 shifts[]);
typedef fmi3Status fmi3SetShiftFractionFn(fmi3Instance instance,
                                          const fmi3ValueReference value_references[],
                                          size_t value_reference_count, const fmi3UInt64 counters[],
                                          const fmi3UInt64 resolutions[]);

/* Model Exchange counts. */
typedef fmi3Status fmi3GetCountFn(fmi3Instance instance, size_t* count);

/* Co-Simulation and Scheduled Execution. */
typedef fmi3Status fmi3GetOutputDerivativesFn(fmi3Instance instance,
                                              const fmi3ValueReference value_references[],
                                              size_t value_reference_count,
                                              const fmi3Int32 orders[], fmi3Float64 values[],
                                              size_t value_count);
typedef fmi3Status fmi3DoStepFn(fmi3Instance instance, fmi3Float64 current_communication_point,
                                fmi3Float64 communication_step_size,
                                fmi3Boolean no_set_fmu_state_prior_to_current_point,
                                fmi3Boolean* event_handling_needed,
                                fmi3Boolean* terminate_simulation, fmi3Boolean* early_return,
                                fmi3Float64* last_successful_time);
typedef fmi3Status fmi3ActivateModelPartitionFn(fmi3Instance instance,
                                                fmi3ValueReference clock_reference,
                                                fmi3Float64 activation_time);

#ifdef __cplusplus
}
#endif

#endif /* HDAE_FMI_FMI3_API_H */
