// The integration loop of SimulationRun (hdae/simulator.hpp has the algorithm): IDA steps one
// at a time, output rows interpolated from each step, event instants handed to run_events.cpp.
#include <algorithm>

#include <fmt/format.h>

#include "events/same_time.hpp"
#include "simulator/simulation_run.hpp"

namespace hdae::detail {

void SimulationRun::run_until(double target) {
  advance_until(target);
  if (state_from_ida_) take_ida_state();
}

void SimulationRun::advance_until(double target) {
  while (status_.outcome == Outcome::kRunning) {
    if (pending_) {
      if (pending_->t > target) {
        // The step went past the target: the rows up to it, and the state there interpolated
        // from the step, without stopping IDA (the next advance goes on from the same step).
        store_output_rows(*pending_, target);
        if (status_.outcome != Outcome::kRunning) return;
        integration_.ida().interpolate(target, x_, der_x_);
        state_from_ida_ = false;
        t_ = target;
        return;
      }
      const PendingStep step = *pending_;
      pending_.reset();
      process_step(step);
      if (t_ == target) return;
      continue;
    }
    if (t_ == target) return;
    take_step();
  }
}

void SimulationRun::take_step() {
  if (grid_.steps_since_row() >= options_.max_steps_per_interval) {
    too_many_steps();
    return;
  }
  // The schedule changes only at events, so its next entry holds for this whole step.
  const double t_event = std::min(schedule_.next(), options_.stop_s);
  const double t_out = std::min(grid_.next_time(), t_event);
  const double t_stop = options_.step_to_outputs ? t_out : t_event;
  sundials::StepResult result = sundials::StepResult::kFailure;
  const double t_from = integration_.ida().t();
  {
    PhaseScope scope(model_, ModelPhase::kIntegration);
    stepping_from_ = t_from;
    result = integration_.ida().step(t_out, t_stop);
    stepping_from_.reset();
  }
  // A step that ended on an output time (step_to_outputs) is a plain step whose end is that
  // output point: its row is IDA's solution there, not an instant of its own.
  if (result == sundials::StepResult::kReachedStop && t_stop < t_event) {
    result = sundials::StepResult::kStepped;
  }
  grid_.count_step();
  if (result == sundials::StepResult::kFailure) {
    step_failed();
    return;
  }
  if (result == sundials::StepResult::kRoot) root_location_.locate_first_flip(integration_.ida(), t_from);
  pending_ = PendingStep{result, integration_.ida().t()};
  if (stop_watch_.requested()) {
    // The rows up to the step's end, then the run stops there.
    const PendingStep step = *pending_;
    pending_.reset();
    store_output_rows(step, step.t);
    if (status_.outcome != Outcome::kRunning) return;
    take_ida_state();
    store_row(t_);
    finish(stop_watch_.status(t_));
  }
}

void SimulationRun::store_output_rows(const PendingStep& step, double limit) {
  // An event or the stop time at step.t has its own row, which serves as the output row of a
  // grid point at (or within round-off of) the same instant; a plain step end does not.
  const bool instant_row = step.result != sundials::StepResult::kStepped;
  for (;;) {
    const double g = grid_.next_time();
    const bool before_step =
        instant_row ? g < step.t && !same_time(g, step.t) : g <= step.t || same_time(g, step.t);
    if (!before_step || g > limit) return;
    // Interpolated straight into the recorder's row; the run's own x and der_x are set from
    // the step afterwards (process_step, advance_until), or from this row when the run ends
    // here.
    integration_.ida().interpolate(g, recorder_.grid_x(), recorder_.grid_der_x());
    try {
      recorder_.store_grid(grid_.next_index(), g);
    } catch (...) {
      take_grid_row_state(g);  // the failure's last row is this one
      throw;
    }
    grid_.stored_next();
    // A grid finer than any run could store must still notice Ctrl-C and the clock.
    if (stop_watch_.requested()) {
      take_grid_row_state(g);
      finish(stop_watch_.status(g));
      return;
    }
  }
}

void SimulationRun::take_grid_row_state(double g) {
  const auto x = recorder_.grid_x();
  const auto der_x = recorder_.grid_der_x();
  std::copy(x.begin(), x.end(), x_.begin());
  std::copy(der_x.begin(), der_x.end(), der_x_.begin());
  state_from_ida_ = false;
  t_ = g;
}

void SimulationRun::take_ida_state() {
  state_from_ida_ = false;
  const auto y = integration_.ida().y();
  const auto yp = integration_.ida().yp();
  std::copy(y.begin(), y.end(), x_.begin());
  std::copy(yp.begin(), yp.end(), der_x_.begin());
  t_ = integration_.ida().t();
}

void SimulationRun::step_failed() {
  take_ida_state();
  const double t = t_;
  if (stop_watch_.request()) {
    store_row(t);
    finish(stop_watch_.status(t));
    return;
  }
  store_row(t);
  finish(solver_failure(fmt::format("IDA failed at t = {} with {} (last step size {:.3g} s)", t,
                                    integration_.ida().last_flag_name(), integration_.ida().last_step())));
}

SimulationStatus SimulationRun::solver_failure(std::string message) {
  const std::string non_finite = integration_.bridge().non_finite_report();
  if (!non_finite.empty()) message += "; " + non_finite;
  if (const std::string note = model_failure_note(); !note.empty()) message += "; " + note;
  if (const auto& note = model_.last_recoverable()) {
    message +=
        fmt::format("; the model last threw RecoverableError at t = {}: {}", note->t, note->what);
  }
  return {Outcome::kSolverFailure, t_, std::move(message)};
}

std::string SimulationRun::model_failure_note() {
  try {
    return model_.model().failure_note(t_, x_, der_x_);
  } catch (...) {
    return {};  // what the model cannot tell must not replace the failure
  }
}

void SimulationRun::too_many_steps() {
  // IDA's own limit (IDASetMaxNumSteps) counts steps per call, and every call takes one step
  // here, so the limit between two stored rows is kept by the loop, with IDA's flag name.
  take_ida_state();
  store_row(t_);
  finish(solver_failure(
      fmt::format("IDA failed at t = {} with IDA_TOO_MUCH_WORK: {} steps since the last stored "
                  "row (max_steps_per_interval; last step size {:.3g} s)",
                  t_, options_.max_steps_per_interval, integration_.ida().last_step())));
}

void SimulationRun::finish(SimulationStatus status) {
  if (status.outcome != Outcome::kReachedStopTime && status.outcome != Outcome::kStoppedByModel) {
    // "interrupted at t = 3" says it all; other messages get the outcome and time in front.
    const bool self_contained = status.message.starts_with(to_string(status.outcome));
    log(LogLevel::kError,
        self_contained
            ? status.message
            : fmt::format("{} at t = {}: {}", to_string(status.outcome), status.t, status.message));
  }
  status_ = std::move(status);
  t_ = status_.t;
  stage_ = Stage::kEnded;
  wall_time_s_ = stop_watch_.elapsed_s();
  recorder_.end();
}

}  // namespace hdae::detail
