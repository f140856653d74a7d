// A change of unknowns at an event (EventContext::unknowns_changed): the run takes the model's
// new structure, carries the values over, and its integrator is made anew at the restart. A
// new sparsity pattern (EventContext::sparsity_changed): the jump solve and IDA take it, and
// IDA keeps its history.
#include <vector>

#include <fmt/format.h>

#include "model/model_pattern.hpp"
#include "simulator/run_settings.hpp"
#include "simulator/simulation_run.hpp"

namespace hdae::detail {
void SimulationRun::change_unknowns(double t, std::span<const std::size_t> previous) {
  u_.change.check(model_.structure(), options_, t, previous, u_.n);
  const ModelStructure& now = model_.structure();
  std::vector<double> x(previous.size());
  std::vector<double> der_x(previous.size());
  for (std::size_t j = 0; j < previous.size(); ++j) {
    if (previous[j] == EventContext::kNewUnknown) {
      x[j] = now.variables.start(j);
      der_x[j] = now.variables.declared(j).der_start.value_or(0.0);
    } else {
      x[j] = u_.x[previous[j]];
      der_x[j] = u_.der_x[previous[j]];
    }
  }
  log(LogLevel::kInfo, fmt::format("t = {}: model '{}' changed its unknowns from {} to {}", t,
                                   now.name, u_.n, previous.size()));
  // u_.x, u_.der_x and u_.row_kinds are assigned, not replaced: the event iteration holds them.
  u_.x = std::move(x);
  u_.der_x = std::move(der_x);
  u_.structure = &now;
  u_.n = now.num_unknowns();
  u_.row_kinds = now.equations.kinds();
  u_.has_pattern = !now.sparsity.empty();
  root_location_.resize(u_.n);
  reinit_ = std::make_unique<reinit::Reinitializer>(model_, reinit_settings(options_),
                                                    sparse_pattern(options_, now));
  integration_.unknowns_changed(u_.n);
  output_.recorder.change_unknowns(now);
}

void SimulationRun::change_sparsity(double t) {
  const ModelStructure& now = model_.structure();
  check_pattern_change(now, u_.n, u_.has_pattern, t);
  u_.structure = &now;
  // A dense run has no pattern to replace: the check is all.
  if (reinit_->workspace().pattern() == nullptr) return;
  reinit_->change_pattern(pattern_of(now));
  integration_.pattern_changed(*reinit_);
  log(LogLevel::kInfo, fmt::format("t = {}: model '{}' changed its sparsity pattern", t, now.name));
}

}  // namespace hdae::detail
