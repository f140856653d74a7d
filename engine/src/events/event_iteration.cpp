// The event iteration of the simulator (DESIGN.md section 2) and the hand-over to the
// re-initialization module (section 3): methods of detail::Run.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "simulator/run.hpp"

namespace hdae::detail {
namespace {

/// "a: T F T F" — a crossing's Boolean per pass, for the iteration-limit diagnostic.
std::string pass_history(const std::string& name, const std::vector<char>& values) {
  std::string s = fmt::format("'{}':", name);
  for (const char v : values) s += v != 0 ? " true" : " false";
  return s;
}

/// Why the event iteration did not settle, from the Booleans of every crossing per pass:
/// the shortest period P with which the last 2P passes repeat, and the crossings that
/// change within that cycle (those that drive it). Without such a cycle, the crossings that
/// flipped in the last pass.
std::string unsettled_crossings(const std::vector<std::vector<char>>& history,
                                const std::vector<CrossingInfo>& crossings) {
  const std::size_t passes = history.empty() ? 0 : history.front().size();
  auto same_pass = [&history](std::size_t i, std::size_t j) {
    return std::all_of(history.begin(), history.end(),
                       [i, j](const std::vector<char>& h) { return h[i] == h[j]; });
  };
  std::size_t period = 0;
  for (std::size_t p = 1; 2 * p <= passes && period == 0; ++p) {
    bool repeats = true;
    for (std::size_t i = passes - p; i < passes && repeats; ++i) repeats = same_pass(i, i - p);
    if (repeats) period = p;
  }
  // Passes examined: the last cycle and the pass before it, or just the last two passes.
  const std::size_t from = passes - std::min(passes, (period == 0 ? 1 : period) + 1);
  std::vector<std::string> names;
  for (std::size_t k = 0; k < history.size(); ++k) {
    const auto& h = history[k];
    const auto first = h.begin() + static_cast<std::ptrdiff_t>(from);
    if (std::adjacent_find(first, h.end(), std::not_equal_to<>()) != h.end()) {
      names.push_back(fmt::format("'{}'", crossings[k].name));
    }
  }
  if (names.empty()) {
    return "no crossing flipped in the last passes; the model kept asking for another pass "
           "(request_iteration) or scheduling time events for this instant";
  }
  std::string text = fmt::format("crossing{} {} kept flipping", names.size() == 1 ? "" : "s",
                                 fmt::join(names, ", "));
  if (period > 1) text += fmt::format(" in a cycle of {} passes", period);
  return text;
}

}  // namespace

bool Run::collect_due_time_events(double t) {
  bool any = false;
  for (std::size_t i = 0; i < time_event_times_.size(); ++i) {
    const double s = time_event_times_[i];
    const bool due = !std::isnan(s) && (s <= t || same_time(s, t));
    time_events_fired_[i] = due;
    if (due) {
      time_event_times_[i] = std::numeric_limits<double>::quiet_NaN();
      any = true;
    }
  }
  return any;
}

bool Run::event_iteration(double t, EventKind kind) {
  phase_t_ = t;
  EventRecord record;
  record.t = t;
  record.kind = kind;
  for (std::size_t i = 0; i < time_event_times_.size(); ++i) {
    if (time_events_fired_[i]) record.time_events.push_back(structure_.time_events[i].name);
  }
  if (kind == EventKind::kTime) ++result_.statistics.time_events;
  if (kind == EventKind::kState) ++result_.statistics.state_events;
  const std::vector<double> x_before = x_;
  PassesEnd end = PassesEnd::kFailed;
  try {
    end = event_passes(t, kind, record);
  } catch (...) {
    // A model exception: the event it interrupted stays in the log, saying so.
    record.note = failure_message();
    result_.events.push_back(std::move(record));
    throw;
  }
  if (end == PassesEnd::kFailed) {
    result_.events.push_back(std::move(record));
    return false;
  }
  result_.statistics.max_event_iterations =
      std::max<std::int64_t>(result_.statistics.max_event_iterations, record.iterations);
  // The log lists the variables that really jumped. The jump solve determines x^+ only to its
  // Newton tolerance in nominal-scaled units, so a change below that tolerance times
  // max(nominal, |x^-|) is indistinguishable from the solve's round-off (e.g. an impulse
  // integral moved from 0 to 1e-16 while the constraints were already satisfied) and is not
  // reported; the |x^-| term keeps the test relative for values far above their nominal.
  const double jump_tol = jump_tolerance();
  for (std::size_t i = 0; i < n_; ++i) {
    const double scale = std::max(structure_.variables[i].nominal, std::abs(x_before[i]));
    // Written so that a change to or from a non-finite value is always listed.
    const bool round_off = std::abs(x_[i] - x_before[i]) <= jump_tol * scale;
    if (x_[i] != x_before[i] && !round_off) {
      record.jumps.push_back({structure_.variables[i].name, x_before[i], x_[i]});
    }
  }
  if (end == PassesEnd::kStopped) {
    record.note = result_.status.message;
  } else if (finished_ && kind != EventKind::kInitial) {
    record.kind = EventKind::kTerminal;
  }
  result_.events.push_back(std::move(record));
  return end == PassesEnd::kSettled;
}

Run::PassesEnd Run::event_passes(double t, EventKind kind, EventRecord& record) {
  const EvaluationPhase phase =
      kind == EventKind::kInitial ? EvaluationPhase::kInitial : EvaluationPhase::kEvent;
  const reinit::FixedValues fixed =
      kind == EventKind::kInitial ? reinit::FixedValues::kKeep : reinit::FixedValues::kIgnore;
  // Booleans per pass of every crossing, for the diagnostic when the limit is hit.
  std::vector<std::vector<char>> history(crossings_.size());
  bool pending_pass = true;  // the first pass always runs
  for (int pass = 1;; ++pass) {
    if (kind == EventKind::kInitial && pass == 1) {
      crossings_.begin_initial_pass();
    } else {
      crossings_.begin_pass();
    }
    phase_ = Phase::kEventEvaluation;
    evaluate(t, x_, der_x_, scratch_r_, {}, phase);
    if (kind == EventKind::kInitial && pass == 1) crossings_.accept_current();
    for (std::size_t k = 0; k < crossings_.size(); ++k) {
      history[k].push_back(crossings_.value(k) ? 1 : 0);
      if (!crossings_.flipped(k)) continue;
      const CrossingDirection dir =
          crossings_.value(k) ? CrossingDirection::kRising : CrossingDirection::kFalling;
      record.crossings.push_back({structure_.crossings[k].name, dir});
    }
    const bool flipped = crossings_.any_flipped();
    if (!flipped && !pending_pass) return PassesEnd::kSettled;  // re-checked after the last jump
    if (pass > options_.max_event_iterations) {
      std::vector<std::string> lines;
      for (std::size_t k = 0; k < crossings_.size(); ++k) {
        const auto& h = history[k];
        if (std::adjacent_find(h.begin(), h.end(), std::not_equal_to<>()) != h.end()) {
          lines.push_back(pass_history(structure_.crossings[k].name, h));
        }
      }
      std::string message = fmt::format(
          "event iteration at t = {} did not settle after {} passes: {}", t,
          options_.max_event_iterations, unsettled_crossings(history, structure_.crossings));
      if (!lines.empty()) message += fmt::format("; values per pass: {}", fmt::join(lines, "; "));
      fail(Outcome::kEventIterationLimit, t, std::move(message));
      return PassesEnd::kFailed;
    }

    detail::EventRequests requests;
    requests.row_kinds = &row_kinds_;
    requests.time_event_times = &time_event_times_;
    requests.structure = &structure_;
    EventContext context(t, kind, pass, x_, der_x_, crossings_,
                         {time_events_fired_.get(), time_event_times_.size()}, requests);
    phase_ = Phase::kEventHandler;
    model_.on_event(context);
    ++record.iterations;
    ++result_.statistics.event_iterations;
    std::fill_n(time_events_fired_.get(), time_event_times_.size(), false);
    if (requests.row_kinds_changed) algebraic_.reset();
    if (requests.terminate) {
      finished_ = true;
      result_.status = SimulationStatus{Outcome::kStoppedByModel, t, requests.terminate_reason};
      record.note = requests.terminate_reason;
    }
    phase_ = Phase::kJumpSolve;
    if (!make_consistent(t, fixed)) return PassesEnd::kFailed;
    // Time events scheduled for this very instant fire in the next pass.
    const bool due_now = collect_due_time_events(t);
    for (std::size_t i = 0; i < time_event_times_.size(); ++i) {
      if (time_events_fired_[i]) record.time_events.push_back(structure_.time_events[i].name);
    }
    pending_pass = requests.another_pass || due_now;
    // Cancel flag and wall-clock limit (polled in residual calls too): a handler that sets the
    // flag, a signal or a slow pass ends the run here, with x consistent after this pass.
    if (!finished_ && stop_due_now()) {
      fail(*stop_request_, t, stop_message(t));
      return PassesEnd::kStopped;
    }
  }
}

double Run::jump_tolerance() const { return options_.jump_tol_factor * options_.rel_tol; }

reinit::JumpProblem Run::jump_problem(double t, reinit::FixedValues fixed) {
  reinit::JumpProblem p;
  p.structure = &structure_;
  p.row_kinds = row_kinds_;
  p.residual = [this](double tt, std::span<const double> x, std::span<const double> der_x,
                      std::span<double> r) {
    evaluate(tt, x, der_x, r, {}, EvaluationPhase::kContinuous);
  };
  if (model_.provides_constraint_time_derivative()) {
    p.constraint_time_derivative = [this](double tt, std::span<const double> x,
                                          std::span<double> dfc_dt) {
      model_.constraint_time_derivative(tt, x, dfc_dt);
    };
  }
  p.t = t;
  p.rule = options_.jump_rule;
  p.fixed_values = fixed;
  p.tolerance = jump_tolerance();
  p.max_iterations = options_.max_jump_iterations;
  p.rel_tol = options_.rel_tol;
  p.workspace = &reinit_workspace_;
  return p;
}

bool Run::make_consistent(double t, reinit::FixedValues fixed) {
  const reinit::JumpProblem problem = jump_problem(t, fixed);
  const reinit::JumpOutcome jump = reinit::solve_jump(problem, x_);
  ++result_.statistics.jump_solves;
  result_.statistics.jump_newton_iterations += jump.iterations;
  for (const std::string& w : jump.warnings)
    log(LogLevel::kWarning, fmt::format("t = {}: {}", t, w));
  if (jump.status != reinit::SolveStatus::kOk) {
    fail(jump.status == reinit::SolveStatus::kSingular ? Outcome::kSingularJacobian
                                                       : Outcome::kJumpSolveFailure,
         t, fmt::format("{} (mode: {})", jump.message, mode_description()));
    return false;
  }
  x_ = jump.x_plus;
  const reinit::DerivativeOutcome derivatives = reinit::consistent_derivatives(problem, x_);
  if (derivatives.status != reinit::SolveStatus::kOk) {
    fail(Outcome::kSingularJacobian, t,
         fmt::format("{} (mode: {})", derivatives.message, mode_description()));
    return false;
  }
  der_x_ = derivatives.der_x;
  return true;
}

std::vector<bool> Run::algebraic_flags(double t) {
  // x[j] is algebraic when no f_d row contains der_x[j]. F_d is linear in der_x, so
  // F(x, e_j) - F(x, 0) is column j of M_d exactly; with a sparsity pattern the columns of
  // one colour are probed together.
  std::vector<bool> algebraic(n_, true);
  std::vector<double> zero(n_, 0.0), probe(n_, 0.0), r0(n_), r1(n_);
  evaluate(t, x_, zero, r0, {}, EvaluationPhase::kContinuous);
  std::vector<std::vector<std::size_t>> groups;
  if (pattern_) {
    groups.resize(pattern_->num_colors);
    for (std::size_t j = 0; j < n_; ++j) groups[pattern_->color[j]].push_back(j);
  } else {
    for (std::size_t j = 0; j < n_; ++j) groups.push_back({j});
  }
  for (const auto& group : groups) {
    std::fill(probe.begin(), probe.end(), 0.0);
    for (const std::size_t j : group) probe[j] = 1.0;
    evaluate(t, x_, probe, r1, {}, EvaluationPhase::kContinuous);
    for (const std::size_t j : group) {
      if (pattern_) {
        for (std::size_t k = pattern_->col_start[j]; k < pattern_->col_start[j + 1]; ++k) {
          const std::size_t i = pattern_->row_index[k];
          if (row_kinds_[i] == RowKind::kDifferential && r1[i] != r0[i]) algebraic[j] = false;
        }
      } else {
        for (std::size_t i = 0; i < n_; ++i) {
          if (row_kinds_[i] == RowKind::kDifferential && r1[i] != r0[i]) algebraic[j] = false;
        }
      }
    }
  }
  for (std::size_t j = 0; j < n_; ++j) {
    if (structure_.variables[j].error_control == ErrorControl::kExcluded) algebraic[j] = true;
    if (!options_.suppress_algebraic &&
        structure_.variables[j].error_control == ErrorControl::kIncluded) {
      algebraic[j] = false;
    }
  }
  return algebraic;
}

std::string Run::mode_description() const {
  std::vector<std::string> constraints;
  for (std::size_t i = 0; i < n_; ++i) {
    if (row_kinds_[i] == RowKind::kConstraint) constraints.push_back(structure_.equations[i].name);
  }
  if (constraints.empty()) return "no constraint rows";
  return fmt::format("constraint rows {{{}}}", fmt::join(constraints, ", "));
}

}  // namespace hdae::detail
