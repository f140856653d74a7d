/* Van der Pol's oscillator: der(x0) = x1, der(x1) = mu (1 - x0^2) x1 - x0, with the
 * partial derivatives of its directional derivatives. */
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

double model_partial(ModelData* m, unsigned unknown, unsigned known) {
  const double x0 = m->values[kX0];
  const double x1 = m->values[kX1];
  const double mu = m->values[kMu];
  if (unknown == kDerX0) return known == kX1 ? 1.0 : 0.0;
  if (unknown != kDerX1) return 0.0;
  if (known == kX0) return -2.0 * mu * x0 * x1 - 1.0;
  return known == kX1 ? mu * (1.0 - x0 * x0) : 0.0;
}
