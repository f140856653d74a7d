/* The bouncing ball: der(h) = v, der(v) = -g; when h reaches the ground falling, v := -e v,
 * and when that rebound would be slower than v_stop the FMU asks to terminate. */
#include "model.h"

enum { kTime, kH, kDerH, kV, kDerV, kG, kE, kVStop };

const unsigned model_states[MODEL_STATES] = {kH, kV};
const unsigned model_derivatives[MODEL_STATES] = {kDerH, kDerV};

void model_start(ModelData* m) {
  m->values[kH] = 1.0;
  m->values[kV] = 0.0;
  m->values[kG] = 9.81;
  m->values[kE] = 0.7;
  m->values[kVStop] = 1.0;
}

void model_initialize(ModelData* m) { (void)m; }

bool model_evaluate(ModelData* m) {
  m->values[kDerH] = m->values[kV];
  m->values[kDerV] = -m->values[kG];
  return true;
}

/* The ground: the indicator changes its sign at every impact (and at every lift-off). */
void model_indicators(const ModelData* m, double z[]) { z[0] = m->values[kH]; }

void model_event(ModelData* m) {
  if (m->values[kH] > 0.0 || m->values[kV] >= 0.0) return;
  const double rebound = -m->values[kE] * m->values[kV];
  if (rebound < m->values[kVStop]) {
    m->terminate = true;
    return;
  }
  m->values[kV] = rebound;
  m->values_changed = true;
}
