/* The C interface of FMI 3.0 Model Exchange as far as hdae uses it: the platform types, the
 * status codes and the types of the functions an FMU's shared library exports under their
 * unprefixed names. Written from the standard's function signatures (the FMI 3.0
 * specification, chapters 2 and 3); C and C++ read it alike, so the FMUs of the tests
 * (tests/fmi/fmus) implement the very signatures the importer calls. */
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

#ifdef __cplusplus
}
#endif

#endif /* HDAE_FMI_FMI3_API_H */
