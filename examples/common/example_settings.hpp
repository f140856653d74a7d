// The simulation settings of every bundled example program, defined once: each
// examples/<name>/main.cpp runs with its function below, and the reference runs
// (tools/make_references/example_runs.hpp, which tightens rel_tol for references/<name>.csv)
// and the in-process regression tests (tests/compare/test_regression.cpp) take their options
// from the same function, so the programs and the runs their results are checked against
// cannot drift apart. The models run with their default parameters everywhere; the chain's
// size is the one setting given on the command line (kChainDefaultMasses).
#pragma once

#include <cstddef>

#include "hdae/options.hpp"

namespace hdae::examples {

/// hdae-mass-spring-chain's N when the command line gives none.
inline constexpr std::size_t kChainDefaultMasses = 2000;

namespace detail {

/// stop_s and rel_tol 1e-8 (the examples' accuracy), the default output grid of 500 intervals.
inline SimulationOptions run_to(double stop_s) {
  SimulationOptions o;
  o.stop_s = stop_s;
  o.rel_tol = 1e-8;
  return o;
}

}  // namespace detail

inline SimulationOptions pendulum_options() { return detail::run_to(10.0); }

inline SimulationOptions simple_state_events_options() {
  SimulationOptions o = detail::run_to(10.0);
  o.output_interval_s = 0.1;
  return o;
}

inline SimulationOptions bouncing_ball_options() { return detail::run_to(3.0); }

/// The chain keeps the default rel_tol (1e-6) and solves its 3N unknowns with KLU.
inline SimulationOptions mass_spring_chain_options() {
  SimulationOptions o;
  o.stop_s = 10.0;
  o.output_interval_s = 0.1;
  o.linear_solver = LinearSolverKind::kKlu;
  return o;
}

inline SimulationOptions ideal_clutch_options() { return detail::run_to(500.0); }

inline SimulationOptions colliding_masses_options() { return detail::run_to(2.0); }

inline SimulationOptions three_masses_options() { return detail::run_to(2.0); }

inline SimulationOptions pendulum_dae_options() { return detail::run_to(2.0); }

inline SimulationOptions free_body_rotation_options() { return detail::run_to(5.0); }

inline SimulationOptions hydraulic_actuator_options() { return detail::run_to(10.0); }

}  // namespace hdae::examples
