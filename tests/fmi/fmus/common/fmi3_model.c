/* The FMI 3.0 Model Exchange functions of a test FMU, over the model of model.h. Only what the
 * tests need: no checks of the calling sequence, which is the importer's side under test. */
#include <stdlib.h>
#include <string.h>

#include "fmi3_api.h"
#include "model.h"

typedef struct {
  ModelData model;
  fmi3LogMessageCallback log;
  fmi3InstanceEnvironment environment;
} Instance;

/* The declarations check that each definition has the importer's signature. */
fmi3InstantiateModelExchangeFn fmi3InstantiateModelExchange;
fmi3FreeInstanceFn fmi3FreeInstance;
fmi3EnterInitializationModeFn fmi3EnterInitializationMode;
fmi3InstanceFn fmi3ExitInitializationMode, fmi3EnterEventMode, fmi3EnterContinuousTimeMode,
    fmi3Terminate, fmi3Reset, fmi3EnterConfigurationMode, fmi3ExitConfigurationMode;
fmi3UpdateDiscreteStatesFn fmi3UpdateDiscreteStates;
fmi3CompletedIntegratorStepFn fmi3CompletedIntegratorStep;
fmi3SetTimeFn fmi3SetTime;
fmi3SetContinuousStatesFn fmi3SetContinuousStates;
fmi3GetArrayFn fmi3GetContinuousStates, fmi3GetContinuousStateDerivatives, fmi3GetEventIndicators;
fmi3GetFloat64Fn fmi3GetFloat64;
fmi3SetFloat64Fn fmi3SetFloat64;
fmi3SetBooleanFn fmi3SetBoolean;

static ModelData* data(fmi3Instance instance) { return &((Instance*)instance)->model; }

static void log_error(fmi3Instance instance, const char* message) {
  Instance* i = (Instance*)instance;
  if (i->log != NULL) i->log(i->environment, fmi3Error, "logStatusError", message);
}

fmi3Instance fmi3InstantiateModelExchange(fmi3String instance_name, fmi3String token,
                                          fmi3String resource_path, fmi3Boolean visible,
                                          fmi3Boolean logging_on,
                                          fmi3InstanceEnvironment environment,
                                          fmi3LogMessageCallback log_message) {
  (void)instance_name, (void)resource_path, (void)visible, (void)logging_on;
  if (token == NULL || strcmp(token, MODEL_TOKEN) != 0) {
    if (log_message != NULL) {
      log_message(environment, fmi3Error, "logStatusError", "wrong instantiation token");
    }
    return NULL;
  }
  Instance* i = calloc(1, sizeof *i);
  if (i == NULL) return NULL;
  i->log = log_message;
  i->environment = environment;
  model_start(&i->model);
  return i;
}

void fmi3FreeInstance(fmi3Instance instance) { free(instance); }

fmi3Status fmi3EnterInitializationMode(fmi3Instance instance, fmi3Boolean tolerance_defined,
                                       fmi3Float64 tolerance, fmi3Float64 start_time,
                                       fmi3Boolean stop_time_defined, fmi3Float64 stop_time) {
  (void)tolerance_defined, (void)tolerance, (void)stop_time_defined, (void)stop_time;
  data(instance)->values[0] = start_time;
  return fmi3OK;
}

fmi3Status fmi3ExitInitializationMode(fmi3Instance instance) {
  model_initialize(data(instance));
  return fmi3OK;
}

fmi3Status fmi3EnterEventMode(fmi3Instance instance) {
  (void)instance;
  return fmi3OK;
}

fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance instance) {
  (void)instance;
  return fmi3OK;
}

fmi3Status fmi3Terminate(fmi3Instance instance) {
  (void)instance;
  return fmi3OK;
}

fmi3Status fmi3Reset(fmi3Instance instance) {
  /* What the importer chose at instantiation outlives a reset. */
  const bool early_return_allowed = data(instance)->early_return_allowed;
  const bool event_mode_used = data(instance)->event_mode_used;
  memset(data(instance), 0, sizeof(ModelData));
  data(instance)->early_return_allowed = early_return_allowed;
  data(instance)->event_mode_used = event_mode_used;
  model_start(data(instance));
  return fmi3OK;
}

fmi3Status fmi3UpdateDiscreteStates(fmi3Instance instance, fmi3Boolean* needs_update,
                                    fmi3Boolean* terminate, fmi3Boolean* nominals_changed,
                                    fmi3Boolean* values_changed, fmi3Boolean* next_event_defined,
                                    fmi3Float64* next_event_time) {
  ModelData* m = data(instance);
  m->values_changed = false;
  m->terminate = false;
  model_event(m);
  *needs_update = false;
  *terminate = m->terminate;
  *nominals_changed = false;
  *values_changed = m->values_changed;
  *next_event_defined = m->next_event_defined;
  *next_event_time = m->next_event;
  return fmi3OK;
}

