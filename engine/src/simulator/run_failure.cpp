// How an exception ends a SimulationRun: the rows and events so far are kept with a last row,
// the sinks are told the run is over, and the exception is rethrown as ModelCallbackError
// (model code threw: ModelCalls noted the phase and time) or EngineError (anything else:
// SUNDIALS, memory, a row sink), with the original nested and the partial result attached.
#include <algorithm>
#include <exception>
#include <memory>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "simulator/simulation_run.hpp"

namespace hdae::detail {
namespace {

/// The what() of the exception being handled.
std::string current_exception_text() {
  try {
    throw;
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an exception not derived from std::exception";
  }
}

/// True when the exception being handled is a RecoverableError.
bool current_is_recoverable() {
  try {
    throw;
  } catch (const RecoverableError&) {
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace

std::string SimulationRun::exception_message() const {
  if (const auto& failure = model_.failure()) {
    std::string message =
        fmt::format("model '{}' failed in {} at t = {}: {}", u_.structure->name,
                    to_string(failure->phase), failure->t, current_exception_text());
    if (current_is_recoverable()) {
      message +=
          " (RecoverableError lets IDA retry a step with a smaller one; here no step can be "
          "retried, so it ends the run)";
    }
    return message;
  }
  return fmt::format("engine failure at t = {}: {}", step_.t, current_exception_text());
}

void SimulationRun::end_by_exception() {
  std::string message = exception_message();
  const bool by_model = model_.failure().has_value();
  const double t = by_model ? model_.failure()->t : step_.t;
  life_.status = {by_model ? Outcome::kModelFailure : Outcome::kEngineFailure, t, message};
  life_.stage = Stage::kEnded;
  life_.wall_time_s = stop_watch_.elapsed_s();
  keep_last_row(t);
  try {
    end_output();
  } catch (const std::exception& e) {
    // A file that cannot be completed must not replace the failure: it is added to the
    // message, which still names the failure first.
    message += fmt::format("; a row sink failed at the end of the run: {}", e.what());
    life_.status.message = message;
  }
  auto partial = std::make_shared<const SimulationResult>(take_result());
  if (by_model) std::throw_with_nested(ModelCallbackError(message, std::move(partial)));
  std::throw_with_nested(EngineError(message, std::move(partial)));
}

void SimulationRun::keep_last_row(double t) {
  if (step_.stepping_from) {
    // The exception came out of IDA: t is the time of a Newton iterate or a root-finding
    // probe, not of a solution. IDA's last completed step is one; keep it when no row holds
    // it yet.
    take_ida_state();
    t = step_.t;
    if (!(t > output_.recorder.last_time())) return;
  }
  try {
    store_row(t);
    return;
  } catch (const IoError&) {
    return;        // a sink cannot take more rows; the other sinks keep theirs
  } catch (...) {  // NOLINT(bugprone-empty-catch): the model failed again; outputs below
  }
  try {
    output_.recorder.store_without_outputs(t, u_.x, u_.der_x);
  } catch (...) {  // NOLINT(bugprone-empty-catch): as above
  }
}

}  // namespace hdae::detail
