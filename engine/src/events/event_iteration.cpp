#include "events/event_iteration.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <exception>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include "events/event_requests.hpp"
#include "events/unsettled.hpp"

namespace hdae::detail {
namespace {

/// Entries after the residual rows in the evaluation at t0, watched for writes.
constexpr std::size_t kResidualPad = 256;

/// Appends a sentence to the event's note (what the event changed, in the order it happened).
void add_note(EventRecord& record, const std::string& note) {
  record.note = record.note.empty() ? note : record.note + "; " + note;
}

}  // namespace

const double EventIteration::kPadSentinel = std::bit_cast<double>(0x7ff4dead0000beefULL);

void EventIteration::run(double t, EventKind kind, EventOutcome& out) {
  out.record.t = t;
  out.record.kind = kind;
  state_.schedule.append_fired_names(out.record.time_events);
  x_before_ = state_.x;
  has_before_.clear();
  const PassesEnd end = passes(t, kind, out);
  state_.crossings.forget_roots();
  if (end == PassesEnd::kFailed) return;
  record_jumps(out.record);
  if (end == PassesEnd::kStopped) {
    out.record.note = out.end->message;
  } else {
    out.settled = true;
    if (out.end && kind != EventKind::kInitial) out.record.kind = EventKind::kTerminal;
  }
}

bool EventIteration::SmoothEvent::after(const EventRequests& requests, const std::vector<double>& x,
                                        const EventRecord& record) {
  reformulated = reformulated || requests.reformulated;
  possible = possible && !requests.row_kinds_changed && !requests.previous_unknowns &&
             requests.impulse_sources.empty() && !requests.impulses_integrated &&
             !requests.terminate && x == x_before && record.time_events.empty();
  return reformulated && possible;
}

EventIteration::PassesEnd EventIteration::passes(double t, EventKind kind, EventOutcome& out) {
  history_.assign(state_.crossings.size(), {});
  bool pending_pass = true;  // the first pass always runs
  SmoothEvent smooth{.possible = kind != EventKind::kInitial};
  for (int pass = 1;; ++pass) {
    evaluate_pass(t, kind, pass, out);
    // Settled when nothing flipped after the last jump (the crossings are re-checked there).
    if (!state_.crossings.any_flipped() && !pending_pass) return PassesEnd::kSettled;
    if (pass > settings_.max_passes) {
      out.end = SimulationStatus{
          Outcome::kEventIterationLimit, t,
          unsettled_message(t, settings_.max_passes, history_, state_.model.structure().crossings)};
      return PassesEnd::kFailed;
    }
    EventRequests requests;
    requests.row_kinds = &state_.row_kinds;
    requests.time_event_times = &state_.schedule.times();
    requests.structure = &state_.model.structure();
    smooth.x_before = state_.x;
    {
      PhaseScope scope(state_.model, ModelPhase::kEventHandler);
      EventContext context(t, kind, pass, state_.x, state_.der_x, state_.crossings,
                           state_.schedule.fired(), requests);
      state_.model.on_event(context);
    }
    ++out.record.iterations;
    std::move(requests.time_sensitivities.begin(), requests.time_sensitivities.end(),
              std::back_inserter(out.record.time_sensitivities));
    state_.schedule.clear_fired();
    if (requests.previous_unknowns) change_unknowns(t, *requests.previous_unknowns, out);
    // Before this pass's jump solve, whose Jacobian has the entries of the new pattern.
    if (requests.sparsity_changed) {
      host_.change_sparsity(t);
      add_note(out.record, "sparsity pattern changed");
    }
    out.smooth = smooth.after(requests, state_.x, out.record);
    out.row_kinds_changed =
        out.row_kinds_changed || requests.row_kinds_changed || (smooth.reformulated && !out.smooth);
    if (requests.terminate) {
      out.end = SimulationStatus{Outcome::kStoppedByModel, t, requests.terminate_reason};
      out.record.note = requests.terminate_reason;
    }
    if (!make_consistent(t, kind, requests, out)) return PassesEnd::kFailed;
    // Time events scheduled for this very instant fire in the next pass.
    const bool due_now = state_.schedule.collect_due(t);
    state_.schedule.append_fired_names(out.record.time_events);
    pending_pass = requests.another_pass || due_now;
    // Cancel flag and wall-clock limit: a handler that sets the flag, a signal or a slow pass
    // ends the run here, with x consistent after this pass.
    if (!out.end) {
      if (auto stop = host_.stop_due(t)) {
        out.end = std::move(stop);
        return PassesEnd::kStopped;
      }
    }
  }
}

bool EventIteration::make_consistent(double t, EventKind kind, const EventRequests& requests,
                                     EventOutcome& out) {
  if (out.smooth) return true;  // nothing to solve for; the passes see the crossings settle
  if (requests.impulses_integrated) {
    // The model made the jump over its impulses itself; the next pass, after its impact mode,
    // makes the state and the derivatives consistent.
    for (const auto& [variable, integral] : requests.integrated_impulses) {
      out.record.impulses.push_back({state_.model.structure().variables.name(variable), integral});
    }
    return true;
  }
  if (auto failure = host_.make_consistent(t, kind == EventKind::kInitial, requests.impulse_sources,
                                           out.record.impulses)) {
    out.end = std::move(failure);
    return false;
  }
  return true;
}

void EventIteration::evaluate_pass(double t, EventKind kind, int pass, EventOutcome& out) {
  const bool initial_pass = kind == EventKind::kInitial && pass == 1;
  CrossingTable& crossings = state_.crossings;
  if (initial_pass) {
    crossings.begin_initial_pass();
  } else {
    crossings.begin_pass();
  }
  // At t0 the residual buffer is followed by a watched pad: a write through an equation handle
  // beyond the model's rows lands there and is named, in optimised builds too (hdae/model.hpp,
  // Evaluation::index).
  const std::size_t n = state_.x.size();
  scratch_r_.assign(n + (initial_pass ? kResidualPad : 0), kPadSentinel);
  {
    PhaseScope scope(state_.model, ModelPhase::kEventEvaluation);
    if (initial_pass) crossings.clear_uses();
    state_.model.evaluate(
        t, state_.x, state_.der_x, std::span<double>(scratch_r_).first(n), {},
        kind == EventKind::kInitial ? EvaluationPhase::kInitial : EvaluationPhase::kEvent);
    if (initial_pass) {
      check_residual_pad(t);
      check_crossing_uses(t);
    }
    check_crossing_values(t);
  }
  if (initial_pass) crossings.accept_current();
  const auto& infos = state_.model.structure().crossings;
  for (std::size_t k = 0; k < crossings.size(); ++k) {
    history_[k].push_back(crossings.value(k) ? 1 : 0);
    if (!crossings.flipped(k)) continue;
    const CrossingDirection dir =
        crossings.value(k) ? CrossingDirection::kRising : CrossingDirection::kFalling;
    out.record.crossings.push_back({infos[k].name, dir});
  }
}

void EventIteration::check_residual_pad(double t) {
  const std::size_t n = state_.x.size();
  for (std::size_t i = n; i < scratch_r_.size(); ++i) {
    // The sentinel is one NaN bit pattern; anything else was written by the model. Its bits
    // are compared, not its value: a NaN equals nothing.
    // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison)
    if (std::memcmp(&scratch_r_[i], &kPadSentinel, sizeof(double)) != 0) {
      try {
        throw_bad_handle("equation", i, n);
      } catch (const std::exception& e) {
        state_.model.fail(t, e.what());
      }
    }
  }
}

void EventIteration::check_crossing_uses(double t) {
  // Each crossing takes exactly one helper call per evaluation (hdae/model.hpp): a second call
  // overwrites the value IDA watches, a missing one leaves it stale. Checked once, at t0.
  const auto& infos = state_.model.structure().crossings;
  for (std::size_t k = 0; k < state_.crossings.size(); ++k) {
    const unsigned uses = state_.crossings.uses(k);
    if (uses == 1) continue;
    state_.model.fail(
        t, uses == 0 ? fmt::format("crossing '{}' was not used in the evaluation at t0; every "
                                   "declared crossing takes exactly one helper call "
                                   "(positive, negative, change or edge) per evaluation",
                                   infos[k].name)
                     : fmt::format("crossing '{}' was used {} times in one evaluation; every "
                                   "declared crossing takes exactly one helper call "
                                   "(positive, negative, change or edge) per evaluation",
                                   infos[k].name, uses));
  }
}

void EventIteration::check_crossing_values(double t) {
  // During integration a value that is not finite makes IDA retry with a smaller step; at an
  // event instant there is no step to retry, and a NaN would silently make the Boolean false.
  const auto z = state_.crossings.z();
  for (std::size_t k = 0; k < z.size(); ++k) {
    if (std::isfinite(z[k])) continue;
    state_.model.fail(t, fmt::format("the value of crossing '{}' is {}; at an event no step can "
                                     "be retried, so it ends the run",
                                     state_.model.structure().crossings[k].name,
                                     std::isnan(z[k]) ? "NaN" : "infinite"));
  }
}

void EventIteration::change_unknowns(double t, const std::vector<std::size_t>& previous,
                                     EventOutcome& out) {
  const std::size_t before = state_.x.size();
  host_.change_unknowns(t, previous);
  std::vector<double> x_before(previous.size());
  std::vector<char> has_before(previous.size(), 0);
  for (std::size_t j = 0; j < previous.size(); ++j) {
    const std::size_t p = previous[j];
    if (p == EventContext::kNewUnknown) continue;
    x_before[j] = x_before_[p];
    has_before[j] = has_before_.empty() ? 1 : has_before_[p];
  }
  x_before_ = std::move(x_before);
  has_before_ = std::move(has_before);
  out.unknowns_changed = true;
  out.row_kinds_changed = true;
  add_note(out.record, fmt::format("unknowns changed from {} to {}", before, state_.x.size()));
}

void EventIteration::record_jumps(EventRecord& record) const {
  // The log lists the variables that really jumped. The jump solve determines x^+ only to its
  // Newton tolerance in nominal-scaled units, so a change below that tolerance times
  // max(nominal, |x^-|) is indistinguishable from the solve's round-off (e.g. an impulse
  // integral moved from 0 to 1e-16 while the constraints were already satisfied) and is not
  // reported; the |x^-| term keeps the test relative for values far above their nominal.
  const auto& variables = state_.model.structure().variables;
  for (std::size_t i = 0; i < state_.x.size(); ++i) {
    if (!has_before_.empty() && has_before_[i] == 0) continue;
    const double before = x_before_[i];
    const double scale = std::max(variables.nominal(i), std::abs(before));
    // Written so that a change to or from a non-finite value is always listed.
    const bool round_off = std::abs(state_.x[i] - before) <= settings_.jump_tolerance * scale;
    if (state_.x[i] != before && !round_off) {
      record.jumps.push_back({variables.name(i), before, state_.x[i]});
    }
  }
}

}  // namespace hdae::detail
