// The engine's basics in the catalog (catalog_groups.hpp): the pendulum as an ODE, state events
// that switch a force and that reverse a velocity, and a large sparse DAE, the case the KLU
// solver and the Jacobian colouring are there for.
#include <fmt/format.h>

#include "catalog_groups.hpp"
#include "hdae/models/bouncing_ball.hpp"
#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/models/simple_state_events.hpp"

namespace hdae::models {
namespace {

/// The example's size: a disturbance needs 200 s to cross 2000 masses, so a 10 s run is a
/// large sparse problem where only the free end moves.
constexpr std::size_t kChainMasses = 2000;

ExampleRun pendulum_example() {
  return {
      .options = run_to(10.0),
      .reference_signals = {"phi", "w"},
      .key_numbers =
          [](const SimulationModel&, const SimulationResult& r) {
            return fmt::format("phi({0}) = {1:.6f} rad, w({0}) = {2:.6f} rad/s", end_time(r),
                               r.table.final_value("phi"), r.table.final_value("w"));
          },
      .description = "Pendulum (ODE form): L = 0.5 m, m = 1 kg, d = 0.1 N m s, phi0 = 60 deg",
  };
}

ExampleRun simple_state_events_example() {
  SimulationOptions options = run_to(10.0);
  options.output_interval_s = 0.1;
  return {
      .options = options,
      .reference_signals = {"s", "v", "f"},
      .key_numbers =
          [](const SimulationModel&, const SimulationResult& r) {
            return fmt::format("{} state events", r.statistics.state_events);
          },
      .description = "Simple state events: a spring-mass pushed by a force that switches at s = 0",
  };
}

ExampleRun bouncing_ball_example() {
  return {
      .options = run_to(3.0),
      .reference_signals = {"h", "v"},
      .key_numbers =
          key_numbers_of<BouncingBall>([](const BouncingBall& ball, const SimulationResult& r) {
            return fmt::format("{} impacts, at rest: {}", r.statistics.state_events,
                               ball.flying() ? "no" : "yes");
          }),
      .description =
          "Bouncing ball: h0 = 1 m, e = 0.7, at rest once the rebound speed is below "
          "0.01 m/s",
  };
}

/// The chain keeps the default rel_tol (1e-6) and solves its 3N unknowns with KLU. Its
/// reference has N = 20: a disturbance travels along the chain at sqrt(k/m) = 10 masses per
/// second, so in the 10 s of the run only the last ~100 of the default 2000 masses would move
/// and most columns would be constant; with N = 20 every mass takes part, through the same KLU
/// path. The default N has a ctest of its own (tests/CMakeLists.txt).
ExampleRun mass_spring_chain_example() {
  SimulationOptions options;
  options.stop_s = 10.0;
  options.output_interval_s = 0.1;
  options.linear_solver = LinearSolverKind::kKlu;
  return {
      .options = options,
      .reference_signals = {"s[1]", "s[10]", "s[20]", "v[20]", "f[1]", "energy"},
      .key_numbers = key_numbers_of<MassSpringChain>(
          [](const MassSpringChain& model, const SimulationResult& r) {
            const std::size_t masses = model.parameters().masses;
            return fmt::format(
                "N = {} masses ({} unknowns, KLU, {} Jacobian colours), energy {:.6g} J -> "
                "{:.6g} J",
                masses, 3 * masses, r.statistics.jacobian_colors, initial_value(r, "energy"),
                r.table.final_value("energy"));
          }),
      .description =
          "A chain of N masses and springs (3N unknowns, sparse DAE) integrated with KLU",
      .parameters = {{.kind = ParameterKind::kCount,
                      .name = "N",
                      .help = "number of masses",
                      .default_count = kChainMasses}},
      .reference_parameters = {.counts = {{"N", 20}}},
  };
}

}  // namespace

std::vector<CatalogEntry> basic_models() {
  return {
      {"pendulum", "Pendulum as an ODE in angle and angular velocity, damped",
       make_default<Pendulum>, pendulum_example()},
      {"simple_state_events", "Spring-mass pushed by a force that switches at s = 0",
       make_default<SimpleStateEvents>, simple_state_events_example()},
      {"bouncing_ball", "Ball bouncing with restitution e, at rest below a rebound speed",
       make_default<BouncingBall>, bouncing_ball_example()},
      {"mass_spring_chain", "Chain of N masses and springs (3N unknowns, sparse index-1 DAE)",
       [] {
         return std::make_unique<MassSpringChain>(
             MassSpringChainParameters{.masses = kChainMasses});
       },
       mass_spring_chain_example()},
  };
}

}  // namespace hdae::models
