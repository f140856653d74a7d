// The groups of the catalog's entries (catalog.cpp puts them in order), one source file each,
// and what their examples' key numbers share.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hdae/models/catalog.hpp"

namespace hdae::models {

/// A model with its default parameters.
template <typename M>
std::unique_ptr<SimulationModel> make_default() {
  return std::make_unique<M>();
}

/// The time of the last row, where the key numbers' final values are taken: the stop time
/// unless the run ended early.
inline std::string end_time(const SimulationResult& r) {
  return fmt::format("{:g}", r.table.time(r.table.num_rows() - 1));
}

/// The value of column name in x^+(t0), the state after an initial jump: the last row at the
/// start time (row 0 holds x^-(t0) when the initial event moved the state).
inline double initial_value(const SimulationResult& r, const char* name) {
  std::size_t row = 0;
  while (row + 1 < r.table.num_rows() && r.table.time(row + 1) == r.table.time(0)) ++row;
  return r.table.value(row, r.table.column_index(name));
}

/// The first examples: a pendulum, state events, a bouncing ball, and the large sparse chain.
std::vector<CatalogEntry> basic_models();
/// Impacts: Dirac impulses at a clutch's engagement and colliding masses, by the jump solve or
/// as impact sources.
std::vector<CatalogEntry> impact_models();
/// Differential-algebraic models of index 1 to 3, as written or reduced by the engine.
std::vector<CatalogEntry> dae_models();
/// Substitute equations (chi): the PID-controlled mass in its four forms and the tank.
std::vector<CatalogEntry> substitution_models();
/// Mechanisms in index 3 reduced by the engine, with impacts and changing structure.
std::vector<CatalogEntry> mechanism_models();

}  // namespace hdae::models
