/* der(x) = -x until t = 0.5, then a failure: with FAULT_NAN a NaN derivative, with
 * MODEL_PARTIALS a NaN directional derivative (the derivative stays -x), otherwise fmi3Error
 * from the derivatives with a logged reason. */
#include <math.h>

#include "model.h"

enum { kTime, kX, kDerX };

const unsigned model_states[MODEL_STATES] = {kX};
const unsigned model_derivatives[MODEL_STATES] = {kDerX};

void model_start(ModelData* m) { m->values[kX] = 1.0; }

void model_initialize(ModelData* m) { (void)m; }

bool model_evaluate(ModelData* m) {
#ifdef MODEL_PARTIALS
  m->values[kDerX] = -m->values[kX];
  return true;
#endif
  if (m->values[kTime] < 0.5) {
    m->values[kDerX] = -m->values[kX];
    return true;
  }
#ifdef FAULT_NAN
  m->values[kDerX] = NAN;
  return true;
#else
  m->failure = "the rate table ends at t = 0.5";
  return false;
#endif
}

void model_indicators(const ModelData* m, double z[]) { (void)m, (void)z; }

void model_event(ModelData* m) { (void)m; }

#ifdef MODEL_PARTIALS
double model_partial(ModelData* m, unsigned unknown, unsigned known) {
  if (unknown != kDerX || known != kX) return 0.0;
  return m->values[kTime] < 0.5 ? -1.0 : NAN;
}
#endif
