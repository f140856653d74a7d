// The sensitivities at events (docs/design.md, "Sensitivities"). At an event at t* the
// state jumps from x- to x+ = h(x-, p) (the handler's writes, then the jump solve), and t*
// itself may depend on p (a crossing g(t, x, p) = 0, or a time the handler scheduled from a
// parameter). Then
//   s+ = h_x (s- + x'- dt*/dp) + h_p - x'+ dt*/dp,
// with dt*/dp = -(g_x s- + g_p) / (dg/dt) for a crossing. The run makes it in three parts:
// in the event's first pass s- becomes s- + x'- dt*/dp; the handler's writes are
// differentiated along each source by calling it at nearby points (x- + eps s, p + eps); the
// jump solve, run on the sensitivity rows as on the model's, carries the linearised jump
// through mode changes and impulses (a model that integrates its impact itself has it inside
// its writes); and the next pass that sees x'+ subtracts x'+ dt*/dp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "events/crossing_table.hpp"
#include "hdae/errors.hpp"
#include "sensitivity/sensitivity_model.hpp"

namespace hdae::detail {
namespace {

/// The time step of dg/dt along the solution, relative to max(|t|, 1): the crossing is smooth
/// near its root, and its rounding over this step stays below the quotient's truncation.
constexpr double kRelativeTimeStep = 1e-6;

std::vector<double> values_of(const EventContext& event, std::size_t count, bool derivatives) {
  std::vector<double> v(count);
  for (std::size_t j = 0; j < count; ++j) v[j] = derivatives ? event.der(Var{j}) : event.x(Var{j});
  return v;
}

}  // namespace

template <class F>
double SensitivityModel::along(std::size_t k, double at_zero, F&& f) const {
  const Stencil& st = stencils_[k];
  double sum = 0.0;
  for (std::size_t m = 0; m < st.points; ++m) {
    const double v = st.offset[m] == 0 ? at_zero : f(st.offset[m] * steps_[k]);
    sum += st.weight[m] * v;
  }
  return sum / steps_[k];
}

SensitivityModel::HandlerCall SensitivityModel::call_handler(const EventContext& event,
                                                             std::span<const double> x,
                                                             std::span<const double> der_x,
                                                             std::size_t k, double eps) {
  HandlerCall call;
  const std::size_t shift = n_ * (k + 1);
  call.x.resize(n_);
  std::vector<double> der(n_);
  for (std::size_t j = 0; j < n_; ++j) {
    call.x[j] = x[j] + eps * x[shift + j];
    der[j] = der_x[j] + eps * der_x[shift + j];
  }
  const EventRequests& outer = event.requests_;
  call.row_kinds = carried_.row_kinds;
  call.time_event_times = *outer.time_event_times;
  call.requests.row_kinds = &call.row_kinds;
  call.requests.time_event_times = &call.time_event_times;
  call.requests.structure = &model_.structure();
  EventContext inner(event.t_, event.kind_, event.pass_, call.x, der, event.crossings_,
                     event.time_events_fired_, call.requests);
  vary(k, eps);
  try {
    model_.on_event(inner);
  } catch (...) {
    vary(k, 0.0);
    throw;
  }
  vary(k, 0.0);
  carried_.row_kinds = call.row_kinds;
  carried_.pattern_changed = carried_.pattern_changed || call.requests.sparsity_changed;
  carried_.rows_changed = carried_.rows_changed || call.requests.row_kinds_changed;
  return call;
}

void SensitivityModel::refuse_unsupported(const HandlerCall& call) const {
  const EventRequests& r = call.requests;
  if (r.previous_unknowns) {
    throw ModelError(fmt::format(
        "model '{}': a run with sensitivities cannot follow an event that changes the unknowns "
        "(EventContext::unknowns_changed)",
        model_.structure().name));
  }
}

std::vector<double> SensitivityModel::rows_at(const EventContext& event, std::span<const double> x,
                                              std::span<const double> der_x) {
  std::copy_n(x.begin(), n_, x_.begin());
  std::copy_n(der_x.begin(), n_, der_x_.begin());
  CrossingTable frozen(model_.structure(), 0.0);
  Evaluation at(event.t_, x_, der_x_, r_, {}, &frozen, EvaluationPhase::kContinuous,
                CrossingValues::kUsed);
  model_.evaluate(at);
  return r_;
}

void SensitivityModel::refuse_kept_state(const EventContext& event, std::span<const double> x,
                                         std::span<const double> der_x) {
  for (std::size_t k = 0; k < sources_.size(); ++k) {
    (void)call_handler(event, x, der_x, k, steps_[k]);
    const std::vector<double> moved = rows_at(event, x, der_x);
    (void)call_handler(event, x, der_x, 0, 0.0);
    if (moved == rows_at(event, x, der_x)) continue;
    throw ModelError(fmt::format(
        "model '{}': after its event handler at t = {} its equations use values the handler "
        "kept from the state (such as velocities before an impact held in the model), whose "
        "sensitivities a run cannot follow; declare them as unknowns that the handler sets, or "
        "run without sensitivities",
        model_.structure().name, event.t_));
  }
}

void SensitivityModel::check_first_call(const EventContext& event, const HandlerCall& first,
                                        std::span<const double> x, std::span<const double> der_x) {
  // Before the handler is called again: such an event changes the model in ways a second call
  // at the same point would not repeat.
  refuse_unsupported(first);
  const bool switches = !first.requests.impulse_sources.empty() ||
                        first.requests.impulses_integrated ||
                        !std::equal(first.row_kinds.begin(), first.row_kinds.end(),
                                    event.requests_.row_kinds->begin());
  if (switches) refuse_kept_state(event, x, der_x);
}

void SensitivityModel::apply_requests(EventContext& event, const HandlerCall& call) {
  const EventRequests& r = call.requests;
  refuse_unsupported(call);
  bool kinds_differ = false;
  for (std::size_t i = 0; i < n_; ++i) {
    if (call.row_kinds[i] == (*event.requests_.row_kinds)[i]) continue;
    kinds_differ = true;
    for (std::size_t k = 0; k <= sources_.size(); ++k) {
      event.set_row_kind(Eq{i + k * n_}, call.row_kinds[i]);
    }
  }
  if (std::exchange(carried_.rows_changed, false) && !kinds_differ) event.rows_changed();
  if (r.reformulated) event.reformulated();
  if (std::exchange(carried_.pattern_changed, false)) {
    augment_pattern();
    event.sparsity_changed();
  }
  *event.requests_.time_event_times = call.time_event_times;
  if (r.terminate) event.terminate(r.terminate_reason);
  if (r.another_pass) event.request_iteration();
  for (const std::size_t v : r.impulse_sources) {
    // The impulse's sensitivity is a Dirac impulse too: the rows of s_k hold its derivative.
    for (std::size_t k = 0; k <= sources_.size(); ++k) event.impulse(Var{v + k * n_});
  }
  if (r.impulses_integrated) {
    // The model made the jump itself: the handler's writes differentiated are the jump's
    // sensitivities, and the next pass makes both consistent.
    std::vector<EventContext::IntegratedImpulse> impulses;
    for (const auto& [v, integral] : r.integrated_impulses) impulses.push_back({Var{v}, integral});
    event.impulses_integrated(impulses);
  }
}

double SensitivityModel::crossing_value(double t, std::span<const double> x,
                                        std::span<const double> der_x, std::size_t c, std::size_t k,
                                        double eps) {
  CrossingTable probe(model_.structure(), 0.0);
  const std::size_t shift = n_ * (k + 1);
  for (std::size_t j = 0; j < n_; ++j) {
    x_[j] = x[j] + eps * (k < sources_.size() ? x[shift + j] : 0.0);
    der_x_[j] = der_x[j] + eps * (k < sources_.size() ? der_x[shift + j] : 0.0);
  }
  Evaluation at(t, x_, der_x_, r_, {}, &probe, EvaluationPhase::kContinuous, CrossingValues::kUsed);
  if (k < sources_.size()) vary(k, eps);
  try {
    model_.evaluate(at);
  } catch (...) {
    if (k < sources_.size()) vary(k, 0.0);
    throw;
  }
  if (k < sources_.size()) vary(k, 0.0);
  return probe.z()[c];
}

std::vector<double> SensitivityModel::event_time_derivatives(const EventContext& event,
                                                             std::span<const double> x,
                                                             std::span<const double> der_x) {
  std::vector<double> tau(sources_.size(), 0.0);
  if (event.kind_ == EventKind::kTime && event.pass_ == 1) {
    for (std::size_t e = 0; e < event.time_events_fired_.size(); ++e) {
      if (!event.time_events_fired_[e]) continue;
      for (std::size_t k = 0; k < tau.size(); ++k) tau[k] = schedule_derivatives_[e][k];
    }
    return tau;
  }
  if (event.kind_ != EventKind::kState || event.pass_ != 1) return tau;
  std::size_t c = 0;
  while (c < event.crossings_.size() && !event.crossings_.flipped(c)) ++c;
  if (c == event.crossings_.size()) return tau;
  // dg/dt along the solution: the state moved by x' (its curvature is left out).
  const double dt = kRelativeTimeStep * std::max(std::abs(event.t_), 1.0);
  std::vector<double> ahead(x.begin(), x.end()), behind(x.begin(), x.end());
  for (std::size_t j = 0; j < n_; ++j) {
    ahead[j] += dt * der_x[j];
    behind[j] -= dt * der_x[j];
  }
  const std::size_t none = sources_.size();
  const double rate = (crossing_value(event.t_ + dt, ahead, der_x, c, none, 0.0) -
                       crossing_value(event.t_ - dt, behind, der_x, c, none, 0.0)) /
                      (2.0 * dt);
  if (!(std::abs(rate) > 0.0) || !std::isfinite(rate)) {
    throw ModelError(fmt::format(
        "model '{}': crossing '{}' does not cross zero transversally at t = {} (its rate along "
        "the solution is {}), so its event time has no derivative for the sensitivities",
        model_.structure().name, model_.structure().crossings[c].name, event.t_, rate));
  }
  const double g0 = crossing_value(event.t_, x, der_x, c, none, 0.0);
  for (std::size_t k = 0; k < tau.size(); ++k) {
    tau[k] = -along(k, g0, [&](double eps) {
      return crossing_value(event.t_, x, der_x, c, k, eps);
    }) / rate;
  }
  return tau;
}

bool SensitivityModel::only_reformulates(const EventContext& event, const HandlerCall& call,
                                         std::span<const double> x) const {
  const EventRequests& r = call.requests;
  return r.reformulated && !r.row_kinds_changed && !r.terminate && !r.another_pass &&
         r.impulse_sources.empty() && !r.impulses_integrated && !r.previous_unknowns &&
         std::equal(call.x.begin(), call.x.end(), x.begin()) &&
         std::equal(call.row_kinds.begin(), call.row_kinds.end(),
                    event.requests_.row_kinds->begin()) &&
         call.time_event_times == *event.requests_.time_event_times;
}

void SensitivityModel::begin_event_time_correction(EventContext& event, const HandlerCall& first,
                                                   std::vector<double>& x,
                                                   std::span<const double> der_x,
                                                   const std::vector<double>& tau) {
  for (std::size_t k = 0; k < sources_.size(); ++k) {
    for (std::size_t j = 0; j < n_; ++j) x[n_ * (k + 1) + j] += der_x[j] * tau[k];
  }
  pending_ = {tau, !first.requests.impulse_sources.empty() || first.requests.impulses_integrated};
  event.request_iteration();
}

void SensitivityModel::handle(EventContext& event, std::vector<double> x,
                              std::span<const double> der_x, const std::vector<double>& tau) {
  // A first call at the point says whether the handler writes the state or schedules, and
  // the last call, the one whose requests count, must repeat it.
  const std::vector<RowKind>& kinds = *event.requests_.row_kinds;
  carried_.row_kinds.assign(kinds.begin(), kinds.begin() + static_cast<long>(n_));
  const HandlerCall first = call_handler(event, x, der_x, 0, 0.0);
  check_first_call(event, first, x, der_x);
  if (std::any_of(tau.begin(), tau.end(), [](double v) { return v != 0.0; }) &&
      !only_reformulates(event, first, x)) {
    begin_event_time_correction(event, first, x, der_x, tau);
  }
  const std::vector<double>& times = *event.requests_.time_event_times;
  const bool writes = !std::equal(first.x.begin(), first.x.end(), x.begin());
  const bool schedules = first.time_event_times != times;
  std::vector<std::vector<double>> moved(sources_.size(), std::vector<double>(n_, 0.0));
  std::vector<std::vector<double>> timing(sources_.size(), std::vector<double>(times.size(), 0.0));
  for (std::size_t k = 0; k < sources_.size() && (writes || schedules); ++k) {
    const Stencil& st = stencils_[k];
    for (std::size_t m = 0; m < st.points; ++m) {
      const double w = st.weight[m] / steps_[k];
      const HandlerCall c =
          st.offset[m] == 0 ? first : call_handler(event, x, der_x, k, st.offset[m] * steps_[k]);
      for (std::size_t j = 0; j < n_; ++j) moved[k][j] += w * c.x[j];
      for (std::size_t e = 0; e < times.size(); ++e) timing[k][e] += w * c.time_event_times[e];
    }
  }
  const HandlerCall real = call_handler(event, x, der_x, 0, 0.0);
  if (!std::equal(real.x.begin(), real.x.end(), first.x.begin()) ||
      !std::equal(real.time_event_times.begin(), real.time_event_times.end(),
                  first.time_event_times.begin(),
                  [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); })) {
    throw ModelError(fmt::format(
        "model '{}': its event handler at t = {} changed the state or the schedule otherwise "
        "when called again at the same point; a run with sensitivities differentiates the "
        "handler by calling it at nearby points, so what it does must follow from the "
        "crossings, the time events that fired and the state, not from a count or a toggle of "
        "its own",
        model_.structure().name, event.t_));
  }
  for (std::size_t e = 0; e < times.size(); ++e) {
    if (real.time_event_times[e] == times[e] || std::isnan(real.time_event_times[e])) continue;
    for (std::size_t k = 0; k < sources_.size(); ++k) schedule_derivatives_[e][k] = timing[k][e];
  }
  apply_requests(event, real);
  for (std::size_t j = 0; j < n_; ++j) {
    if (real.x[j] != x[j]) event.set(Var{j}, real.x[j]);
  }
  for (std::size_t k = 0; k < sources_.size(); ++k) {
    for (std::size_t j = 0; j < n_; ++j) {
      const std::size_t v = n_ * (k + 1) + j;
      const double s = writes ? moved[k][j] : x[v];
      if (s != event.x(Var{v})) event.set(Var{v}, s);
    }
  }
}

void SensitivityModel::on_event(EventContext& event) {
  const std::size_t total = structure_.num_unknowns();
  std::vector<double> x = values_of(event, total, false);
  const std::vector<double> der_x = values_of(event, total, true);
  if (!pending_.tau.empty() && std::exchange(pending_.after_impulses, false)) {
    // After a jump over impulses der_x is still x'-: this pass makes it x'+, the next one
    // subtracts it.
    event.request_iteration();
  } else if (!pending_.tau.empty()) {
    // The pass after the jump: der_x is x'+ now.
    for (std::size_t k = 0; k < sources_.size(); ++k) {
      for (std::size_t j = 0; j < n_; ++j) x[n_ * (k + 1) + j] -= der_x[j] * pending_.tau[k];
    }
    pending_.tau.clear();
  }
  const std::vector<double> tau = event_time_derivatives(event, x, der_x);
  if (event.pass_ == 1 && (event.kind_ == EventKind::kState || event.kind_ == EventKind::kTime)) {
    for (std::size_t k = 0; k < sources_.size(); ++k) {
      event.requests_.time_sensitivities.push_back({sources_[k].name, tau[k]});
    }
  }
  handle(event, std::move(x), der_x, tau);
}

}  // namespace hdae::detail
