// Impacts in the catalog (catalog_groups.hpp): Dirac impulses that the jump solve resolves (a
// clutch that locks, masses that collide), and the masses again with their contact forces as
// impact sources, whose impulses the engine integrates. The default grid of 500 intervals
// keeps the examples' files small.
#include <fmt/format.h>

#include "catalog_groups.hpp"
#include "hdae/models/colliding_masses.hpp"
#include "hdae/models/ideal_clutch.hpp"
#include "hdae/models/three_masses.hpp"

namespace hdae::models {
namespace {

ExampleRun ideal_clutch_example() {
  return {
      .options = run_to(500.0),
      // Speeds, the angular impulse of the clutch (jump of tau_int) and the clutch mode.
      .reference_signals = {"w1", "w2", "tau_int", "engaged"},
      .key_numbers =
          [](const SimulationModel&, const SimulationResult& r) {
            return fmt::format(
                "w1(0+) = {1:.6f} rad/s, w1({0}) = {2:.6f} rad/s, w2({0}) = "
                "{3:.6f} rad/s",
                end_time(r), initial_value(r, "w1"), r.table.final_value("w1"),
                r.table.final_value("w2"));
          },
      .description =
          "Ideal clutch (Benveniste et al. 2019): engaged for t < 100 s and t >= 300 s, "
          "Dirac impulses at t = 0 and 300 s",
  };
}

ExampleRun colliding_masses_example() {
  return {
      .options = run_to(2.0),
      .reference_signals = {"s1", "s2", "v1", "v2", "p_int", "momentum", "kinetic_energy"},
      .key_numbers = key_numbers_of<CollidingMasses>(
          [](const CollidingMasses& model, const SimulationResult& r) {
            return fmt::format(
                "impacts = {1}, v1({0}) = {2:.6f} m/s, v2({0}) = {3:.6f} m/s, p_int({0}) = "
                "{4:.6f} N s",
                end_time(r), model.impacts(), r.table.final_value("v1"), r.table.final_value("v2"),
                r.table.final_value("p_int"));
          }),
      .description =
          "Two colliding masses: plastic impact (e = 0), u = (1, 0) m/s; both move on "
          "at 0.5 m/s",
  };
}

ExampleRun colliding_masses_impact_example() {
  return {
      .options = run_to(2.0),
      .reference_signals = {"s1", "s2", "v1", "v2", "F", "momentum", "kinetic_energy"},
      .key_numbers = key_numbers_of<CollidingMasses>(
          [](const CollidingMasses& model, const SimulationResult& r) {
            return fmt::format("impacts = {1}, v1({0}) = {2:.6f} m/s, v2({0}) = {3:.6f} m/s",
                               end_time(r), model.impacts(), r.table.final_value("v1"),
                               r.table.final_value("v2"));
          }),
      .description =
          "Two colliding masses (ITI paper, section 3.1) with the contact force as "
          "impact source: e = 0.8, m = (1, 2) kg, u = (1, 0) m/s",
  };
}

/// Both three-mass models: how many state events, and the final velocities.
std::string three_masses_numbers(const SimulationModel& /*model*/, const SimulationResult& r) {
  return fmt::format("state events = {1}, v({0}) = ({2:.6f}, {3:.6f}, {4:.6f}) m/s", end_time(r),
                     r.statistics.state_events, r.table.final_value("v1"),
                     r.table.final_value("v2"), r.table.final_value("v3"));
}

ExampleRun three_masses_example() {
  return {
      .options = run_to(2.0),
      .reference_signals = {"s1", "s2", "s3", "v1", "v2", "v3", "p_int1", "p_int2", "momentum",
                            "kinetic_energy"},
      .key_numbers = three_masses_numbers,
      .description =
          "Three masses, two end stops hit at the same instant (ITI paper, example 3): "
          "one event, two impacts",
  };
}

ExampleRun three_masses_impact_example() {
  return {
      .options = run_to(2.0),
      .reference_signals = {"s1", "s2", "s3", "v1", "v2", "v3", "F1", "F2", "momentum",
                            "kinetic_energy"},
      .key_numbers = three_masses_numbers,
      .description =
          "The three masses with the stop forces F1, F2 as impact sources: the "
          "engine integrates the equations of motion over the impulses",
  };
}

}  // namespace

std::vector<CatalogEntry> impact_models() {
  return {
      {"ideal_clutch",
       "Ideal clutch (Benveniste et al. 2019) locking two shafts: Dirac impulses at engagement",
       make_default<IdealClutch>, ideal_clutch_example()},
      {"colliding_masses", "Two masses colliding with restitution e, impact by the jump solve",
       make_default<CollidingMasses>, colliding_masses_example()},
      {"colliding_masses_impact",
       "Two masses colliding (ITI paper 3.1): contact force as impact source, e = 0.8",
       [] {
         return std::make_unique<CollidingMasses>(
             CollidingMassesParameters{.mass2_kg = 2.0, .restitution = 0.8},
             ImpulseForm::kImpactSources);
       },
       colliding_masses_impact_example()},
      {"three_masses", "Three masses, two end stops hit at the same instant (two impacts)",
       make_default<ThreeMasses>, three_masses_example()},
      {"three_masses_impact",
       "The three masses with stop forces as impact sources: the engine integrates the impulses",
       [] {
         return std::make_unique<ThreeMasses>(ThreeMassesParameters{}, ImpulseForm::kImpactSources);
       },
       three_masses_impact_example()},
  };
}

}  // namespace hdae::models
