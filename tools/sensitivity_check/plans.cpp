// The plans of the sensitivity check (sensitivity_check.hpp): per bundled model the sources
// and a run long enough for its events. A model the table does not list gets a plan made from its
// structure, so a new model is checked too.
#include <algorithm>
#include <stdexcept>

#include "hdae/models/catalog.hpp"
#include "sensitivity_check/sensitivity_check.hpp"

namespace hdae::sensitivity_check {
namespace {

/// The step of the transistor amplifier's start(U1), which moves the charge of C1 (the
/// consistent start keeps U2 - U1 and solves the node's current balance for U1 and U2). U6
/// and U7 depend on it by little against their magnitudes, so the runs' errors over the plan's
/// step would reach the tolerance, while the differences' truncation stays far below it at
/// this larger one.
constexpr double kChargeStep = 1e-3;

const std::vector<Plan>& table() {
  static const std::vector<Plan> kPlans = {
      {.model = "pendulum", .sources = {"L", "d", "start(w)"}, .stop_s = 3.0},
      {.model = "simple_state_events", .sources = {"k", "f_max", "start(s)"}, .stop_s = 5.0},
      // Impacts ever closer together until the ball comes to rest; the rows between impacts
      // that the perturbed runs count differently are left out.
      {.model = "bouncing_ball", .sources = {"e", "g", "start(h)"}, .stop_s = 3.0},
      {.model = "mass_spring_chain", .sources = {"k", "d", "start(s[20])"}, .stop_s = 2.0},
      // A larger step: the runs' errors divided by 1e-4 are about 1e-5 of d(vy)/d(start(vx)).
      {.model = "pendulum_dae",
       .sources = {"L", "g", "start(vx)"},
       .stop_s = 2.0,
       .relative_step = 3e-4},
      // KLU on the augmented system through the changes of selected states; start(vx) is
      // projected to 0 at the horizontal start, so its sensitivities are 0 throughout.
      {.model = "cartesian_pendulum",
       .sources = {"L", "start(y)", "start(vx)"},
       .stop_s = 10.0,
       .sparse = true},
      {.model = "free_body_rotation", .sources = {"I1", "A1", "start(w1)"}, .stop_s = 2.0},
      {.model = "ideal_clutch", .sources = {"J2", "k", "start(w2)"}, .stop_s = 400.0},
      {.model = "colliding_masses", .sources = {"m2", "d", "start(v1)"}, .stop_s = 2.0},
      // The restitution laws read the velocities before the impacts as the jump's left limits.
      {.model = "colliding_masses_impact", .sources = {"m2", "e", "start(v1)"}, .stop_s = 2.0},
      {.model = "three_masses", .sources = {"m2", "ci1", "start(v1)"}, .stop_s = 2.0},
      {.model = "three_masses_impact", .sources = {"m2", "ci1", "start(v1)"}, .stop_s = 2.0},
      // Four impacts the reduced model integrates itself. start(x) is not a source: the
      // consistent start keeps the bob's height and moves x onto the circle.
      {.model = "wall_pendulum", .sources = {"e", "x_wall", "start(vy)"}, .stop_s = 3.0},
      {.model = "pid_controller", .sources = {"kP", "x_set", "start(x)"}, .stop_s = 10.0},
      {.model = "slider_crank", .sources = {"r", "omega", "theta0"}, .stop_s = 2.0},
      // Through the string going slack (the reduced model laid out afresh for the flight) and
      // the jerk taut again, an impact the reduced model integrates itself.
      {.model = "string_pendulum", .sources = {"L", "v0", "start(x)"}, .stop_s = 3.0},
      // The crank angle's start moves the solution so strongly that the differences'
      // truncation at the plan's step is above the tolerance (it falls with the step's square
      // towards the sensitivity); the runs' errors over a smaller step stay below it for that
      // source only.
      {.model = "andrews_squeezer",
       .sources = {"mom", "c0", "start(beta)"},
       .stop_s = 0.03,
       .source_steps = {{"start(beta)", 3e-5}}},
      {.model = "transistor_amplifier",
       .sources = {"R0", "Ub", "start(U1)"},
       .stop_s = 0.2,
       .source_steps = {{"start(U1)", kChargeStep}}},
  };
  return kPlans;
}

/// Up to two parameters that are not whole numbers and not 0, and the first unknown's start.
Plan plan_from_structure(const models::CatalogEntry& entry) {
  Plan plan{.model = entry.name, .stop_s = entry.example.options.stop_s};
  const std::unique_ptr<SimulationModel> model = entry.make();
  const ModelStructure& s = model->structure();
  for (const ParameterInfo& p : s.parameters) {
    if (plan.sources.size() == 2) break;
    if (!p.integer && p.value != 0.0) plan.sources.push_back(p.name);
  }
  if (s.num_unknowns() > 0) plan.sources.push_back("start(" + s.variables.name(0) + ")");
  return plan;
}

}  // namespace

std::vector<Plan> plans() {
  std::vector<Plan> all;
  for (const models::CatalogEntry& entry : models::catalog()) {
    const auto listed = std::find_if(table().begin(), table().end(),
                                     [&](const Plan& p) { return p.model == entry.name; });
    all.push_back(listed != table().end() ? *listed : plan_from_structure(entry));
  }
  return all;
}

Plan plan_for(const std::string& name) {
  for (Plan& plan : plans()) {
    if (plan.model == name) return plan;
  }
  throw std::out_of_range("no bundled model '" + name + "'");
}

}  // namespace hdae::sensitivity_check
