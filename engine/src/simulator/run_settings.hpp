// The settings of a run's collaborators, read from its options and the model's structure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "events/chattering.hpp"
#include "hdae/model.hpp"
#include "hdae/options.hpp"
#include "reinit/reinitializer.hpp"

namespace hdae::detail {

[[nodiscard]] ChatteringSettings chattering_settings(const SimulationOptions& o);
[[nodiscard]] std::vector<std::string> crossing_names(const ModelStructure& s);
/// One decision for the whole run: IDA's linear solver and the re-initialization's matrices
/// are both sparse (KLU) or both dense (SimulationOptions::sparse_min_unknowns).
[[nodiscard]] std::optional<sparsity::SparsityPattern> sparse_pattern(const SimulationOptions& o,
                                                                      const ModelStructure& s);
[[nodiscard]] reinit::ReinitSettings reinit_settings(const SimulationOptions& o);
/// OptionError when the options ask for KLU and the model declares no sparsity pattern.
void check_linear_solver(const SimulationOptions& o, const ModelStructure& s);

}  // namespace hdae::detail
