/* A stair: the discrete output u steps up by 1 at t = 1, 2, 3, ... (time events the FMU
 * announces one at a time), and der(x) = u, so x integrates the stair. */
#include "model.h"

enum { kTime, kX, kDerX, kU };

const unsigned model_states[MODEL_STATES] = {kX};
const unsigned model_derivatives[MODEL_STATES] = {kDerX};

void model_start(ModelData* m) {
  m->values[kX] = 0.0;
  m->values[kU] = 0.0;
}

void model_initialize(ModelData* m) {
  m->next_event_defined = true;
  m->next_event = 1.0;
}

bool model_evaluate(ModelData* m) {
  m->values[kDerX] = m->values[kU];
  return true;
}

void model_indicators(const ModelData* m, double z[]) { (void)m, (void)z; }

void model_event(ModelData* m) {
  if (m->values[kTime] < m->next_event) return;
  m->values[kU] += 1.0;
  m->next_event += 1.0;
}
