// The examples of models written as the physics reads: impacts with forces as impact
// sources, changing index and substitute equations, closed-loop mechanisms (registry.cpp has
// the rest of the table).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "hdae/index_reduction.hpp"
#include "hdae/models/colliding_masses.hpp"
#include "hdae/models/iti_example2.hpp"
#include "hdae/models/pid_controller.hpp"
#include "hdae/models/slider_crank.hpp"
#include "hdae/models/string_pendulum.hpp"
#include "hdae/models/tank_overflow.hpp"
#include "hdae/models/wall_pendulum.hpp"
#include "registry/registry_parts.hpp"

namespace hdae::examples {
namespace {

/// Pendulums of index 3 that strike a wall or are jerked taut: impacts and changes of
/// structure in models the engine reduces.
void add_pendulum_impact_examples(std::vector<Example>& examples) {
  // An impact in a model of higher index: the rod force's impulse and the velocity jump along
  // the rod's hidden constraints are the engine's. Rows at IDA's steps, as for the Cartesian
  // pendulum.
  examples.push_back({
      .name = "wall_pendulum",
      .description = "Cartesian pendulum (index 3, reduced by the engine) released from the "
                     "horizontal, striking a wall under its pivot with e = 0.5: the contact "
                     "force is an impact source",
      .make_model = from_catalog("wall_pendulum"),
      .options = run_to_at_steps(3.0),
      .reference_signals = {"x", "y", "vx", "vy", "F", "Fc", "phi", "energy"},
      .key_numbers =
          [](const SimulationModel& m, const SimulationResult& r) {
            const auto& reduced = dynamic_cast<const IndexReducedModel&>(m);
            const auto& bob = dynamic_cast<const models::WallPendulum&>(reduced.original());
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
  });

  // Changes of structure: taut (index 3) and slack (index 1) have their own layouts.
  examples.push_back({
      .name = "string_pendulum",
      .description = "Bob on a string started at the bottom at sqrt(3.5 g L): slack at 120 "
                     "degrees, a parabola, jerked taut (restitution 0); laid out afresh at "
                     "each change of structure",
      .make_model = from_catalog("string_pendulum"),
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
  });
}

/// The masses of the impulse examples again, their contact forces now impact sources.
void add_mass_impact_examples(std::vector<Example>& examples) {
  examples.push_back({
      .name = "colliding_masses_impact",
      .description = "Two colliding masses (ITI paper, section 3.1) with the contact force as "
                     "impact source: e = 0.8, m = (1, 2) kg, u = (1, 0) m/s",
      .make_model = from_catalog("colliding_masses_impact"),
      .options = run_to(2.0),
      .reference_signals = {"s1", "s2", "v1", "v2", "F", "momentum", "kinetic_energy"},
      .key_numbers = key_numbers_of<models::CollidingMasses>(
          [](const models::CollidingMasses& model, const SimulationResult& r) {
            return fmt::format("impacts = {1}, v1({0}) = {2:.6f} m/s, v2({0}) = {3:.6f} m/s",
                               end_time(r), model.impacts(), r.table.final_value("v1"),
                               r.table.final_value("v2"));
          }),
  });

  examples.push_back({
      .name = "three_masses_impact",
      .description = "The three masses with the stop forces F1, F2 as impact sources: the "
                     "engine integrates the equations of motion over the impulses",
      .make_model = from_catalog("three_masses_impact"),
      .options = run_to(2.0),
      .reference_signals = {"s1", "s2", "s3", "v1", "v2", "v3", "F1", "F2", "momentum",
                            "kinetic_energy"},
      .key_numbers = three_masses_numbers,
  });
}

/// The ITI paper's examples of a changing index: a hidden constraint that overrides a start
/// value, and an equation that switches between algebraic and differential.
void add_iti_examples(std::vector<Example>& examples) {
  examples.push_back({
      .name = "iti_example1",
      .description = "ITI example 1: x1 = t, x2 = der(x1) (index 2, reduced by the engine); the "
                     "hidden constraint der(x1) = 1 gives x2 = 1, its start value 5 overridden",
      .make_model = from_catalog("iti_example1"),
      .options = run_to(2.0),
      .reference_signals = {"x1", "x2"},
      .key_numbers =
          [](const SimulationModel&, const SimulationResult& r) {
            return fmt::format("x2(0+) = {1:.10f}, x1({0}) = {2:.10f}, x2({0}) = {3:.10f}",
                               end_time(r), initial_value(r, "x2"), r.table.final_value("x1"),
                               r.table.final_value("x2"));
          },
  });
  examples.push_back({
      .name = "iti_example2",
      .description = "ITI example 2: 1 = if t < 0.5 then x else der(x); x = 1 (its start value "
                     "3 overridden) until the time event at 0.5 s, then x = 1 + (t - 0.5)",
      .make_model = from_catalog("iti_example2"),
      .options = run_to(2.0),
      .reference_signals = {"x", "der(x)"},
      .key_numbers =
          [](const SimulationModel&, const SimulationResult& r) {
            return fmt::format("x(0+) = {1:.8f}, der(x)(0+) = {2:.3g}, x({0}) = {3:.8f}",
                               end_time(r), initial_value(r, "x"), initial_value(r, "der(x)"),
                               r.table.final_value("x"));
          },
  });
}

/// Substitute equations: the PID-controlled mass as written and in the forms that substitute
/// its derivatives, then a guarded substitute equation for a tank's overflow.
void add_substitute_equation_examples(std::vector<Example>& examples) {
  for (const models::PidForm form :
       {models::PidForm::kAsWritten, models::PidForm::kDerivativeSubstituted,
        models::PidForm::kSubstituted, models::PidForm::kHandReduced}) {
    examples.push_back({
        .name = models::pid_model_name(form),
        .description = models::find_model(models::pid_model_name(form))->description +
                       ", load F = 2 + 0.5 sin(2t) N",
        .make_model = from_catalog(models::pid_model_name(form)),
        .options = run_to(10.0),
        .reference_signals = {"x", "v", "i", "e", "u"},
        .key_numbers =
            [](const SimulationModel&, const SimulationResult& r) {
              return fmt::format("x({0}) = {1:.6f} m, i({0}) = {2:.6f} m s, u({0}) = {3:.6f} N",
                                 end_time(r), r.table.final_value("x"), r.table.final_value("i"),
                                 r.table.final_value("u"));
            },
    });
  }

  examples.push_back({
      .name = "tank_overflow",
      .description = "Tank with an overflow Q_x <- [h < h_max or Q_i < Q_o -> 0 || else Q_i - "
                     "Q_o]: fills to h_max = 1 m at 2 s, overflows until the inflow drops at 3 s",
      .make_model = from_catalog("tank_overflow"),
      .options = run_to(5.0),
      .reference_signals = {"h", "Q_x", "Q_i"},
      .key_numbers =
          [](const SimulationModel&, const SimulationResult& r) {
            return fmt::format("{1} state events, h({0}) = {2:.6f} m, Q_x({0}) = {3:.3g} m3/s",
                               end_time(r), r.statistics.state_events, r.table.final_value("h"),
                               r.table.final_value("Q_x"));
          },
  });
}

}  // namespace

void add_impact_examples(std::vector<Example>& examples) {
  add_pendulum_impact_examples(examples);
  add_mass_impact_examples(examples);
}

void add_substitution_examples(std::vector<Example>& examples) {
  add_iti_examples(examples);
  add_substitute_equation_examples(examples);
}

void add_mechanism_examples(std::vector<Example>& examples) {
  // The IVP test set's "andrews": 0.03 s from the published consistent start, in which the
  // crank turns two and a half times; the test set's reference at 0.03 s is beta =
  // 15.81077119629904 rad (tests/compare/test_references.cpp checks the seven angles).
  SimulationOptions squeezer = run_to(0.03);
  squeezer.output_interval_s = 1e-4;
  examples.push_back({
      .name = "andrews_squeezer",
      .description = "Andrews' squeezing mechanism (Hairer and Wanner VII.7, IVP test set): 7 "
                     "bodies, 3 loops, index 3 reduced by the engine; beta(0.03) = 15.810771 rad",
      .make_model = from_catalog("andrews_squeezer"),
      .options = squeezer,
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
  });

  // The crank turns at a constant speed (a motor row w = omega), so the slider follows the
  // closed form of its kinematics; the forces come from the masses of rod and slider and from
  // gravity. Rows at IDA's steps keep the joints on every row to the Newton tolerance, as for
  // the Cartesian pendulum.
  examples.push_back({
      .name = "slider_crank",
      .description = "Slider crank in natural coordinates (index 3, reduced by the engine): crank "
                     "at 1 turn/s, slider at x_B = r cos(theta) + sqrt(l^2 - r^2 sin^2(theta))",
      .make_model = from_catalog("slider_crank"),
      .options = run_to_at_steps(2.0),
      .reference_signals = {"theta", "xA", "yA", "xB", "uB", "FAx", "FAy", "lambda", "N", "tau",
                            "energy", "power"},
      .key_numbers =
          [](const SimulationModel& m, const SimulationResult& r) {
            const auto& reduced = dynamic_cast<const IndexReducedModel&>(m);
            const auto& crank = dynamic_cast<const models::SliderCrank&>(reduced.original());
            const models::SliderCrankParameters& p = crank.parameters();
            const double t = r.table.time(r.table.num_rows() - 1);
            return fmt::format(
                "index {1}, xB({0}) = {2:.9f} m (closed form {3:.9f} m), tau({0}) = {4:.6f} N m",
                end_time(r), reduced.analysis().index, r.table.final_value("xB"),
                models::slider_crank_slider_x(p.crank_length_m, p.rod_length_m,
                                              p.theta0_rad + p.omega_radps * t),
                r.table.final_value("tau"));
          },
  });
}

}  // namespace hdae::examples
