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
  steps_since_row_ = 0;
  store_row(t);  // the left limit x^-(t_e) at an event, or the row at the stop time
  skip_output_points_through(t);
  const bool at_stop = same_time(t, options_.stop_s);
  const bool is_root = step.result == sundials::StepResult::kRoot;
  const bool due = schedule_.collect_due(t);
  if (is_root) note_roots(t);
  if (is_root || due) {
    const EventKind kind = is_root ? EventKind::kState : EventKind::kTime;
    if (!run_event(t, kind)) {
      store_row(t);
      finish(*ending_);
      return;
    }
    store_row(t);  // the right limit x^+(t_e)
    if (kind == EventKind::kState) {
      if (auto verdict = chattering_.add(t, ida_->root_info())) {
        finish({Outcome::kChattering, t, verdict->message});
        return;
      }
    }
    if (ending_) {
      finish(*ending_);
      return;
    }
    if (!at_stop) restart_integrator(t);
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
  if (out.row_kinds_changed) algebraic_.reset();
  statistics_.event_iterations += out.record.iterations;
  if (out.settled) {
    statistics_.max_event_iterations =
        std::max<std::int64_t>(statistics_.max_event_iterations, out.record.iterations);
  }
  ending_ = std::move(out.end);
  log_event(std::move(out.record));
  return out.settled;
}

void SimulationRun::log_event(EventRecord record) {
  events_.push_back(std::move(record));
  for (EventObserver* observer : observers_) observer->on_event(events_.back());
}

std::optional<SimulationStatus> SimulationRun::make_consistent(
    double t, bool initial, std::span<const std::size_t> impulse_sources,
    std::vector<ImpulseRecord>& impulses) {
  reinit::ConsistencyReport report = reinit_.make_consistent(
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

void SimulationRun::note_roots(double t) {
  const std::vector<int>& info = ida_->root_info();
  for (std::size_t k = 0; k < info.size(); ++k) {
    if (info[k] != 0) crossings_.note_root(k, info[k]);
  }
  // IDA brackets the first zero to 100 u (|t| + |h|) and reports only the crossings that
  // changed sign within that bracket; one whose zero lies just after t (two end stops closing
  // at the same instant, up to round-off) would be reported by the very next step, as a
  // second event at the same instant. Its value one such tolerance later tells: a crossing
  // whose Boolean disagrees with it there crosses at t as far as IDA can resolve time.
  const double ahead = t + 100.0 * std::numeric_limits<double>::epsilon() *
                               (std::abs(t) + std::abs(ida_->last_step()));
  std::vector<double> x(n_), der_x(n_), r(n_);
  ida_->interpolate(ahead, x, der_x);
  PhaseScope scope(model_, ModelPhase::kIntegration);
  model_.evaluate(ahead, x, der_x, r, {}, EvaluationPhase::kContinuous);
  crossings_.note_roots_ahead(info);
}

void SimulationRun::restart_integrator(double t) {
  if (!algebraic_) algebraic_ = algebraic_unknowns(t);
  const double initial_step = restart_step();
  PhaseScope scope(model_, ModelPhase::kIntegration);
  bridge_.restarting(t);
  ida_->restart(t, x_, der_x_, *algebraic_, initial_step);
  ++statistics_.restarts;
}

double SimulationRun::restart_step() const {
  // 0: IDA's own estimate. Starting after an event from the step size before it (bounded by
  // the order-1 error of the old second derivative) saves steps, but the restarted steps are
  // then only as accurate as the tolerance asks, where IDA's tiny first steps are far more
  // accurate: bouncing-ball impact times at rel_tol 1e-10 drift beyond 1e-12 s
  // (docs/benchmarks.md, "Restarts after events").
  return options_.initial_step_s;
}

std::vector<bool> SimulationRun::algebraic_unknowns(double t) {
  std::vector<bool> algebraic = reinit_.algebraic_unknowns(t, row_kinds_, x_);
  for (std::size_t j = 0; j < n_; ++j) {
    const ErrorControl control = structure_.variables.declared(j).error_control;
    if (control == ErrorControl::kExcluded) algebraic[j] = true;
    if (!options_.suppress_algebraic && control == ErrorControl::kIncluded) algebraic[j] = false;
  }
  return algebraic;
}

}  // namespace hdae::detail