fmi3Status fmi3CompletedIntegratorStep(fmi3Instance instance, fmi3Boolean no_prior_state,
                                       fmi3Boolean* enter_event_mode, fmi3Boolean* terminate) {
  (void)instance, (void)no_prior_state;
#ifdef MODEL_STEP_EVENTS
  ModelData* m = data(instance);
  m->terminate = false;
  *enter_event_mode = model_completed_step(m);
  *terminate = m->terminate;
#else
  *enter_event_mode = false;
  *terminate = false;
#endif
  return fmi3OK;
}

fmi3Status fmi3SetTime(fmi3Instance instance, fmi3Float64 time) {
  data(instance)->values[0] = time;
  return fmi3OK;
}

fmi3Status fmi3SetContinuousStates(fmi3Instance instance, const fmi3Float64 states[],
                                   size_t count) {
  if (count != MODEL_STATES) return fmi3Error;
  for (size_t k = 0; k < count; ++k) data(instance)->values[model_states[k]] = states[k];
  return fmi3OK;
}

fmi3Status fmi3GetContinuousStates(fmi3Instance instance, fmi3Float64 states[], size_t count) {
  if (count != MODEL_STATES) return fmi3Error;
  for (size_t k = 0; k < count; ++k) states[k] = data(instance)->values[model_states[k]];
  return fmi3OK;
}

fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance instance, fmi3Float64 derivatives[],
                                             size_t count) {
  ModelData* m = data(instance);
  if (count != MODEL_STATES) return fmi3Error;
  if (!model_evaluate(m)) {
    log_error(instance, m->failure);
    return fmi3Error;
  }
  for (size_t k = 0; k < count; ++k) derivatives[k] = m->values[model_derivatives[k]];
  return fmi3OK;
}

fmi3Status fmi3GetEventIndicators(fmi3Instance instance, fmi3Float64 indicators[], size_t count) {
  if (count != MODEL_INDICATORS) return fmi3Error;
  model_indicators(data(instance), indicators);
  return fmi3OK;
}

fmi3Status fmi3GetFloat64(fmi3Instance instance, const fmi3ValueReference references[],
                          size_t reference_count, fmi3Float64 values[], size_t value_count) {
  ModelData* m = data(instance);
  if (reference_count != value_count) return fmi3Error;
  if (!model_evaluate(m)) {
    log_error(instance, m->failure);
    return fmi3Error;
  }
  for (size_t k = 0; k < reference_count; ++k) {
    if (references[k] >= MODEL_VARIABLES) return fmi3Error;
    values[k] = m->values[references[k]];
  }
  return fmi3OK;
}

fmi3Status fmi3SetFloat64(fmi3Instance instance, const fmi3ValueReference references[],
                          size_t reference_count, const fmi3Float64 values[], size_t value_count) {
  if (reference_count != value_count) return fmi3Error;
  for (size_t k = 0; k < reference_count; ++k) {
    if (references[k] >= MODEL_VARIABLES) return fmi3Error;
    data(instance)->values[references[k]] = values[k];
  }
  return fmi3OK;
}

/* Configuration Mode, for the structural parameter of fmi-ls-dae's DAE mode (robertson). */
fmi3Status fmi3EnterConfigurationMode(fmi3Instance instance) {
  (void)instance;
  return fmi3OK;
}

fmi3Status fmi3ExitConfigurationMode(fmi3Instance instance) {
  (void)instance;
  return fmi3OK;
}

/* Booleans are kept among the values, as 0 and 1. */
fmi3Status fmi3SetBoolean(fmi3Instance instance, const fmi3ValueReference references[],
                          size_t reference_count, const fmi3Boolean values[], size_t value_count) {
  if (reference_count != value_count) return fmi3Error;
  for (size_t k = 0; k < reference_count; ++k) {
    if (references[k] >= MODEL_VARIABLES) return fmi3Error;
    data(instance)->values[references[k]] = values[k] ? 1.0 : 0.0;
  }
  return fmi3OK;
}

#ifdef MODEL_PARTIALS
fmi3GetDerivativeFn fmi3GetDirectionalDerivative;

/* sensitivity = J seed with J_ij = d unknowns[i] / d knowns[j] from the model's partials. */
fmi3Status fmi3GetDirectionalDerivative(fmi3Instance instance, const fmi3ValueReference unknowns[],
                                        size_t unknown_count, const fmi3ValueReference knowns[],
                                        size_t known_count, const fmi3Float64 seed[],
                                        size_t seed_count, fmi3Float64 sensitivity[],
                                        size_t sensitivity_count) {
  ModelData* m = data(instance);
  if (seed_count != known_count || sensitivity_count != unknown_count) return fmi3Error;
  if (!model_evaluate(m)) {
    log_error(instance, m->failure);
    return fmi3Error;
  }
  for (size_t i = 0; i < unknown_count; ++i) {
    sensitivity[i] = 0.0;
    for (size_t j = 0; j < known_count; ++j) {
      sensitivity[i] += model_partial(m, unknowns[i], knowns[j]) * seed[j];
    }
  }
  return fmi3OK;
}
#endif
