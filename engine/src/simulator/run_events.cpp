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
namespace {

/// RestartStep::kFromHistory: the share of IDA's error test that the first (order-1) step may
/// use by the second derivative before the event. The step then passes even when the event
/// made the second derivative up to 20 times larger (beyond, it fails and IDA shrinks it).
/// Fractions from 0.01 to 1 cost the same steps within noise on the pulsed chain of
/// bench/restart_main.cpp (with the quick climb too: 0.05, 0.25 and 1 give 7.9, 7.5 and 8.1
/// extra steps per switch at 3334 masses), while bouncing-ball impact times at rel_tol 1e-8
/// are off by 3e-8 s (0.01), 7e-8 s (0.05), 1.4e-7 s (0.25) and 1.7e-7 s (1), measured
/// without the quick climb.
constexpr double kRestartErrorFraction = 0.05;

/// RestartStep::kKeepOrder: the difference step of the right limit's second derivative, as a
/// fraction of the step h IDA goes on with. Its error, dt/2 times the third derivative, then
/// puts (dt/2) h^2/2 y^(3), 3/200 of the third-order term h^3/6 y^(3), into the history's
/// first step; smaller fractions would divide the derivatives' own error (about 1e-8
/// relative, from difference Jacobians) by a shorter dt. On the pulsed chain of
/// bench/restart_main.cpp 1e-2, 1e-3 and 1e-4 cost the same steps within noise.
constexpr double kCurvatureStepFraction = 1e-2;

}  // namespace

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
  if (is_root) root_location_.note_roots(*ida_, t, x_, der_x_);
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
      if (auto verdict = chattering_.add(t, ida_->root_info())) {
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
    if (!at_stop && restart && !(event_smooth_ && continue_smoothly(t))) restart_integrator(t);
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
  if (out.row_kinds_changed || out.smooth) algebraic_.reset();
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
  if (!continuation_.unchanged(t, ida_->y(), ida_->yp())) return false;
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
  if (unknowns_changed_) renew_integrator();
  // The unknowns' kinds are cached until an event changes the row kinds (run_event).
  const bool same_kinds = algebraic_.has_value();
  if (!algebraic_) algebraic_ = algebraic_unknowns(t);
  const double initial_step = restart_step(t);
  PhaseScope scope(model_, ModelPhase::kIntegration);
  bridge_.restarting(t);
  ++statistics_.restarts;
  // IDA's history of an unknown that changed kind says nothing about it: only with the same
  // kinds does IDA go on at its order (sundials/history_shift.hpp).
  if (options_.restart_step == RestartStep::kKeepOrder && same_kinds &&
      continue_at_order(t, initial_step)) {
    return;
  }
  // The quick climb goes with the steps from history: under kIdaEstimate it would cost the
  // margin that keeps bouncing-ball impacts within 1e-12 s (docs/design.md, "Restarts").
  const bool quick_climb = options_.restart_step != RestartStep::kIdaEstimate;
  ida_->restart(t, x_, der_x_, *algebraic_, initial_step, quick_climb);
}

bool SimulationRun::continue_smoothly(double t) {
  // No jump and no new unknowns: P, IDA's polynomial through its last steps, is the solution
  // on both sides of t, so shifting the history to the right limit x(t), der_x(t) (its own
  // values there) changes nothing but where IDA stands, and IDA goes on with the step it
  // took last.
  algebraic_ = algebraic_unknowns(t);
  PhaseScope scope(model_, ModelPhase::kIntegration);
  bridge_.restarting(t);
  // The step that found the root was a free one (IdaIntegrator::step).
  if (!ida_->continue_from_history(t, x_, der_x_, ida_->last_step())) return false;
  ida_->set_algebraic(*algebraic_);
  return true;
}

bool SimulationRun::continue_at_order(double t, double bounded_step) {
  // With the right limit's curvature the shifted history is right to second order, so IDA
  // may go on with the last step it chose freely. Not after a crossing flipped, though: it
  // stands at zero, and IDA sees a root function's sign only at step ends, so a step as long
  // as the one before could carry it away and back unseen (a ball whose next flight is
  // shorter than the step that found the impact). Then, and without the curvature (an
  // order-1 history, derivatives that cannot be differentiated here), the first step is
  // bounded as under kFromHistory.
  const double h = ida_->free_step();
  std::optional<std::vector<double>> curvature;
  if (ida_->history_order() >= 2 && h > 0.0) {
    curvature = reinit_->second_derivatives(t, row_kinds_, x_, der_x_, kCurvatureStepFraction * h);
  }
  if (!curvature) return ida_->continue_from_history(t, x_, der_x_, bounded_step);
  const bool crossing_flipped = !events_.empty() && !events_.back().crossings.empty();
  return ida_->continue_from_history(t, x_, der_x_, crossing_flipped ? bounded_step : h,
                                     *curvature);
}

double SimulationRun::restart_step(double t) const {
  // kIdaEstimate: IDA's own first step, tiny and far more accurate than the tolerance asks;
  // that is what keeps bouncing-ball impact times at rel_tol 1e-10 within 1e-12 s of the
  // analytic ones (tests/events/test_state_events.cpp). kFromHistory and kKeepOrder trade
  // that margin for steps (docs/design.md, "Restarts").
  if (options_.restart_step != RestartStep::kIdaEstimate) {
    if (const double h = ida_->step_from_history(t, kRestartErrorFraction); h > 0.0) return h;
  }
  return options_.initial_step_s;
}

std::vector<bool> SimulationRun::algebraic_unknowns(double t) {
  std::vector<bool> algebraic = reinit_->algebraic_unknowns(t, row_kinds_, x_);
  for (std::size_t j = 0; j < n_; ++j) {
    const ErrorControl control = structure_->variables.declared(j).error_control;
    if (control == ErrorControl::kExcluded) algebraic[j] = true;
    if (!options_.suppress_algebraic && control == ErrorControl::kIncluded) algebraic[j] = false;
  }
  return algebraic;
}

}  // namespace hdae::detail
