/* x = t (der(x) = 1 from x = 0), stepped by a fmi3DoStep of its own that gets stuck: it
 * advances exactly up to the parameter t_stuck, returns early there as at an event, and from
 * then on returns early at once, without advancing, however often it is called. An importer
 * that steps on from lastSuccessfulTime after each early return would loop forever. With the
 * parameter back > 0 a stuck step reports a lastSuccessfulTime that far before its
 * communication point, which the standard does not allow. The model needs early return
 * (earlyReturnAllowed): without it every step fails. */
#include <stddef.h>

#include "fmi3_api.h"
#include "model.h"

enum { kTime, kX, kDerX, kStuck, kBack };

const unsigned model_states[MODEL_STATES] = {kX};
const unsigned model_derivatives[MODEL_STATES] = {kDerX};

void model_start(ModelData* m) {
  m->values[kX] = 0.0;
  m->values[kStuck] = 0.55;
  m->values[kBack] = 0.0;
}

void model_initialize(ModelData* m) { (void)m; }

bool model_evaluate(ModelData* m) {
  m->values[kDerX] = 1.0;
  return true;
}

void model_indicators(const ModelData* m, double z[]) { (void)m, (void)z; }

void model_event(ModelData* m) { (void)m; }

fmi3InstantiateCoSimulationFn fmi3InstantiateCoSimulation;
fmi3DoStepFn fmi3DoStep;
fmi3InstantiateModelExchangeFn fmi3InstantiateModelExchange; /* fmi3_model.c */

fmi3Instance fmi3InstantiateCoSimulation(fmi3String instance_name, fmi3String token,
                                         fmi3String resource_path, fmi3Boolean visible,
                                         fmi3Boolean logging_on, fmi3Boolean event_mode_used,
                                         fmi3Boolean early_return_allowed,
                                         const fmi3ValueReference required_intermediate_variables[],
                                         size_t required_count, fmi3InstanceEnvironment environment,
                                         fmi3LogMessageCallback log_message,
                                         fmi3IntermediateUpdateCallback intermediate_update) {
  (void)event_mode_used, (void)required_intermediate_variables, (void)required_count,
      (void)intermediate_update;
  fmi3Instance instance = fmi3InstantiateModelExchange(instance_name, token, resource_path, visible,
                                                       logging_on, environment, log_message);
  if (instance != NULL) ((ModelData*)instance)->early_return_allowed = early_return_allowed;
  return instance;
}

fmi3Status fmi3DoStep(fmi3Instance instance, fmi3Float64 t, fmi3Float64 h,
                      fmi3Boolean no_prior_state, fmi3Boolean* event_handling_needed,
                      fmi3Boolean* terminate, fmi3Boolean* early_return, fmi3Float64* last_time) {
  (void)no_prior_state;
  ModelData* m = (ModelData*)instance; /* the instance begins with its model (fmi3_model.c) */
  *event_handling_needed = false;
  *terminate = false;
  *early_return = false;
  *last_time = t;
  if (!m->early_return_allowed) return fmi3Error;
  const double stuck = m->values[kStuck];
  if (t >= stuck) {
    *early_return = true;
    *last_time = t - m->values[kBack];
    return fmi3OK;
  }
  double end = t + h;
  if (end > stuck) {
    end = stuck;
    *early_return = true;
  }
  m->values[kX] += end - t; /* der(x) = 1: exact */
  m->values[kTime] = end;
  *last_time = end;
  return fmi3OK;
}
