// How a run ended (STYLE.md "Errors"): expected numerical outcomes are a status with reason,
// time and a message naming the variables and equations involved, never an exception.
#pragma once

#include <string>
#include <string_view>

namespace hdae {

enum class Outcome {
  kReachedStopTime,
  kStoppedByModel,
  kSolverFailure,        ///< IDA could not continue (error test, convergence, too much work)
  kEventIterationLimit,  ///< crossings kept flipping at one instant
  kChattering,           ///< events accumulate (Zeno behaviour)
  kSingularJacobian,     ///< J = [M_d; d f_c/dx] is singular: not index 1 in this mode
  kJumpSolveFailure,     ///< no consistent state after an event
  kWallClockLimit,       ///< SimulationOptions::max_wall_time_s was reached
  kInterrupted,          ///< SimulationOptions::cancel was set (e.g. by SIGINT)
};

[[nodiscard]] std::string_view to_string(Outcome outcome);

struct SimulationStatus {
  Outcome outcome = Outcome::kReachedStopTime;
  double t = 0.0;       ///< time reached, s
  std::string message;  ///< empty on success

  [[nodiscard]] bool ok() const {
    return outcome == Outcome::kReachedStopTime || outcome == Outcome::kStoppedByModel;
  }
};

}  // namespace hdae
