/* der(x) = -k x + u with the tunable parameter k and the input u; the output y = x + u. */
#include "model.h"

enum { kTime, kX, kDerX, kK, kU, kY };

const unsigned model_states[MODEL_STATES] = {kX};
const unsigned model_derivatives[MODEL_STATES] = {kDerX};

void model_start(ModelData* m) {
  m->values[kX] = 1.0;
  m->values[kK] = 1.0;
  m->values[kU] = 0.0;
}

void model_initialize(ModelData* m) { (void)m; }

bool model_evaluate(ModelData* m) {
  m->values[kDerX] = -m->values[kK] * m->values[kX] + m->values[kU];
  m->values[kY] = m->values[kX] + m->values[kU];
  return true;
}

void model_indicators(const ModelData* m, double z[]) { (void)m, (void)z; }

void model_event(ModelData* m) { (void)m; }
