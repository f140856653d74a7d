/* der(x) = -x from x = 1. The first integrator step that ends with x below 1/2 asks for Event
 * Mode (fmi3CompletedIntegratorStep), and the event sets x back to 1, once. Such a model has no
 * event indicator: the event comes where the importer's step happens to end. Every step that
 * ends at or after the parameter t_terminate asks to terminate the simulation instead. */
#include "model.h"

enum { kTime, kX, kDerX, kTerminate };

const unsigned model_states[MODEL_STATES] = {kX};
const unsigned model_derivatives[MODEL_STATES] = {kDerX};

void model_start(ModelData* m) {
  m->values[kX] = 1.0;
  m->values[kTerminate] = 1e9;
}

void model_initialize(ModelData* m) { (void)m; }

bool model_evaluate(ModelData* m) {
  m->values[kDerX] = -m->values[kX];
  return true;
}

void model_indicators(const ModelData* m, double z[]) { (void)m, (void)z; }

/* The event the model asks for after a step: x fell below 1/2 for the first time. */
static bool below_half(const ModelData* m) { return m->mode == 0 && m->values[kX] < 0.5; }

bool model_completed_step(ModelData* m) {
  m->terminate = m->values[kTime] >= m->values[kTerminate];
  return below_half(m);
}

void model_event(ModelData* m) {
  if (!below_half(m)) return;
  m->values[kX] = 1.0;
  m->mode = 1;
  m->values_changed = true;
}
