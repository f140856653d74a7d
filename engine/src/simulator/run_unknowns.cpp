// A change of unknowns at an event (EventContext::unknowns_changed): the run takes the model's
// new structure, carries the values over, and its integrator is made anew at the restart.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "simulator/run_settings.hpp"
#include "simulator/simulation_run.hpp"

namespace hdae::detail {
namespace {

/// "" when both lists hold the same names in the same order, else what differs, in words.
template <class Info>
std::string changed_names(const std::vector<Info>& before, const std::vector<Info>& now,
                          const char* what) {
  if (before.size() != now.size()) {
    return fmt::format("{} {}s instead of {}", now.size(), what, before.size());
  }
  for (std::size_t k = 0; k < now.size(); ++k) {
    if (before[k].name != now[k].name) {
      return fmt::format("{} {} '{}' where the run's is '{}'", what, k, now[k].name,
                         before[k].name);
    }
  }
  return {};
}

}  // namespace

void SimulationRun::check_new_structure(double t, std::span<const std::size_t> previous,
                                        std::size_t before) const {
  const ModelStructure& now = model_.structure();
  const std::string model = fmt::format("model '{}' changed its unknowns at t = {}", now.name, t);
  now.validate();
  check_linear_solver(options_, now);
  if (previous.size() != now.num_unknowns()) {
    throw ModelError(fmt::format("{}: it declares {} unknowns but unknowns_changed lists {}",
                                 model, now.num_unknowns(), previous.size()));
  }
  for (std::size_t j = 0; j < previous.size(); ++j) {
    if (previous[j] != EventContext::kNewUnknown && previous[j] >= before) {
      throw ModelError(fmt::format(
          "{}: unknowns_changed carries unknown '{}' on from index {}, beyond the {} unknowns "
          "before",
          model, now.variables.name(j), previous[j], before));
    }
  }
  // The crossing table, the time-event schedule and the chattering watch are the run's.
  std::string changed = changed_names(crossing_infos_, now.crossings, "crossing");
  if (changed.empty()) changed = changed_names(time_event_infos_, now.time_events, "time event");
  if (!changed.empty()) {
    throw ModelError(fmt::format(
        "{}: it declares {}; the crossings and time events of a run stay those it started with",
        model, changed));
  }
}

void SimulationRun::change_unknowns(double t, std::span<const std::size_t> previous) {
  check_new_structure(t, previous, n_);
  const ModelStructure& now = model_.structure();
  std::vector<double> x(previous.size());
  std::vector<double> der_x(previous.size());
  for (std::size_t j = 0; j < previous.size(); ++j) {
    if (previous[j] == EventContext::kNewUnknown) {
      x[j] = now.variables.start(j);
      der_x[j] = now.variables.declared(j).der_start.value_or(0.0);
    } else {
      x[j] = x_[previous[j]];
      der_x[j] = der_x_[previous[j]];
    }
  }
  log(LogLevel::kInfo, fmt::format("t = {}: model '{}' changed its unknowns from {} to {}", t,
                                   now.name, n_, previous.size()));
  // x_, der_x_ and row_kinds_ are assigned, not replaced: the event iteration holds them.
  x_ = std::move(x);
  der_x_ = std::move(der_x);
  structure_ = &now;
  n_ = now.num_unknowns();
  row_kinds_ = now.equations.kinds();
  root_location_.resize(n_);
  reinit_ = std::make_unique<reinit::Reinitializer>(model_, reinit_settings(options_),
                                                    sparse_pattern(options_, now));
  integration_.unknowns_changed(n_);
  recorder_.change_unknowns(now);
}

}  // namespace hdae::detail
