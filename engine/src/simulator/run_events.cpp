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
  if (status_.outcome != Outcome::kRunning) return;
  if (step.result == sundials::StepResult::kStepped) {
    // x and der_x are copied from IDA only when someone reads them (state_from_ida_).
    t_ = step.t;
    state_from_ida_ = true;
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
  if (is_root) root_location_.note_roots(integration_.ida(), t, x_, der_x_);
  if (is_root || due) {
    const EventKind kind = is_root ? EventKind::kState : EventKind::kTime;
    // At a time event IDA stands exactly at t (its stop time), and may go on from there when
    // the event changes nothing it sees (at stop_s too, whose right limit is then IDA's
    // state); at a root its last step ends beyond t.
    const bool may_continue = kind == EventKind::kTime;
    if (may_continue) continuation_.record(t, x_, der_x_);
    if (!run_event(t, kind)) {
      store_row(t);
      finish(*ending_);
      return;
    }
    const bool restart = !may_continue || !continues_without_restart(t, events_.back());
    store_row(t);  // the right limit x^+(t_e)
    if (kind == EventKind::kState) {
      if (auto verdict = chattering_.add(t, integration_.ida().root_info())) {
        finish({Outcome::kChattering, t, verdict->message});
        return;
      }
    }
    if (auto full =
            budget_.after_event(t, events_.back(), table_.table().num_rows(), events_.size())) {
      finish(*full);
      return;
    }
    if (ending_) {
      finish(*ending_);
      return;
    }
    if (!at_stop && restart &&
        !(event_smooth_ && integration_.continue_smoothly(restart_point(t)))) {
      restart_integrator(t);
    }
  }
  if (at_stop) finish({Outcome::kReachedStopTime, t, {}});
}

bool SimulationRun::run_event(double t, EventKind kind) {
  if (kind == EventKind::kTime) ++statistics_.time_events;
  if (kind == EventKind::kState) ++statistics_.state_events;
  EventOutcome out;
  try {
    event_iteration_.run(t, kind, out);
  } catch (...) {
    // A model exception: the event it interrupted stays in the log, saying so.
    out.record.note = exception_message();
    log_event(std::move(out.record));
    throw;
  }
  event_changed_rows_ = out.row_kinds_changed;
  event_smooth_ = out.smooth;
  if (out.row_kinds_changed || out.smooth) integration_.rows_changed();
  statistics_.event_iterations += out.record.iterations;
  if (out.settled) {
    statistics_.max_event_iterations =
        std::max<std::int64_t>(statistics_.max_event_iterations, out.record.iterations);
  }
  ending_ = std::move(out.end);
  log_event(std::move(out.record));
  return out.settled;
}

bool SimulationRun::continues_without_restart(double t, const EventRecord& record) {
  if (ending_ || event_changed_rows_ || !record.crossings.empty() || !record.jumps.empty() ||
      !record.impulses.empty()) {
    return false;
  }
  // IDA's own y and yp at t are still the left limits: the event iteration worked on copies.
  if (!continuation_.unchanged(t, integration_.ida().y(), integration_.ida().yp())) return false;
  // x^+ differs from x^- at most by the jump solve's polishing of a state IDA accepted
  // (below the jump tolerance, or the event would list a jump), and der_x^+ from der_x^- by
  // what IDA's corrector left: IDA's solution goes on as it would without the event, so the
  // right limit is its state.
  take_ida_state();
  return true;
}

void SimulationRun::log_event(EventRecord record) {
  events_.push_back(std::move(record));
  for (EventObserver* observer : observers_) observer->on_event(events_.back());
}

std::optional<SimulationStatus> SimulationRun::make_consistent(
    double t, bool initial, std::span<const std::size_t> impulse_sources,
    std::vector<ImpulseRecord>& impulses) {
  reinit::ConsistencyReport report = reinit_->make_consistent(
      t, row_kinds_, initial ? reinit::FixedValues::kKeep : reinit::FixedValues::kIgnore, x_,
      der_x_, impulse_sources);
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
          .x = x_,
          .der_x = der_x_,
          .row_kinds = row_kinds_,
          .structure = structure_,
          .reinit = reinit_.get(),
          .crossing_flipped = !events_.empty() && !events_.back().crossings.empty()};
}

}  // namespace hdae::detail
