/* The FMI 2.0 Model Exchange functions of a test FMU, over the model of model.h (as
 * fmi3_model.c for FMI 3.0). */
#include <stdlib.h>
#include <string.h>

#include "fmi2_api.h"
#include "model.h"

typedef struct {
  ModelData model;
  const fmi2CallbackFunctions* callbacks;
} Instance;

/* The declarations check that each definition has the importer's signature. */
fmi2InstantiateFn fmi2Instantiate;
fmi2FreeInstanceFn fmi2FreeInstance;
fmi2SetupExperimentFn fmi2SetupExperiment;
fmi2ComponentFn fmi2EnterInitializationMode, fmi2ExitInitializationMode, fmi2EnterEventMode,
    fmi2EnterContinuousTimeMode, fmi2Terminate, fmi2Reset;
fmi2NewDiscreteStatesFn fmi2NewDiscreteStates;
fmi2CompletedIntegratorStepFn fmi2CompletedIntegratorStep;
fmi2SetTimeFn fmi2SetTime;
fmi2SetContinuousStatesFn fmi2SetContinuousStates;
fmi2GetArrayFn fmi2GetContinuousStates, fmi2GetDerivatives, fmi2GetEventIndicators;
fmi2GetRealFn fmi2GetReal;
fmi2SetRealFn fmi2SetReal;

static ModelData* data(fmi2Component component) { return &((Instance*)component)->model; }

fmi2Component fmi2Instantiate(fmi2String instance_name, fmi2Type type, fmi2String guid,
                              fmi2String resource_location, const fmi2CallbackFunctions* functions,
                              fmi2Boolean visible, fmi2Boolean logging_on) {
  (void)resource_location, (void)visible, (void)logging_on;
  if (type != fmi2ModelExchange || guid == NULL || strcmp(guid, MODEL_TOKEN) != 0) {
    if (functions != NULL && functions->logger != NULL) {
      functions->logger(functions->componentEnvironment, instance_name, fmi2Error, "logStatusError",
                        "wrong guid or type %d", (int)type);
    }
    return NULL;
  }
  Instance* i = calloc(1, sizeof *i);
  if (i == NULL) return NULL;
  i->callbacks = functions;
  model_start(&i->model);
  return i;
}

void fmi2FreeInstance(fmi2Component component) { free(component); }

fmi2Status fmi2SetupExperiment(fmi2Component component, fmi2Boolean tolerance_defined,
                               fmi2Real tolerance, fmi2Real start_time,
                               fmi2Boolean stop_time_defined, fmi2Real stop_time) {
  (void)tolerance_defined, (void)tolerance, (void)stop_time_defined, (void)stop_time;
  data(component)->values[0] = start_time;
  return fmi2OK;
}

fmi2Status fmi2EnterInitializationMode(fmi2Component component) {
  (void)component;
  return fmi2OK;
}

fmi2Status fmi2ExitInitializationMode(fmi2Component component) {
  model_initialize(data(component));
  return fmi2OK;
}

fmi2Status fmi2EnterEventMode(fmi2Component component) {
  (void)component;
  return fmi2OK;
}

fmi2Status fmi2EnterContinuousTimeMode(fmi2Component component) {
  (void)component;
  return fmi2OK;
}

fmi2Status fmi2Terminate(fmi2Component component) {
  (void)component;
  return fmi2OK;
}

fmi2Status fmi2Reset(fmi2Component component) {
  memset(data(component), 0, sizeof(ModelData));
  model_start(data(component));
  return fmi2OK;
}

fmi2Status fmi2NewDiscreteStates(fmi2Component component, fmi2EventInfo* info) {
  ModelData* m = data(component);
  m->values_changed = false;
  m->terminate = false;
  model_event(m);
  info->newDiscreteStatesNeeded = fmi2False;
  info->terminateSimulation = m->terminate ? fmi2True : fmi2False;
  info->nominalsOfContinuousStatesChanged = fmi2False;
  info->valuesOfContinuousStatesChanged = m->values_changed ? fmi2True : fmi2False;
  info->nextEventTimeDefined = m->next_event_defined ? fmi2True : fmi2False;
  info->nextEventTime = m->next_event;
  return fmi2OK;
}

fmi2Status fmi2CompletedIntegratorStep(fmi2Component component, fmi2Boolean no_prior_state,
                                       fmi2Boolean* enter_event_mode, fmi2Boolean* terminate) {
  (void)component, (void)no_prior_state;
  *enter_event_mode = fmi2False;
  *terminate = fmi2False;
  return fmi2OK;
}

fmi2Status fmi2SetTime(fmi2Component component, fmi2Real time) {
  data(component)->values[0] = time;
  return fmi2OK;
}

fmi2Status fmi2SetContinuousStates(fmi2Component component, const fmi2Real states[], size_t count) {
  if (count != MODEL_STATES) return fmi2Error;
  for (size_t k = 0; k < count; ++k) data(component)->values[model_states[k]] = states[k];
  return fmi2OK;
}

fmi2Status fmi2GetContinuousStates(fmi2Component component, fmi2Real states[], size_t count) {
  if (count != MODEL_STATES) return fmi2Error;
  for (size_t k = 0; k < count; ++k) states[k] = data(component)->values[model_states[k]];
  return fmi2OK;
}

fmi2Status fmi2GetDerivatives(fmi2Component component, fmi2Real derivatives[], size_t count) {
  ModelData* m = data(component);
  if (count != MODEL_STATES || !model_evaluate(m)) return fmi2Error;
  for (size_t k = 0; k < count; ++k) derivatives[k] = m->values[model_derivatives[k]];
  return fmi2OK;
}

fmi2Status fmi2GetEventIndicators(fmi2Component component, fmi2Real indicators[], size_t count) {
  if (count != MODEL_INDICATORS) return fmi2Error;
  model_indicators(data(component), indicators);
  return fmi2OK;
}

fmi2Status fmi2GetReal(fmi2Component component, const fmi2ValueReference references[], size_t count,
                       fmi2Real values[]) {
  ModelData* m = data(component);
  if (!model_evaluate(m)) return fmi2Error;
  for (size_t k = 0; k < count; ++k) {
    if (references[k] >= MODEL_VARIABLES) return fmi2Error;
    values[k] = m->values[references[k]];
  }
  return fmi2OK;
}

fmi2Status fmi2SetReal(fmi2Component component, const fmi2ValueReference references[], size_t count,
                       const fmi2Real values[]) {
  for (size_t k = 0; k < count; ++k) {
    if (references[k] >= MODEL_VARIABLES) return fmi2Error;
    data(component)->values[references[k]] = values[k];
  }
  return fmi2OK;
}

#ifdef MODEL_PARTIALS
fmi2GetDirectionalDerivativeFn fmi2GetDirectionalDerivative;

/* dv_unknown = J dv_known with J_ij = d unknowns[i] / d knowns[j] from the model's partials. */
fmi2Status fmi2GetDirectionalDerivative(fmi2Component component,
                                        const fmi2ValueReference unknowns[], size_t unknown_count,
                                        const fmi2ValueReference knowns[], size_t known_count,
                                        const fmi2Real dv_known[], fmi2Real dv_unknown[]) {
  ModelData* m = data(component);
  if (!model_evaluate(m)) return fmi2Error;
  for (size_t i = 0; i < unknown_count; ++i) {
    dv_unknown[i] = 0.0;
    for (size_t j = 0; j < known_count; ++j) {
      dv_unknown[i] += model_partial(m, unknowns[i], knowns[j]) * dv_known[j];
    }
  }
  return fmi2OK;
}
#endif
