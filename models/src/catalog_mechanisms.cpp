// Mechanisms in the catalog (catalog_groups.hpp): closed loops written as published and reduced
// by the engine, and pendulums of index 3 that strike a wall or are jerked taut, impacts and
// changes of structure in models the engine reduces.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "catalog_groups.hpp"
#include "hdae/index_reduction.hpp"
#include "hdae/models/andrews_squeezer.hpp"
#include "hdae/models/slider_crank.hpp"
#include "hdae/models/string_pendulum.hpp"
#include "hdae/models/wall_pendulum.hpp"

namespace hdae::models {
namespace {

/// The IVP test set's "andrews": 0.03 s from the published consistent start, in which the crank
/// turns two and a half times; the test set's reference at 0.03 s is beta = 15.81077119629904
/// rad (tests/compare/test_references.cpp checks the seven angles).
ExampleRun andrews_squeezer_example() {
  SimulationOptions options = run_to(0.03);
  options.output_interval_s = 1e-4;
  return {
      .options = options,
      .reference_signals = {"beta", "Theta", "gamma", "Phi", "delta", "Omega", "epsilon", "w_beta",
                            "kinetic_energy", "spring_energy"},
      .key_numbers =
          [](const SimulationModel& m, const SimulationResult& r) {
            const auto& reduced = dynamic_cast<const IndexReducedModel&>(m);
            return fmt::format(
                "index {1}, states {2}, at {0} s: beta = {3:.6f}, Theta = {4:.6f}, gamma = "
                "{5:.6f}, Phi = {6:.6f}, delta = {7:.6f}, Omega = {8:.6f}, epsilon = {9:.6f} rad",
                end_time(r), reduced.analysis().index, fmt::join(reduced.states(), ", "),
                r.table.final_value("beta"), r.table.final_value("Theta"),
                r.table.final_value("gamma"), r.table.final_value("Phi"),
                r.table.final_value("delta"), r.table.final_value("Omega"),
                r.table.final_value("epsilon"));
          },
      .description =
          "Andrews' squeezing mechanism (Hairer and Wanner VII.7, IVP test set): 7 "
          "bodies, 3 loops, index 3 reduced by the engine; beta(0.03) = 15.810771 rad",
  };
}

/// The crank turns at a constant speed (a motor row w = omega), so the slider follows the
/// closed form of its kinematics; the forces come from the masses of rod and slider and from
/// gravity. Rows at IDA's steps keep the joints on every row to the Newton tolerance, as for
/// the Cartesian pendulum.
ExampleRun slider_crank_example() {
  return {
      .options = run_to_at_steps(2.0),
      .reference_signals = {"theta", "xA", "yA", "xB", "uB", "FAx", "FAy", "lambda", "N", "tau",
                            "energy", "power"},
      .key_numbers =
          [](const SimulationModel& m, const SimulationResult& r) {
            const auto& reduced = dynamic_cast<const IndexReducedModel&>(m);
            const auto& crank = dynamic_cast<const SliderCrank&>(reduced.original());
            const SliderCrankParameters& p = crank.parameters();
            const double t = r.table.time(r.table.num_rows() - 1);
            return fmt::format(
                "index {1}, xB({0}) = {2:.9f} m (closed form {3:.9f} m), tau({0}) = {4:.6f} N m",
                end_time(r), reduced.analysis().index, r.table.final_value("xB"),
                slider_crank_slider_x(p.crank_length_m, p.rod_length_m,
                                      p.theta0_rad + p.omega_radps * t),
                r.table.final_value("tau"));
          },
      .description =
          "Slider crank in natural coordinates (index 3, reduced by the engine): crank "
          "at 1 turn/s, slider at x_B = r cos(theta) + sqrt(l^2 - r^2 sin^2(theta))",
  };
}

/// An impact in a model of higher index: the rod force's impulse and the velocity jump along
/// the rod's hidden constraints are the engine's. Rows at IDA's steps, as for the Cartesian
/// pendulum.
ExampleRun wall_pendulum_example() {
  return {
      .options = run_to_at_steps(3.0),
      .reference_signals = {"x", "y", "vx", "vy", "F", "Fc", "phi", "energy"},
      .key_numbers =
          [](const SimulationModel& m, const SimulationResult& r) {
            const auto& reduced = dynamic_cast<const IndexReducedModel&>(m);
            const auto& bob = dynamic_cast<const WallPendulum&>(reduced.original());
            double first = 0.0;
            for (const EventRecord& e : r.events) {
              if (!e.impulses.empty()) {
                first = e.t;
                break;
              }
            }
            return fmt::format("impacts = {1}, the first at t = {2:.9f} s, energy({0}) = {3:.6f} J",
                               end_time(r), bob.impacts(), first, r.table.final_value("energy"));
          },
      .description =
          "Cartesian pendulum (index 3, reduced by the engine) released from the "
          "horizontal, striking a wall under its pivot with e = 0.5: the contact "
          "force is an impact source",
  };
}

/// Changes of structure: taut (index 3) and slack (index 1) have their own layouts.
ExampleRun string_pendulum_example() {
  return {
      .options = run_to_at_steps(2.0),
      .reference_signals = {"x", "y", "vx", "vy", "T", "phi", "energy", "r"},
      .key_numbers =
          [](const SimulationModel& m, const SimulationResult& r) {
            const auto& reduced = dynamic_cast<const IndexReducedModel&>(m);
            return fmt::format(
                "events = {1}, re-selections and layouts = {2}, energy({0}) = {3:.6f} J",
                end_time(r), r.events.size(), reduced.selection_changes(),
                r.table.final_value("energy"));
          },
      .description =
          "Bob on a string started at the bottom at sqrt(3.5 g L): slack at 120 "
          "degrees, a parabola, jerked taut (restitution 0); laid out afresh at "
          "each change of structure",
  };
}

}  // namespace

std::vector<CatalogEntry> mechanism_models() {
  return {
      {"andrews_squeezer",
       "Andrews' squeezing mechanism (IVP test set): 7 bodies, 3 closed loops, index 3, reduced "
       "by the engine",
       [] { return std::unique_ptr<SimulationModel>(make_andrews_squeezer()); },
       andrews_squeezer_example()},
      {"slider_crank",
       "Slider crank in natural coordinates, crank driven at constant speed (index 3), reduced "
       "by the engine",
       [] { return std::unique_ptr<SimulationModel>(make_slider_crank()); },
       slider_crank_example()},
      {"wall_pendulum",
       "Cartesian pendulum (index 3) striking a wall under its pivot with e = 0.5: the engine "
       "integrates the reduced equations over the contact force's impulse",
       [] { return std::unique_ptr<SimulationModel>(make_wall_pendulum()); },
       wall_pendulum_example()},
      {"string_pendulum",
       "Bob on a string (index 3 taut, 1 slack) started at the bottom: goes slack, flies, jerks "
       "taut; the reduced system is laid out afresh at each change",
       [] { return std::unique_ptr<SimulationModel>(make_string_pendulum()); },
       string_pendulum_example()},
  };
}

}  // namespace hdae::models
