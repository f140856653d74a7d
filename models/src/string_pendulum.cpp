#include "hdae/models/string_pendulum.hpp"

#include <array>
#include <cmath>
#include <utility>

#include "parameter_fields.hpp"
#include "point_mass.hpp"

namespace hdae::models {

namespace {

using P = StringPendulumParameters;
const std::array<detail::ParameterField<P>, 4> kFields = {{
    {{.name = "L", .unit = "m", .min = detail::kPositive, .description = "length of the string"},
     [](P& p) -> double& { return p.length_m; }},
    {{.name = "m", .unit = "kg", .min = detail::kPositive, .description = "mass of the bob"},
     [](P& p) -> double& { return p.mass_kg; }},
    {{.name = "g", .unit = "m/s2", .description = "gravitational acceleration"},
     [](P& p) -> double& { return p.gravity_mps2; }},
    {{.name = "v0", .unit = "m/s", .description = "speed at the bottom at t0 (along +x)"},
     [](P& p) -> double& { return p.v0_mps; }},
}};

}  // namespace

StringPendulum::StringPendulum(StringPendulumParameters p)
    : PhysicsModelOf("string_pendulum"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  const double L = p_.length_m;
  x_ = declare_variable({.name = "x", .unit = "m", .nominal = L, .der_unit = "m/s"});
  y_ = declare_variable({.name = "y", .unit = "m", .start = -L, .nominal = L, .der_unit = "m/s"});
  vx_ = declare_variable({.name = "vx", .unit = "m/s", .start = p_.v0_mps, .der_unit = "m/s2"});
  vy_ = declare_variable({.name = "vy", .unit = "m/s", .der_unit = "m/s2"});
  T_ = declare_variable({.name = "T", .unit = "N", .nominal = 10.0, .der_unit = "N/s"});
  kinematics_x_ = declare_equation("der(x) = vx");
  kinematics_y_ = declare_equation("der(y) = vy");
  momentum_x_ = declare_equation("m*der(vx) = -T*x/L");
  momentum_y_ = declare_equation("m*der(vy) = -T*y/L - m*g");
  string_ = declare_equation(
      "taut: 0 = x^2 + y^2 - L^2; slack: 0 = T; jerk: 0 = x*vx + y*vy (T impulsive)");
  slackens_ = declare_crossing("taut and T < 0", CrossingDirection::kRising, 10.0);
  stretches_ = declare_crossing("slack and x^2 + y^2 > L^2", CrossingDirection::kRising, L);
  phi_ = declare_output("phi", "rad");
  energy_ = declare_output("energy", "J");
  r_ = declare_output("r", "m");
}

void StringPendulum::parameters_changed() {
  p_ = detail::read_fields<P>(kFields, structure(), p_);
  set_start(y_, -p_.length_m);
  set_start(vx_, p_.v0_mps);
  set_nominal(x_, p_.length_m);
  set_nominal(y_, p_.length_m);
}

void StringPendulum::on_event(EventContext& event) {
  // The jerk belongs to the pass in which the stretch rose, and a second call in that pass
  // does the same; the pass after it, where the crossing no longer rises, finds the string
  // taut. Decided from the crossings and the state alone, as a run with sensitivities needs.
  if ((mode_ == Mode::kSlack || mode_ == Mode::kJerk) && event.rose(stretches_)) {
    mode_ = Mode::kJerk;
    event.impulse(T_);
    return;
  }
  if (mode_ == Mode::kJerk) {
    mode_ = Mode::kTaut;
  } else if (mode_ == Mode::kTaut && event.rose(slackens_)) {
    mode_ = Mode::kSlack;
    const double x = event.x(x_), y = event.x(y_), L = p_.length_m;
    slack_offset_ = (x * x + y * y - L * L) / L;
  }
}

void StringPendulum::outputs(Evaluation& e) const {
  const double x = e.x(x_);
  const double y = e.x(y_);
  e.set(phi_, detail::angle_from_vertical(x, y));
  e.set(energy_, detail::mechanical_energy(p_.mass_kg, p_.gravity_mps2, y, e.x(vx_), e.x(vy_)));
  e.set(r_, std::hypot(x, y));
}

std::unique_ptr<IndexReducedModel> make_string_pendulum(StringPendulumParameters p) {
  return std::make_unique<IndexReducedModel>(std::make_unique<StringPendulum>(p));
}

}  // namespace hdae::models
