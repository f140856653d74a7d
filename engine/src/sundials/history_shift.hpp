// Continuing IDA across an event at its order and step size instead of restarting it at
// order 1 (RestartStep::kKeepOrder, docs/design.md, "Restarts").
//
// IDA's history is the polynomial P through the solution at its last k + 1 step ends, kept as
// modified divided differences (phi). After an event at t the solution goes on from the right
// limit (y+, y'+). The history IDA continues from is a fictitious one: P shifted by the jump,
//   Q(s) = P(s) + (y+ - P(t)) + (s - t) (y'+ - P'(t)),
// sampled at the equally spaced instants t, t - h, ..., t - k h. Q meets the right limit in
// value and slope at t, and keeps P's higher derivatives: exact when the event changes the
// solution's value and slope only (a bounce under gravity, a switched force on a slow
// system); otherwise the first steps' error tests see the difference and IDA lowers the step
// or order as after any failed step. For equally spaced instants the modified divided
// differences are the backward differences of Q, so only phi and the step data change.
//
// IDA has no public call for this: it is the one place in hdae that writes IDA's memory
// (ida_impl.h of SUNDIALS 6), which is why the layout is checked against the version.
#pragma once

#include <sundials/sundials_nvector.h>

namespace hdae::sundials {

/// Replaces IDA's history by the shifted one above and sets IDA to continue from t with step
/// h at the order it last used, rootfinding re-evaluated at t. y and yp hold the right limit;
/// work is a scratch vector of their kind. Returns false, leaving IDA untouched, when there is
/// no history to shift: before the first step, or when t lies outside IDA's last step.
bool shift_history(void* ida_mem, double t, N_Vector y, N_Vector yp, N_Vector work, double h);

}  // namespace hdae::sundials
