// EventContext: what a model sees and may change in on_event (hdae/model.hpp), recorded in
// the EventRequests of the pass (event_requests.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "events/crossing_table.hpp"
#include "events/event_requests.hpp"
#include "hdae/errors.hpp"
#include "hdae/model.hpp"

namespace hdae {

EventContext::EventContext(double t, EventKind kind, int pass, std::span<double> x,
                           std::span<const double> der_x, const detail::CrossingTable& crossings,
                           std::span<const bool> time_events_fired, detail::EventRequests& requests)
    : t_(t),
      kind_(kind),
      pass_(pass),
      x_(x),
      der_x_(der_x),
      crossings_(crossings),
      time_events_fired_(time_events_fired),
      requests_(requests) {}

bool EventContext::is_true(Crossing c) const {
  return crossings_.value(detail::checked("crossing", c.index, crossings_.size()));
}

bool EventContext::rose(Crossing c) const {
  detail::checked("crossing", c.index, crossings_.size());
  return crossings_.value(c.index) && !crossings_.previous(c.index);
}

bool EventContext::fell(Crossing c) const {
  detail::checked("crossing", c.index, crossings_.size());
  return !crossings_.value(c.index) && crossings_.previous(c.index);
}

EventContext EventContext::with_state(std::span<double> x, std::span<const double> der_x,
                                      std::vector<Var>* impulses) const {
  EventContext view(t_, kind_, pass_, x, der_x, crossings_, time_events_fired_, requests_);
  view.wrapped_ = true;
  view.wrapped_impulses_ = impulses;
  return view;
}

namespace {

void refuse_in_wrapped(bool wrapped, const char* what) {
  if (wrapped) {
    throw ModelError(fmt::format(
        "{} is not available to a model wrapped by another (e.g. reduced in index): switch the "
        "equations inside the residuals and call rows_changed()",
        what));
  }
}

}  // namespace

void EventContext::set_row_kind(Eq e, RowKind kind) {
  refuse_in_wrapped(wrapped_, "EventContext::set_row_kind");
  RowKind& current =
      (*requests_.row_kinds)[detail::checked("equation", e.index, requests_.row_kinds->size())];
  if (current != kind) {
    current = kind;
    requests_.row_kinds_changed = true;
  }
}

void EventContext::rows_changed() { requests_.row_kinds_changed = true; }

void EventContext::reformulated() { requests_.reformulated = true; }

void EventContext::sparsity_changed() { requests_.sparsity_changed = true; }

void EventContext::unknowns_changed(std::vector<std::size_t> previous) {
  if (wrapped_) {
    throw ModelError(
        "EventContext::unknowns_changed is not available to a model wrapped by another (e.g. "
        "reduced in index): the wrapping model lays out its own unknowns");
  }
  requests_.previous_unknowns = std::move(previous);
}

std::vector<std::size_t> carried_unknowns(const VariableTable& before, const VariableTable& after) {
  std::unordered_map<std::string, std::size_t> index;
  index.reserve(before.size());
  for (std::size_t j = 0; j < before.size(); ++j) index.emplace(before.name(j), j);
  std::vector<std::size_t> previous(after.size(), EventContext::kNewUnknown);
  for (std::size_t j = 0; j < after.size(); ++j) {
    if (const auto it = index.find(after.name(j)); it != index.end()) previous[j] = it->second;
  }
  return previous;
}

void EventContext::schedule(TimeEvent e, double t_s) {
  const std::string& name =
      requests_.structure
          ->time_events[detail::checked("time event", e.index, requests_.time_event_times->size())]
          .name;
  if (!std::isfinite(t_s) || t_s < t_) {
    throw ModelError(fmt::format(
        "time event '{}' scheduled at t = {} which is before the current time {} or not finite",
        name, t_s, t_));
  }
  (*requests_.time_event_times)[e.index] = t_s;
}

void EventContext::cancel(TimeEvent e) {
  (*requests_.time_event_times)[detail::checked("time event", e.index,
                                                requests_.time_event_times->size())] =
      std::numeric_limits<double>::quiet_NaN();
}

void EventContext::terminate(std::string reason) {
  requests_.terminate = true;
  requests_.terminate_reason = std::move(reason);
}

void EventContext::request_iteration() { requests_.another_pass = true; }

void EventContext::impulse(Var v) {
  const std::size_t j = detail::checked("variable", v.index, x_.size());
  if (wrapped_impulses_ != nullptr) {
    // The wrapping model integrates the impact over its own equations.
    if (std::none_of(wrapped_impulses_->begin(), wrapped_impulses_->end(),
                     [j](Var w) { return w.index == j; })) {
      wrapped_impulses_->push_back(v);
    }
    return;
  }
  refuse_in_wrapped(wrapped_, "EventContext::impulse");
  if (requests_.impulses_integrated) {
    throw ModelError(
        "EventContext::impulse: the impact of this pass was already integrated by the model "
        "(impulses_integrated)");
  }
  if (std::find(requests_.impulse_sources.begin(), requests_.impulse_sources.end(), j) ==
      requests_.impulse_sources.end()) {
    requests_.impulse_sources.push_back(j);
  }
  requests_.another_pass = true;
}

void EventContext::impulses_integrated(const std::vector<IntegratedImpulse>& impulses) {
  refuse_in_wrapped(wrapped_, "EventContext::impulses_integrated");
  if (!requests_.impulse_sources.empty()) {
    throw ModelError(
        "EventContext::impulses_integrated: impulse() was called in the same pass; an impact is "
        "integrated either by the simulator or by the model");
  }
  requests_.impulses_integrated = true;
  for (const IntegratedImpulse& i : impulses) {
    requests_.integrated_impulses.emplace_back(
        detail::checked("variable", i.variable.index, x_.size()), i.integral);
  }
  requests_.another_pass = true;
}

}  // namespace hdae
