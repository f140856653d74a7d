// Event instants of SimulationRun: a step that ended on a root, a time event or the stop time,
// the event iteration there (events/event_iteration.hpp) with the jump solve it asks for
// (reinit/reinitializer.hpp), the rows of both limits, and IDA's restart.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "events/same_time.hpp"
#include "simulator/simulation_run.hpp"

namespace hdae::detail {

void SimulationRun::process_step(const PendingStep& step) {
  store_output_rows(step, step.t);
  if (life_.status.outcome != Outcome::kRunning) return;
  if (step.result == sundials::StepResult::kStepped && !step.step_event) {
    // x and der_x are copied from IDA only when someone reads them (step_.from_ida).
    step_.t = step.t;
    step_.from_ida = true;
    // Under method kAuto an explicit ODE may move to the other integrator here; the rows up to
    // the step's end came from the one that took it.
    integration_.follow_stiffness();
    return;
  }
  take_ida_state();
  const double t = step.t;
  grid_.row_stored();
  store_row(t);  // the left limit x^-(t_e) at an event, or the row at the stop time
  grid_.skip_through(t);
  const bool at_stop = same_time(t, options_.stop_s);
  const bool is_root = step.result == sundials::StepResult::kRoot;
  const bool due = schedule_.collect_due(t);
  if (is_root) root_location_.note_roots(integration_.integrator(), t, u_.x, u_.der_x);
  if (is_root || due || step.step_event) {
    const EventKind kind = is_root ? EventKind::kState : due ? EventKind::kTime : EventKind::kStep;
    // At a time or step event IDA stands exactly at t (its stop time or step end), and may go
    // on from there when the event changes nothing it sees (at stop_s too, whose right limit is
    // then IDA's state); at a root its last step ends beyond t.
    const bool may_continue = kind != EventKind::kState;
    if (may_continue) continuation_.record(t, u_.x, u_.der_x);
    if (!run_event(t, kind)) {
      store_row(t);
      finish(*last_event_.ending);
      return;
    }
    const bool restart = !may_continue || !continues_without_restart(t, event_log_.records.back());
    store_row(t);  // the right limit x^+(t_e)
    if (kind == EventKind::kState) {
      if (auto verdict = chattering_.add(t, integration_.integrator().root_info())) {
        finish({Outcome::kChattering, t, verdict->message});
        return;
      }
    }
    if (auto full = output_.budget.after_event(t, event_log_.records.back(),
                                               output_.sinks.table().table().num_rows(),
                                               event_log_.records.size())) {
      finish(*full);
      return;
    }
    if (last_event_.ending) {
      finish(*last_event_.ending);
      return;
    }
    if (!at_stop && restart &&
        !(last_event_.smooth && integration_.continue_smoothly(restart_point(t)))) {
      restart_integrator(t);
    }
  }
  if (at_stop) finish({Outcome::kReachedStopTime, t, {}});
}

bool SimulationRun::run_event(double t, EventKind kind) {
  if (kind == EventKind::kTime) ++statistics_.time_events;
  if (kind == EventKind::kState) ++statistics_.state_events;
  if (kind == EventKind::kStep) ++statistics_.step_events;
  EventOutcome out;
  try {
    event_iteration_.run(t, kind, out);
  } catch (...) {
    // A model exception: the event it interrupted stays in the log, saying so.
    out.record.note = exception_message();
    log_event(std::move(out.record));
    throw;
  }
  last_event_.changed_rows = out.row_kinds_changed;
  last_event_.smooth = out.smooth;
  if (out.row_kinds_changed || out.smooth) integration_.rows_changed();
  statistics_.event_iterations += out.record.iterations;
  if (out.settled) {
    statistics_.max_event_iterations =
        std::max<std::int64_t>(statistics_.max_event_iterations, out.record.iterations);
  }
  last_event_.ending = std::move(out.end);
  log_event(std::move(out.record));
  return out.settled;
}

bool SimulationRun::continues_without_restart(double t, const EventRecord& record) {
  if (last_event_.ending || last_event_.changed_rows || !record.crossings.empty() ||
      !record.jumps.empty() || !record.impulses.empty()) {
    return false;
  }
  // IDA's own y and yp at t are still the left limits: the event iteration worked on copies.
  if (!continuation_.unchanged(t, integration_.integrator().y(), integration_.integrator().yp()))
    return false;
  // x^+ differs from x^- at most by the jump solve's polishing of a state IDA accepted
  // (below the jump tolerance, or the event would list a jump), and der_x^+ from der_x^- by
  // what IDA's corrector left: IDA's solution goes on as it would without the event, so the
  // right limit is its state.
  take_ida_state();
  return true;
}

void SimulationRun::log_event(EventRecord record) {
  event_log_.records.push_back(std::move(record));
  for (EventObserver* observer : event_log_.observers)
    observer->on_event(event_log_.records.back());
}

std::optional<SimulationStatus> SimulationRun::make_consistent(
    double t, bool initial, std::span<const std::size_t> impulse_sources,
    std::vector<ImpulseRecord>& impulses) {
  reinit::ConsistencyReport report = reinit_->make_consistent(
      t, u_.row_kinds, initial ? reinit::FixedValues::kKeep : reinit::FixedValues::kIgnore, u_.x,
      u_.der_x, impulse_sources);
  for (const reinit::Impulse& i : report.impulses) {
    impulses.push_back({model_.structure().variables.name(i.variable), i.integral});
  }
  ++statistics_.jump_solves;
  statistics_.jump_newton_iterations += report.newton_iterations;
  for (const std::string& w : report.warnings) {
    log(LogLevel::kWarning, fmt::format("t = {}: {}", t, w));
  }
  return std::move(report.failure);
}

std::optional<SimulationStatus> SimulationRun::stop_due(double t) {
  if (stop_watch_.requested_now()) return stop_watch_.status(t);
  return std::nullopt;
}

void SimulationRun::restart_integrator(double t) {
  ++statistics_.restarts;
  integration_.restart(restart_point(t));
}

RestartPoint SimulationRun::restart_point(double t) {
  return {.t = t,
          .x = u_.x,
          .der_x = u_.der_x,
          .row_kinds = u_.row_kinds,
          .structure = u_.structure,
          .reinit = reinit_.get(),
          .crossing_flipped =
              !event_log_.records.empty() && !event_log_.records.back().crossings.empty()};
}

}  // namespace hdae::detail
