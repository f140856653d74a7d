/* Robertson's kinetics as SUNDIALS' example idaRoberts_dns writes it:
 *   der(y1) = -0.04 y1 + 1e4 y2 y3
 *   der(y2) =  0.04 y1 - 1e4 y2 y3 - 3e7 y2^2
 *         0 =  y1 + y2 + y3 - 1
 * with y1 = 1, y2 = y3 = 0 at t = 0, and the example's two root functions y1 - 1e-4 and
 * y3 - 0.01 as event indicators. In DAE mode (fmi-ls-dae, the importer sets dae = true) y3 is
 * the importer's and r its residual; in ODE mode, where every FMU of that layered standard
 * starts, the FMU eliminates y3 = 1 - y1 - y2 itself and r is 0. The partial derivatives are
 * those of SUNDIALS' example's analytic Jacobian. */
#include "model.h"

enum { kTime, kDae, kY1, kDerY1, kY2, kDerY2, kY3, kR, kZ1, kZ2 };

const unsigned model_states[MODEL_STATES] = {kY1, kY2};
const unsigned model_derivatives[MODEL_STATES] = {kDerY1, kDerY2};

void model_start(ModelData* m) {
  m->values[kY1] = 1.0;
  m->values[kY2] = 0.0;
  m->values[kY3] = 0.0;
}

void model_initialize(ModelData* m) { (void)m; }

static double y3(const ModelData* m) {
  return m->values[kDae] != 0.0 ? m->values[kY3] : 1.0 - m->values[kY1] - m->values[kY2];
}

bool model_evaluate(ModelData* m) {
  const double y1 = m->values[kY1];
  const double y2 = m->values[kY2];
  m->values[kY3] = y3(m);
  m->values[kDerY1] = -0.04 * y1 + 1.0e4 * y2 * m->values[kY3];
  m->values[kDerY2] = 0.04 * y1 - 1.0e4 * y2 * m->values[kY3] - 3.0e7 * y2 * y2;
  m->values[kR] = y1 + y2 + m->values[kY3] - 1.0;
  return true;
}

void model_indicators(const ModelData* m, double z[]) {
  z[0] = m->values[kY1] - 1.0e-4;
  z[1] = y3(m) - 0.01;
}

void model_event(ModelData* m) { (void)m; }

/* d(y3)/d(known): y3 itself in DAE mode; in ODE mode y3 = 1 - y1 - y2. */
static double y3_partial(const ModelData* m, unsigned known) {
  if (m->values[kDae] != 0.0) return known == kY3 ? 1.0 : 0.0;
  return known == kY1 || known == kY2 ? -1.0 : 0.0;
}

double model_partial(ModelData* m, unsigned unknown, unsigned known) {
  const double y2 = m->values[kY2];
  const double y3 = m->values[kY3];
  const double dy1 = known == kY1 ? 1.0 : 0.0;
  const double dy2 = known == kY2 ? 1.0 : 0.0;
  const double dy3 = y3_partial(m, known);
  const double d_reaction = 1.0e4 * (dy2 * y3 + y2 * dy3); /* of 1e4 y2 y3 */
  switch (unknown) {
    case kDerY1:
      return -0.04 * dy1 + d_reaction;
    case kDerY2:
      return 0.04 * dy1 - d_reaction - 6.0e7 * y2 * dy2;
    case kR:
      return dy1 + dy2 + dy3;
    default:
      return 0.0;
  }
}
