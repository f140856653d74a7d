// The integration loop of SimulationRun (hdae/simulator.hpp has the algorithm): IDA steps one
// at a time, output rows interpolated from each step, event instants handed to run_events.cpp.
#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "events/same_time.hpp"
#include "simulator/simulation_run.hpp"

namespace hdae::detail {

void SimulationRun::run_until(double target, AdvanceEnd end) {
  advance_until(target, end);
  if (step_.from_ida) take_ida_state();
}

void SimulationRun::advance_until(double target, AdvanceEnd end) {
  const std::size_t events_before = event_log_.records.size();
  while (life_.status.outcome == Outcome::kRunning) {
    if (step_.pending) {
      if (step_.pending->t > target) {
        // The step went past the target: the rows up to it, and the state there interpolated
        // from the step, without stopping IDA (the next advance goes on from the same step).
        store_output_rows(*step_.pending, target);
        if (life_.status.outcome != Outcome::kRunning) return;
        integration_.integrator().interpolate(target, u_.x, u_.der_x);
        step_.from_ida = false;
        step_.t = target;
        return;
      }
      const PendingStep step = *step_.pending;
      step_.pending.reset();
      process_step(step);
      if (step_.t == target) return;
      // An event instant was handled (its record is in the log): the caller stops there.
      if (end == AdvanceEnd::kAtEvent && event_log_.records.size() > events_before) return;
      continue;
    }
    if (step_.t == target) return;
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
  const double t_from = integration_.integrator().t();
  {
    PhaseScope scope(model_, ModelPhase::kIntegration);
    step_.stepping_from = t_from;
    result = integration_.integrator().step(t_out, t_stop);
    step_.stepping_from.reset();
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
  if (result == sundials::StepResult::kRoot)
    root_location_.locate_first_flip(integration_.integrator(), t_from);
  step_.pending = PendingStep{result, integration_.integrator().t()};
  if (step_.tell_model && result == sundials::StepResult::kStepped) {
    PhaseScope scope(model_, ModelPhase::kIntegration);
    step_.pending->step_event = model_.completed_step(
        step_.pending->t, integration_.integrator().y(), integration_.integrator().yp());
  }
  if (stop_watch_.requested()) {
    // The rows up to the step's end, then the run stops there.
    const PendingStep step = *step_.pending;
    step_.pending.reset();
    store_output_rows(step, step.t);
    if (life_.status.outcome != Outcome::kRunning) return;
    take_ida_state();
    store_row(step_.t);
    finish(stop_watch_.status(step_.t));
  }
}

void SimulationRun::store_output_rows(const PendingStep& step, double limit) {
  // An event or the stop time at step.t has its own row, which serves as the output row of a
  // grid point at (or within round-off of) the same instant; a plain step end does not.
  const bool instant_row = step.result != sundials::StepResult::kStepped || step.step_event;
  for (;;) {
    const double g = grid_.next_time();
    const bool before_step =
        instant_row ? g < step.t && !same_time(g, step.t) : g <= step.t || same_time(g, step.t);
    if (!before_step || g > limit) return;
    // Interpolated straight into the recorder's row; the run's own x and der_x are set from
    // the step afterwards (process_step, advance_until), or from this row when the run ends
    // here.
    integration_.integrator().interpolate(g, output_.recorder.grid_x(),
                                          output_.recorder.grid_der_x());
    try {
      output_.recorder.store_grid(grid_.next_index(), g);
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
  const auto x = output_.recorder.grid_x();
  const auto der_x = output_.recorder.grid_der_x();
  std::copy(x.begin(), x.end(), u_.x.begin());
  std::copy(der_x.begin(), der_x.end(), u_.der_x.begin());
  step_.from_ida = false;
  step_.t = g;
}

void SimulationRun::take_ida_state() {
  step_.from_ida = false;
  const auto y = integration_.integrator().y();
  const auto yp = integration_.integrator().yp();
  std::copy(y.begin(), y.end(), u_.x.begin());
  std::copy(yp.begin(), yp.end(), u_.der_x.begin());
  step_.t = integration_.integrator().t();
}

void SimulationRun::step_failed() {
  take_ida_state();
  const double t = step_.t;
  if (stop_watch_.request()) {
    store_row(t);
    finish(stop_watch_.status(t));
    return;
  }
  store_row(t);
  const std::string_view method = integration_.method_name();
  finish(solver_failure(fmt::format(
      "{} failed at t = {} with {} (last step size {:.3g} s)", method == "ida" ? "IDA" : method, t,
      integration_.integrator().last_flag_name(), integration_.integrator().last_step())));
}

SimulationStatus SimulationRun::solver_failure(std::string message) {
  const std::string non_finite = integration_.bridge().non_finite_report();
  if (!non_finite.empty()) message += "; " + non_finite;
  if (const std::string note = model_failure_note(); !note.empty()) message += "; " + note;
  if (const auto& note = model_.last_recoverable()) {
    message +=
        fmt::format("; the model last threw RecoverableError at t = {}: {}", note->t, note->what);
  }
  return {Outcome::kSolverFailure, step_.t, std::move(message)};
}

std::string SimulationRun::model_failure_note() {
  try {
    return model_.model().failure_note(step_.t, u_.x, u_.der_x);
  } catch (...) {
    return {};  // what the model cannot tell must not replace the failure
  }
}

void SimulationRun::too_many_steps() {
  // IDA's own limit (IDASetMaxNumSteps) counts steps per call, and every call takes one step
  // here, so the limit between two stored rows is kept by the loop, with IDA's flag name.
  take_ida_state();
  store_row(step_.t);
  finish(solver_failure(fmt::format(
      "IDA failed at t = {} with IDA_TOO_MUCH_WORK: {} steps since the last stored "
      "row (max_steps_per_interval; last step size {:.3g} s)",
      step_.t, options_.max_steps_per_interval, integration_.integrator().last_step())));
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
  life_.status = std::move(status);
  step_.t = life_.status.t;
  life_.stage = Stage::kEnded;
  life_.wall_time_s = stop_watch_.elapsed_s();
  end_output();
}

}  // namespace hdae::detail
