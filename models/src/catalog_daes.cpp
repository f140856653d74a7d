// Differential-algebraic models in the catalog (catalog_groups.hpp): the pendulum in index-1 and
// index-3 form, DAEs whose start the engine makes consistent (a quaternion projected onto its
// constraint, a mode whose start the jump solve moves, the hidden constraints of a singular
// mass matrix) and the ITI paper's examples of a changing index.
#include <fmt/format.h>

#include "catalog_groups.hpp"
#include "hdae/index_reduction.hpp"
#include "hdae/models/cartesian_pendulum.hpp"
#include "hdae/models/free_body_rotation.hpp"
#include "hdae/models/hydraulic_actuator.hpp"
#include "hdae/models/iti_example1.hpp"
#include "hdae/models/iti_example2.hpp"
#include "hdae/models/pendulum_dae.hpp"
#include "hdae/models/transistor_amplifier.hpp"

namespace hdae::models {
namespace {

/// The reference is the default run (start values free); --fixed is not part of it.
ExampleRun pendulum_dae_example() {
  return {
      .options = run_to(2.0),
      .reference_signals = {"x", "y", "vx", "vy", "lambda", "energy"},
      .key_numbers =
          [](const SimulationModel&, const SimulationResult& r) {
            return fmt::format(
                "y(0+) = {1:.7f} m, vy(0+) = {2:.7f} m/s, x({0}) = {3:.6f} m, y({0}) = {4:.6f} m",
                end_time(r), initial_value(r, "y"), initial_value(r, "vy"),
                r.table.final_value("x"), r.table.final_value("y"));
          },
      .description =
          "Pendulum in stabilised index-1 GGL form: started off its circle at (0.5, "
          "-0.5) m and projected onto it",
      .parameters = {{.kind = ParameterKind::kFlag,
                      .name = "fixed",
                      .help = "keep x and vx at their start values in the projection"}},
      // fix_x_and_vx is a constructor argument, not a parameter (pendulum_dae.hpp).
      .make_model =
          [](const ParameterValues& p) {
            return std::make_unique<PendulumDae>(
                PendulumDaeParameters{.fix_x_and_vx = p.flag("fixed")});
          },
  };
}

/// Released at rest from the horizontal, so the state selection must switch on the way down.
ExampleRun cartesian_pendulum_example() {
  return {
      // Output rows are IDA's steps, so that the rod and its hidden constraints hold on every
      // stored row to the Newton tolerance (docs/design.md, "Index reduction").
      .options = run_to_at_steps(10.0),
      .reference_signals = {"x", "y", "vx", "vy", "F", "phi", "energy"},
      .key_numbers =
          [](const SimulationModel& m, const SimulationResult& r) {
            const auto& reduced = dynamic_cast<const IndexReducedModel&>(m);
            return fmt::format(
                "index {1}, states re-selected {2} times, phi({0}) = {3:.6f} rad, F({0}) = "
                "{4:.6f} N",
                end_time(r), reduced.analysis().index, reduced.selection_changes(),
                r.table.final_value("phi"), r.table.final_value("F"));
          },
      .description =
          "Pendulum in Cartesian coordinates with the rod force as unknown (index 3), "
          "reduced by the engine: dummy derivatives, states re-selected at events",
  };
}

ExampleRun free_body_rotation_example() {
  return {
      .options = run_to(5.0),
      .reference_signals = {"Q1", "Q2", "Q3", "Q4", "w1", "w2", "w3", "|Q|"},
      .key_numbers =
          [](const SimulationModel&, const SimulationResult& r) {
            return fmt::format(
                "Q4(0+) = {1:.7f}, |Q|({0}) = {2:.12f}, w({0}) = ({3:.6f}, {4:.6f}, {5:.6f}) rad/s",
                end_time(r), initial_value(r, "Q4"), r.table.final_value("|Q|"),
                r.table.final_value("w1"), r.table.final_value("w2"), r.table.final_value("w3"));
          },
      .description =
          "Free rigid body rotation with a quaternion: I = diag(1, 2, 3), start Q0 = "
          "(0.1, 0.5, 0, 1) projected onto |Q| = 1",
  };
}

/// Mosterman's paper, section 5: the mode "supply valve closed, relief valve open" started
/// from x^- = [3, 0, 0, 0] (eq. 43); the jump solve gives eq. 51, x^+ = [1, -1, -5.00044, 0].
ExampleRun hydraulic_actuator_example() {
  return {
      .options = run_to(10.0),
      .reference_signals = {"f_p", "f_rel", "p_Rrel", "p_Rin"},
      .key_numbers =
          [](const SimulationModel&, const SimulationResult& r) {
            return fmt::format("x(0+) = [{1:.6g}, {2:.6g}, {3:.6g}, {4:.6g}], f_p({0}) = {5:.6f}",
                               end_time(r), initial_value(r, "f_p"), initial_value(r, "f_rel"),
                               initial_value(r, "p_Rrel"), initial_value(r, "p_Rin"),
                               r.table.final_value("f_p"));
          },
      .description =
          "Hydraulic actuator (Mosterman): from x- = [3, 0, 0, 0] the jump solve "
          "gives x+ = [1, -1, -5.00044, 0], then 10 s of decay",
  };
}

/// The IVP test set's "transamp": M der(U) = f with a singular M (rank 5 of 8), whose hidden
/// constraints the engine finds; reference U8(0.2) = 1.236995868091548 V (PSIDE). The test
/// set's convention rtol = atol (abs_tol_factor 1 with nominal 1 V): a tighter absolute
/// tolerance on the small input-side voltages only costs steps. The outputs U7, U8 amplify
/// the input stage's errors by the gain of both stages, so each change of IDA's step or order
/// moves them by more than tight tolerances admit; with IDA's own step control
/// (double whenever the estimate allows) every doubling then fails, the order stays at 1 and
/// the run crawls. step_growth_threshold holds the step until it may grow sixfold, long
/// enough for IDA to raise the order (docs/design.md, "General rows and singular mass
/// matrices"), at the cost of more steps at loose tolerances.
ExampleRun transistor_amplifier_example() {
  SimulationOptions options = run_to(0.2);
  options.rel_tol = 1e-7;
  options.abs_tol_factor = 1.0;
  options.step_growth_threshold = 6.0;
  return {
      .options = options,
      .reference_signals = {"U1", "U2", "U3", "U4", "U5", "U6", "U7", "U8"},
      .key_numbers =
          [](const SimulationModel&, const SimulationResult& r) {
            return fmt::format("der(U1)(0+) = {1:.8g} V/s, U8({0}) = {2:.10f} V", end_time(r),
                               initial_value(r, "der(U1)"), r.table.final_value("U8"));
          },
      .description =
          "Transistor amplifier of the IVP test set in its original form M der(U) = "
          "f(t, U), singular M: 0.2 s, U8(0.2) = 1.2369959 V",
  };
}

/// A hidden constraint that overrides a start value.
ExampleRun iti_example1_example() {
  return {
      .options = run_to(2.0),
      .reference_signals = {"x1", "x2"},
      .key_numbers =
          [](const SimulationModel&, const SimulationResult& r) {
            return fmt::format("x2(0+) = {1:.10f}, x1({0}) = {2:.10f}, x2({0}) = {3:.10f}",
                               end_time(r), initial_value(r, "x2"), r.table.final_value("x1"),
                               r.table.final_value("x2"));
          },
      .description =
          "ITI example 1: x1 = t, x2 = der(x1) (index 2, reduced by the engine); the "
          "hidden constraint der(x1) = 1 gives x2 = 1, its start value 5 overridden",
  };
}

/// An equation that switches between algebraic and differential.
ExampleRun iti_example2_example() {
  return {
      .options = run_to(2.0),
      .reference_signals = {"x", "der(x)"},
      .key_numbers =
          [](const SimulationModel&, const SimulationResult& r) {
            return fmt::format("x(0+) = {1:.8f}, der(x)(0+) = {2:.3g}, x({0}) = {3:.8f}",
                               end_time(r), initial_value(r, "x"), initial_value(r, "der(x)"),
                               r.table.final_value("x"));
          },
      .description =
          "ITI example 2: 1 = if t < 0.5 then x else der(x); x = 1 (its start value "
          "3 overridden) until the time event at 0.5 s, then x = 1 + (t - 0.5)",
  };
}

}  // namespace

std::vector<CatalogEntry> dae_models() {
  return {
      {"pendulum_dae", "Pendulum in stabilised index-1 GGL form, started off its circle",
       make_default<PendulumDae>, pendulum_dae_example()},
      {"cartesian_pendulum",
       "Pendulum in Cartesian coordinates (index 3), reduced by the engine with dynamic state "
       "selection",
       [] { return std::unique_ptr<SimulationModel>(make_cartesian_pendulum()); },
       cartesian_pendulum_example()},
      {"free_body_rotation", "Free rigid body rotation with a quaternion started unnormalised",
       make_default<FreeBodyRotation>, free_body_rotation_example()},
      {"hydraulic_actuator", "Hydraulic actuator (Mosterman): consistent jump at a mode switch",
       make_default<HydraulicActuator>, hydraulic_actuator_example()},
      {"transistor_amplifier",
       "Transistor amplifier (IVP test set) as M der(U) = f with a singular mass matrix",
       make_default<TransistorAmplifier>, transistor_amplifier_example()},
      {"iti_example1",
       "ITI example 1: x1 = t, x2 = der(x1), index 2, reduced by the engine: x2 = 1 always",
       [] { return std::unique_ptr<SimulationModel>(make_iti_example1()); },
       iti_example1_example()},
      {"iti_example2", "ITI example 2: 1 = if t < 0.5 then x else der(x), index 1 then 0",
       make_default<ItiExample2>, iti_example2_example()},
  };
}

}  // namespace hdae::models
