/* Van der Pol's oscillator: der(x0) = x1, der(x1) = mu (1 - x0^2) x1 - x0. */
#include "model.h"

enum { kTime, kX0, kDerX0, kX1, kDerX1, kMu };

const unsigned model_states[MODEL_STATES] = {kX0, kX1};
const unsigned model_derivatives[MODEL_STATES] = {kDerX0, kDerX1};

void model_start(ModelData* m) {
  m->values[kX0] = 2.0;
  m->values[kX1] = 0.0;
  m->values[kMu] = 1.0;
}

void model_initialize(ModelData* m) { (void)m; }

bool model_evaluate(ModelData* m) {
  const double x0 = m->values[kX0];
  const double x1 = m->values[kX1];
  m->values[kDerX0] = x1;
  m->values[kDerX1] = m->values[kMu] * (1.0 - x0 * x0) * x1 - x0;
  return true;
}

void model_indicators(const ModelData* m, double z[]) { (void)m, (void)z; }

void model_event(ModelData* m) { (void)m; }
