// A change of unknowns at an event (EventContext::unknowns_changed): the run takes the model's
// new structure, carries the values over, and its integrator is made anew at the restart.
#include <vector>

#include <fmt/format.h>

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
  root_location_.resize(u_.n);
  reinit_ = std::make_unique<reinit::Reinitializer>(model_, reinit_settings(options_),
                                                    sparse_pattern(options_, now));
  integration_.unknowns_changed(u_.n);
  output_.recorder.change_unknowns(now);
}

}  // namespace hdae::detail
