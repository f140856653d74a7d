/* der(x) = -x until t = 0.5, then a failure: with FAULT_NAN a NaN derivative, otherwise
 * fmi3Error from the derivatives with a logged reason. */
#include <math.h>

#include "model.h"

enum { kTime, kX, kDerX };

const unsigned model_states[MODEL_STATES] = {kX};
const unsigned model_derivatives[MODEL_STATES] = {kDerX};

void model_start(ModelData* m) { m->values[kX] = 1.0; }

void model_initialize(ModelData* m) { (void)m; }

bool model_evaluate(ModelData* m) {
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
