// What the parts of the examples' table share (registry.cpp, physics_examples.cpp): the
// common run settings and key-number helpers, and the functions that append a group of
// examples in registry order.
#pragma once

#include <string>
#include <vector>

#include <fmt/format.h>

#include "hdae/models/catalog.hpp"
#include "registry/registry.hpp"

namespace hdae::examples {

/// stop_s and rel_tol 1e-8 (the examples' accuracy), the default output grid of 500 intervals.
inline SimulationOptions run_to(double stop_s) {
  SimulationOptions o;
  o.stop_s = stop_s;
  o.rel_tol = 1e-8;
  return o;
}

/// run_to with rows at IDA's steps (no interpolation), so that the constraints of a reduced
/// model and their hidden derivatives hold on every row to the Newton tolerance.
inline SimulationOptions run_to_at_steps(double stop_s) {
  SimulationOptions o = run_to(stop_s);
  o.step_to_outputs = true;
  return o;
}

/// The time of the last row, where the key numbers' final values are taken: the stop time
/// unless the run ended early.
inline std::string end_time(const SimulationResult& r) {
  return fmt::format("{:g}", r.table.time(r.table.num_rows() - 1));
}

/// Both three-mass models: how many state events, and the final velocities.
inline std::string three_masses_numbers(const SimulationModel& /*model*/,
                                        const SimulationResult& r) {
  return fmt::format("state events = {1}, v({0}) = ({2:.6f}, {3:.6f}, {4:.6f}) m/s", end_time(r),
                     r.statistics.state_events, r.table.final_value("v1"),
                     r.table.final_value("v2"), r.table.final_value("v3"));
}

/// The model of the catalog (hdae/models/catalog.hpp) called name, with its defaults: the
/// examples without command-line parameters.
inline ModelFactory from_catalog(const char* name) {
  return [name](const ParameterValues&) { return models::make_model(name); };
}

/// The value of column name in x^+(t0), the state after an initial jump: the last row at the
/// start time (row 0 holds x^-(t0) when the initial event moved the state).
inline double initial_value(const SimulationResult& r, const char* name) {
  std::size_t row = 0;
  while (row + 1 < r.table.num_rows() && r.table.time(row + 1) == r.table.time(0)) ++row;
  return r.table.value(row, r.table.column_index(name));
}

/// The impact examples (after three_masses): the pendulums of index 3 that strike a wall or are
/// jerked taut, and the colliding and three masses with their contact forces as impact sources.
void add_impact_examples(std::vector<Example>& examples);
/// The ITI paper's examples, the forms of the PID-controlled mass, the tank with overflow.
void add_substitution_examples(std::vector<Example>& examples);
/// Mechanisms of closed loops, written as published and reduced by the engine: Andrews'
/// squeezer (after the substitution examples).
void add_mechanism_examples(std::vector<Example>& examples);

}  // namespace hdae::examples
