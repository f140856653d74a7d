// The list of bundled models (catalog.hpp).
#include "hdae/models/catalog.hpp"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "hdae/models/andrews_squeezer.hpp"
#include "hdae/models/bouncing_ball.hpp"
#include "hdae/models/cartesian_pendulum.hpp"
#include "hdae/models/colliding_masses.hpp"
#include "hdae/models/free_body_rotation.hpp"
#include "hdae/models/hydraulic_actuator.hpp"
#include "hdae/models/ideal_clutch.hpp"
#include "hdae/models/iti_example1.hpp"
#include "hdae/models/iti_example2.hpp"
#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/models/pendulum_dae.hpp"
#include "hdae/models/pid_controller.hpp"
#include "hdae/models/simple_state_events.hpp"
#include "hdae/models/slider_crank.hpp"
#include "hdae/models/string_pendulum.hpp"
#include "hdae/models/tank_overflow.hpp"
#include "hdae/models/three_masses.hpp"
#include "hdae/models/transistor_amplifier.hpp"
#include "hdae/models/wall_pendulum.hpp"

namespace hdae::models {
namespace {

template <typename M>
std::unique_ptr<SimulationModel> make_default() {
  return std::make_unique<M>();
}

/// The example's size: a disturbance needs 200 s to cross 2000 masses, so a 10 s run is a
/// large sparse problem where only the free end moves (examples/registry/registry.cpp).
constexpr std::size_t kChainMasses = 2000;

/// The first examples: a pendulum, state events, a bouncing ball, and the large sparse chain.
std::vector<CatalogEntry> basic_models() {
  return {
      {"pendulum", "Pendulum as an ODE in angle and angular velocity, damped",
       make_default<Pendulum>},
      {"simple_state_events", "Spring-mass pushed by a force that switches at s = 0",
       make_default<SimpleStateEvents>},
      {"bouncing_ball", "Ball bouncing with restitution e, at rest below a rebound speed",
       make_default<BouncingBall>},
      {"mass_spring_chain", "Chain of N masses and springs (3N unknowns, sparse index-1 DAE)",
       [] {
         return std::make_unique<MassSpringChain>(
             MassSpringChainParameters{.masses = kChainMasses});
       }},
  };
}

/// Impacts: Dirac impulses at a clutch's engagement and colliding masses, by the jump solve or
/// as impact sources.
std::vector<CatalogEntry> impact_models() {
  return {
      {"ideal_clutch",
       "Ideal clutch (Benveniste et al. 2019) locking two shafts: Dirac impulses at engagement",
       make_default<IdealClutch>},
      {"colliding_masses", "Two masses colliding with restitution e, impact by the jump solve",
       make_default<CollidingMasses>},
      {"colliding_masses_impact",
       "Two masses colliding (ITI paper 3.1): contact force as impact source, e = 0.8",
       [] {
         return std::make_unique<CollidingMasses>(
             CollidingMassesParameters{.mass2_kg = 2.0, .restitution = 0.8},
             ImpulseForm::kImpactSources);
       }},
      {"three_masses", "Three masses, two end stops hit at the same instant (two impacts)",
       make_default<ThreeMasses>},
      {"three_masses_impact",
       "The three masses with stop forces as impact sources: the engine integrates the impulses",
       [] {
         return std::make_unique<ThreeMasses>(ThreeMassesParameters{}, ImpulseForm::kImpactSources);
       }},
  };
}

/// Differential-algebraic models of index 1 to 3, as written or reduced by the engine.
std::vector<CatalogEntry> dae_models() {
  return {
      {"pendulum_dae", "Pendulum in stabilised index-1 GGL form, started off its circle",
       make_default<PendulumDae>},
      {"cartesian_pendulum",
       "Pendulum in Cartesian coordinates (index 3), reduced by the engine with dynamic state "
       "selection",
       [] { return std::unique_ptr<SimulationModel>(make_cartesian_pendulum()); }},
      {"free_body_rotation", "Free rigid body rotation with a quaternion started unnormalised",
       make_default<FreeBodyRotation>},
      {"hydraulic_actuator", "Hydraulic actuator (Mosterman): consistent jump at a mode switch",
       make_default<HydraulicActuator>},
      {"transistor_amplifier",
       "Transistor amplifier (IVP test set) as M der(U) = f with a singular mass matrix",
       make_default<TransistorAmplifier>},
      {"iti_example1",
       "ITI example 1: x1 = t, x2 = der(x1), index 2, reduced by the engine: x2 = 1 always",
       [] { return std::unique_ptr<SimulationModel>(make_iti_example1()); }},
      {"iti_example2", "ITI example 2: 1 = if t < 0.5 then x else der(x), index 1 then 0",
       make_default<ItiExample2>},
  };
}

/// Substitute equations (chi): the PID-controlled mass in its four forms and the tank.
std::vector<CatalogEntry> substitution_models() {
  return {
      {pid_model_name(PidForm::kAsWritten),
       "PID-controlled mass (chi) as written, index 2, reduced by the engine",
       [] { return make_pid_controller(PidForm::kAsWritten); }},
      {pid_model_name(PidForm::kDerivativeSubstituted),
       "PID-controlled mass with the substitute equation der(e) <- der(x), index 1",
       [] { return make_pid_controller(PidForm::kDerivativeSubstituted); }},
      {pid_model_name(PidForm::kSubstituted),
       "PID-controlled mass with e <- x - x_set and der(e) <- der(x): 4 equations",
       [] { return make_pid_controller(PidForm::kSubstituted); }},
      {pid_model_name(PidForm::kHandReduced), "PID-controlled mass reduced to index 1 by hand",
       [] { return make_pid_controller(PidForm::kHandReduced); }},
      {"tank_overflow", "Tank with an overflow given by a guarded substitute equation (chi)",
       make_default<TankOverflow>},
  };
}

/// Mechanisms in index 3 reduced by the engine, with impacts and changing structure.
std::vector<CatalogEntry> mechanism_models() {
  return {
      {"andrews_squeezer",
       "Andrews' squeezing mechanism (IVP test set): 7 bodies, 3 closed loops, index 3, reduced "
       "by the engine",
       [] { return std::unique_ptr<SimulationModel>(make_andrews_squeezer()); }},
      {"slider_crank",
       "Slider crank in natural coordinates, crank driven at constant speed (index 3), reduced "
       "by the engine",
       [] { return std::unique_ptr<SimulationModel>(make_slider_crank()); }},
      {"wall_pendulum",
       "Cartesian pendulum (index 3) striking a wall under its pivot with e = 0.5: the engine "
       "integrates the reduced equations over the contact force's impulse",
       [] { return std::unique_ptr<SimulationModel>(make_wall_pendulum()); }},
      {"string_pendulum",
       "Bob on a string (index 3 taut, 1 slack) started at the bottom: goes slack, flies, jerks "
       "taut; the reduced system is laid out afresh at each change",
       [] { return std::unique_ptr<SimulationModel>(make_string_pendulum()); }},
  };
}

/// Every entry, the groups one after the other in the catalog's fixed order.
std::vector<CatalogEntry> make_catalog() {
  std::vector<CatalogEntry> entries;
  for (const auto group :
       {basic_models, impact_models, dae_models, substitution_models, mechanism_models}) {
    std::vector<CatalogEntry> members = group();
    entries.insert(entries.end(), std::make_move_iterator(members.begin()),
                   std::make_move_iterator(members.end()));
  }
  return entries;
}

}  // namespace

const std::vector<CatalogEntry>& catalog() {
  static const std::vector<CatalogEntry> entries = make_catalog();
  return entries;
}

const CatalogEntry* find_model(std::string_view name) {
  const auto& all = catalog();
  const auto it = std::find_if(all.begin(), all.end(),
                               [name](const CatalogEntry& e) { return e.name == name; });
  return it == all.end() ? nullptr : &*it;
}

std::unique_ptr<SimulationModel> make_model(std::string_view name) {
  if (const CatalogEntry* entry = find_model(name)) return entry->make();
  std::string known;
  for (const CatalogEntry& e : catalog()) known += known.empty() ? e.name : ", " + e.name;
  throw ModelError(fmt::format("no bundled model '{}'; the models are: {}", name, known));
}

}  // namespace hdae::models
