// Names of outcomes and event kinds (status.hpp, result.hpp), as they appear in status
// messages, summaries and the event log.
#include "hdae/status.hpp"
#include "hdae/result.hpp"

namespace hdae {

std::string_view to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::kNotRun:
      return "not run";
    case Outcome::kRunning:
      return "running";
    case Outcome::kReachedStopTime:
      return "reached stop time";
    case Outcome::kStoppedByModel:
      return "stopped by model";
    case Outcome::kSolverFailure:
      return "solver failure";
    case Outcome::kEventIterationLimit:
      return "event iteration limit";
    case Outcome::kChattering:
      return "chattering";
    case Outcome::kSingularJacobian:
      return "singular Jacobian";
    case Outcome::kJumpSolveFailure:
      return "jump solve failure";
    case Outcome::kWallClockLimit:
      return "wall-clock limit";
    case Outcome::kInterrupted:
      return "interrupted";
    case Outcome::kResultLimit:
      return "result size limit";
    case Outcome::kModelFailure:
      return "model failure";
    case Outcome::kEngineFailure:
      return "engine failure";
  }
  return "unknown outcome";  // unreachable for valid enumerators
}

std::string_view to_string(EventKind kind) {
  switch (kind) {
    case EventKind::kInitial:
      return "initial";
    case EventKind::kTime:
      return "time";
    case EventKind::kState:
      return "state";
    case EventKind::kTerminal:
      return "terminal";
    case EventKind::kStep:
      return "step";
  }
  return "unknown event kind";  // unreachable for valid enumerators
}

}  // namespace hdae
