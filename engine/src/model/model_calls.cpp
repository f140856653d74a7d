#include "model/model_calls.hpp"

#include "hdae/errors.hpp"

namespace hdae::detail {

std::string_view to_string(ModelPhase phase) {
  switch (phase) {
    case ModelPhase::kInitialization:
      return "initialization";
    case ModelPhase::kIntegration:
      return "integration";
    case ModelPhase::kEventEvaluation:
      return "event evaluation";
    case ModelPhase::kEventHandler:
      return "event handler";
    case ModelPhase::kJumpSolve:
      return "jump solve";
    case ModelPhase::kOutput:
      return "output";
  }
  return "unknown phase";  // unreachable for valid enumerators
}

void ModelCalls::fail(double t, const std::string& message) {
  note_failure(t);
  throw ModelError(message);
}

void ModelCalls::on_event(EventContext& context) {
  try {
    model_.on_event(context);
  } catch (...) {
    note_failure(context.t());
    throw;
  }
}

void ModelCalls::reset(double t) {
  try {
    model_.reset();
  } catch (...) {
    note_failure(t);
    throw;
  }
}

bool ModelCalls::jacobian(double t, double cj, std::span<const double> x,
                          std::span<const double> der_x, JacobianEntries& entries) {
  try {
    model_.jacobian(t, cj, x, der_x, entries);
  } catch (const RecoverableError& error) {
    recoverable_ = RecoverableNote{t, error.what()};
    return false;
  } catch (...) {
    note_failure(t);
    throw;
  }
  return true;
}

void ModelCalls::constraint_time_derivative(double t, std::span<const double> x,
                                            std::span<double> dfc_dt) {
  try {
    model_.constraint_time_derivative(t, x, dfc_dt);
  } catch (...) {
    note_failure(t);
    throw;
  }
}

}  // namespace hdae::detail
