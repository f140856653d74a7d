// How a run ends early, methods of detail::Run: a stop request (the cancel flag, the
// wall-clock limit) noticed during event handling, and an exception thrown by model code,
// which is rethrown as ModelCallbackError with the rows, events and a last row kept
// (README "When things go wrong").
#include <algorithm>
#include <chrono>
#include <exception>
#include <limits>
#include <memory>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "simulator/run.hpp"

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

}  // namespace

std::string Run::stop_message(double t) const {
  if (stop_request_ == Outcome::kInterrupted) return fmt::format("interrupted at t = {}", t);
  return fmt::format("wall-clock limit of {} s reached at t = {}", options_.max_wall_time_s, t);
}

std::string Run::failure_message() const {
  const char* phase = "";
  switch (phase_) {
    case Phase::kInitialization:
      phase = "initialization";
      break;
    case Phase::kIntegration:
      phase = "integration";
      break;
    case Phase::kEventEvaluation:
      phase = "event evaluation";
      break;
    case Phase::kEventHandler:
      phase = "event handler";
      break;
    case Phase::kJumpSolve:
      phase = "jump solve";
      break;
    case Phase::kOutput:
      phase = "output";
      break;
  }
  return fmt::format("model '{}' failed in {} at t = {}: {}", structure_.name, phase, phase_t_,
                     current_exception_text());
}

void Run::rethrow_as_callback_error() {
  std::string message = failure_message();
  result_.status = SimulationStatus{Outcome::kSolverFailure, phase_t_, message};
  keep_last_row();
  finish_statistics();
  if (stream_) {
    // A stream file that cannot be completed must not replace the model's failure: it is
    // added to the message, which still names the failure first.
    try {
      stream_->close();
    } catch (const IoError& e) {
      message += fmt::format("; the streamed CSV is incomplete: {}", e.what());
      result_.status.message = message;
    }
  }
  auto partial = std::make_shared<const SimulationResult>(std::move(result_));
  std::throw_with_nested(ModelCallbackError(message, std::move(partial)));
}

void Run::keep_last_row() {
  double t = phase_t_;
  if (advancing_from_) {
    // The exception came out of IDA: phase_t_ is the time of a Newton iterate or a root-finding
    // probe, not of a solution. IDA's last completed step is one; keep it when it is new.
    if (!(ida_->t() > *advancing_from_)) return;
    t = ida_->t();
    std::copy(ida_->y().begin(), ida_->y().end(), x_.begin());
    std::copy(ida_->yp().begin(), ida_->yp().end(), der_x_.begin());
  }
  try {
    store_row(t);
    return;
  } catch (const IoError&) {
    return;        // the stream file cannot take more rows; the ones in memory are kept
  } catch (...) {  // NOLINT(bugprone-empty-catch): the model failed again; outputs below
  }
  try {
    append_row_without_outputs(t);
  } catch (const IoError&) {  // NOLINT(bugprone-empty-catch): as above
  }
}

void Run::append_row_without_outputs(double t) {
  std::copy(x_.begin(), x_.end(), row_buffer_.begin());
  std::copy(der_x_.begin(), der_x_.end(), row_buffer_.begin() + static_cast<std::ptrdiff_t>(n_));
  std::fill(row_buffer_.begin() + static_cast<std::ptrdiff_t>(2 * n_), row_buffer_.end(),
            std::numeric_limits<double>::quiet_NaN());
  if (options_.row_storage == RowStorage::kInMemory) result_.table.append(t, row_buffer_);
  if (stream_) stream_->append(t, row_buffer_);
}

}  // namespace hdae::detail
