// The simulator: drives a SimulationModel through IDA, events and re-initialization.
//
// Algorithm (DESIGN.md section 2; x^-(t) is the left limit, x^+(t) the right limit):
//
//   x^-(t0) = start values
//   initial event iteration at t0 (model's on_event with kind kInitial), jump solve -> x^+(t0)
//   store row (t0, x^+(t0))
//   loop until stop time or termination:
//     integrate with IDA to min(next output point, next time event, stop), roots of z
//     store row (t, x(t))                               left limit x^-(t_e) when an event
//     if an event (state and/or time) at t_e:
//       repeat (at most max_event_iterations passes):
//         evaluate at t_e with crossing Booleans following their values; note flips
//         model's on_event: modes, row kinds, x overwrites, time events, termination
//         jump solve: x^+ from x^- over the Dirac impulses (ITI paper eq. 8), der_x^+
//       while a crossing flipped or the model asked for another pass
//       store row (t_e, x^+(t_e))                       right limit
//       harvest IDA's counters, IDAReInit from (x^+, der_x^+)
//
// On failure (IDA error, iteration limit, chattering, singular J, failed jump solve) the run
// stops there: the rows and events so far stay in the result, a last row at the failure time
// is added, and the status says why, when and which variables/equations are involved. The
// cancel flag and the wall-clock limit, checked in residual calls and after every pass of
// an event iteration, stop the run the same way. Exceptions thrown by model code are caught
// at the C boundary and rethrown from simulate() as ModelCallbackError with phase and time,
// carrying the partial result (ModelCallbackError::partial_result()).
#pragma once

#include "hdae/model.hpp"
#include "hdae/options.hpp"
#include "hdae/result.hpp"

namespace hdae {

/// Runs model from options.start_s to options.stop_s. The model's discrete state is reset()
/// first. Throws OptionError / ModelError for invalid input before integrating.
[[nodiscard]] SimulationResult simulate(SimulationModel& model, const SimulationOptions& options);

}  // namespace hdae
