// Continuing IDA across an event at its order and step size instead of restarting it at
// order 1 (RestartStep::kKeepOrder, docs/design.md, "Restarts").
//
// IDA's history is the polynomial P through the solution at its last k + 1 step ends, kept as
// modified divided differences (phi). After an event at t the solution goes on from the right
// limit (y+, y'+, and y''+ when known). The history IDA continues from is a fictitious one:
// P shifted by the jump,
//   Q(s) = P(s) + (y+ - P(t)) + (s - t) (y'+ - P'(t)) + (s - t)^2 / 2 (y''+ - P''(t)),
// sampled at the equally spaced instants t, t - h, ..., t - k h. Q meets the right limit in
// value, slope and (with y''+) curvature at t, and keeps P's third and higher derivatives.
// A switched force changes the curvature of the position it acts on, so without y''+ the
// first steps' error tests fail and IDA cuts step and order; with it Q is wrong only from the
// third derivative on, which the force reaches through damping and springs. When the event
// changes only value and slope (a bounce under gravity) Q is exact. For equally spaced
// instants the modified divided differences are the backward differences of Q, so only phi
// and the step data change.
//
// IDA has no public call for this, nor for the other write below (a linear setup forced after
// the Jacobian's pattern changed): this file is the one place in hdae that writes IDA's memory
// (ida_impl.h of SUNDIALS 6), which is why the layout is checked against the version.
#pragma once

#include <sundials/sundials_nvector.h>

namespace hdae::sundials {

/// The right limit at an event instant t: y+, y'+ and, when known, y''+ (null otherwise).
struct RightLimit {
  double t = 0.0;
  N_Vector y = nullptr;
  N_Vector yp = nullptr;
  N_Vector ypp = nullptr;
};

/// Replaces IDA's history by the shifted one above and sets IDA to continue from t with step
/// h at the order it last used, the root functions evaluated afresh at t. The curvature term needs
/// an order of at least 2 (a line carries no curvature); at order 1 y''+ is not used. work and
/// work2 are scratch vectors of the right limit's kind. Returns false, leaving IDA untouched,
/// when there is no history to shift: before the first step, or when t lies outside IDA's
/// last step.
bool shift_history(void* ida_mem, const RightLimit& limit, double h, N_Vector work, N_Vector work2);

/// Makes IDA's next nonlinear solve begin with a linear setup (a Jacobian and its
/// factorisation), whatever the ratio of its cj to the one of the last setup, for an IDA that
/// goes on with its history after its matrix got another pattern and its KLU object lost the
/// factorisation of the old one. False when there is no IDA.
bool force_linear_setup(void* ida_mem);

}  // namespace hdae::sundials
