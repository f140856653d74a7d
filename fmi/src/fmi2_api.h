/* The C interface of FMI 2.0 Model Exchange as far as hdae uses it, written from the function
 * signatures of the FMI 2.0 specification (chapters 2 and 3). Where it differs from FMI 3.0
 * (fmi3_api.h): an int Boolean, unsigned int value references, a struct of callbacks with a
 * printf-style logger, SetupExperiment before initialization, a resource location given as a
 * file URI, and NewDiscreteStates filling an event-info struct. */
#ifndef HDAE_FMI_FMI2_API_H
#define HDAE_FMI_FMI2_API_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void* fmi2Component;
typedef void* fmi2ComponentEnvironment;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Boolean;
typedef const char* fmi2String;

#define fmi2True 1
#define fmi2False 0

typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;

/* The importer's services, handed to Instantiate; the FMU keeps the pointer. */
typedef struct {
  void (*logger)(fmi2ComponentEnvironment environment, fmi2String instance_name, fmi2Status status,
                 fmi2String category, fmi2String message, ...);
  void* (*allocateMemory)(size_t count, size_t size);
  void (*freeMemory)(void* object);
  void (*stepFinished)(fmi2ComponentEnvironment environment, fmi2Status status);
  fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

/* What NewDiscreteStates reports, in the standard's field order. */
typedef struct {
  fmi2Boolean newDiscreteStatesNeeded;
  fmi2Boolean terminateSimulation;
  fmi2Boolean nominalsOfContinuousStatesChanged;
  fmi2Boolean valuesOfContinuousStatesChanged;
  fmi2Boolean nextEventTimeDefined;
  fmi2Real nextEventTime;
} fmi2EventInfo;

/* Life cycle. */
typedef fmi2Component fmi2InstantiateFn(fmi2String instance_name, fmi2Type fmu_type,
                                        fmi2String guid, fmi2String resource_location,
                                        const fmi2CallbackFunctions* functions, fmi2Boolean visible,
                                        fmi2Boolean logging_on);
typedef void fmi2FreeInstanceFn(fmi2Component component);
typedef fmi2Status fmi2SetupExperimentFn(fmi2Component component, fmi2Boolean tolerance_defined,
                                         fmi2Real tolerance, fmi2Real start_time,
                                         fmi2Boolean stop_time_defined, fmi2Real stop_time);
typedef fmi2Status fmi2ComponentFn(fmi2Component component); /* EnterInitializationMode,
                                                                ExitInitializationMode,
                                                                EnterEventMode,
                                                                EnterContinuousTimeMode,
                                                                Terminate, Reset */

/* Values by value reference. */
typedef fmi2Status fmi2GetRealFn(fmi2Component component,
                                 const fmi2ValueReference value_references[], size_t count,
                                 fmi2Real values[]);
typedef fmi2Status fmi2SetRealFn(fmi2Component component,
                                 const fmi2ValueReference value_references[], size_t count,
                                 const fmi2Real values[]);

/* Event Mode. */
typedef fmi2Status fmi2NewDiscreteStatesFn(fmi2Component component, fmi2EventInfo* event_info);

/* Continuous-Time Mode. */
typedef fmi2Status fmi2CompletedIntegratorStepFn(fmi2Component component,
                                                 fmi2Boolean no_set_fmu_state_prior,
                                                 fmi2Boolean* enter_event_mode,
                                                 fmi2Boolean* terminate_simulation);
typedef fmi2Status fmi2SetTimeFn(fmi2Component component, fmi2Real time);
typedef fmi2Status fmi2SetContinuousStatesFn(fmi2Component component, const fmi2Real states[],
                                             size_t count);
/* GetContinuousStates, GetDerivatives, GetEventIndicators, GetNominalsOfContinuousStates. */
typedef fmi2Status fmi2GetArrayFn(fmi2Component component, fmi2Real values[], size_t count);

/* Partial derivatives: the change of the unknowns along the seed dv_known of the knowns. */
typedef fmi2Status fmi2GetDirectionalDerivativeFn(fmi2Component component,
                                                  const fmi2ValueReference unknowns[],
                                                  size_t unknown_count,
                                                  const fmi2ValueReference knowns[],
                                                  size_t known_count, const fmi2Real dv_known[],
                                                  fmi2Real dv_unknown[]);

#ifdef __cplusplus
}
#endif

#endif /* HDAE_FMI_FMI2_API_H */
