// How a run ended (docs/design.md, "Errors and outcomes"): expected numerical outcomes are a status
// with reason, time and a message naming the variables and equations involved, never an exception.
#pragma once

#include <string>
#include <string_view>

namespace hdae {

enum class Outcome {
  kNotRun,   ///< nothing has run yet (a default-constructed status)
  kRunning,  ///< a Simulator initialized or advanced, not yet at its stop time
  kReachedStopTime,
  kStoppedByModel,
  kSolverFailure,        ///< IDA could not continue (error test, convergence, too much work)
  kEventIterationLimit,  ///< crossings kept flipping at one instant
  kChattering,           ///< events accumulate (Zeno behaviour)
  kSingularJacobian,     ///< J = [M_d; d f_c/dx] is singular: not index 1 in this mode
  kJumpSolveFailure,     ///< no consistent x^+ or der_x^+ (no convergence, non-finite values)
  kWallClockLimit,       ///< SimulationOptions::max_wall_time_s was reached
  kInterrupted,          ///< SimulationOptions::cancel was set (e.g. by SIGINT)
  kResultLimit,          ///< the result in memory outgrew SimulationOptions::max_result_bytes
  kModelFailure,         ///< model code threw (ModelCallbackError's partial result)
  kEngineFailure,        ///< the engine failed: SUNDIALS, memory, a row sink (EngineError)
};

[[nodiscard]] std::string_view to_string(Outcome outcome);

struct SimulationStatus {
  Outcome outcome = Outcome::kNotRun;
  double t = 0.0;       ///< time reached, s
  std::string message;  ///< empty on success

  /// The run reached its stop time or the model ended it: a complete result.
  [[nodiscard]] bool ok() const {
    return outcome == Outcome::kReachedStopTime || outcome == Outcome::kStoppedByModel;
  }
};

}  // namespace hdae
