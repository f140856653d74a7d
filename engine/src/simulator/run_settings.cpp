#include "simulator/run_settings.hpp"

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "model/model_pattern.hpp"

namespace hdae::detail {

ChatteringSettings chattering_settings(const SimulationOptions& o) {
  return {.window = o.chattering_event_count,
          .min_relative_spacing = o.chattering_min_relative_spacing,
          .dense_window = o.chattering_dense_event_count,
          .dense_span_fraction = o.chattering_dense_span_fraction,
          .interval_s = o.stop_s - o.start_s};
}

std::vector<std::string> crossing_names(const ModelStructure& s) {
  std::vector<std::string> names;
  names.reserve(s.crossings.size());
  for (const CrossingInfo& c : s.crossings) names.push_back(c.name);
  return names;
}

std::optional<sparsity::SparsityPattern> sparse_pattern(const SimulationOptions& o,
                                                        const ModelStructure& s) {
  const bool sparse = o.linear_solver == LinearSolverKind::kKlu ||
                      (o.linear_solver == LinearSolverKind::kAuto && !s.sparsity.empty() &&
                       s.num_unknowns() >= o.sparse_min_unknowns);
  if (!sparse) return std::nullopt;
  return pattern_of(s);
}

reinit::ReinitSettings reinit_settings(const SimulationOptions& o) {
  return {.rule = o.jump_rule,
          .tolerance = o.jump_tol_factor * o.rel_tol,
          .max_iterations = o.max_jump_iterations};
}

void check_linear_solver(const SimulationOptions& o, const ModelStructure& s) {
  if (o.linear_solver == LinearSolverKind::kKlu && s.sparsity.empty()) {
    throw OptionError(fmt::format(
        "SimulationOptions::linear_solver is kKlu but model '{}' declares no sparsity pattern "
        "(declare_dependency); use kAuto or kDense, or declare the pattern",
        s.name));
  }
}

}  // namespace hdae::detail
