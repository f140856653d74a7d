#include "hdae/models/wall_pendulum.hpp"

#include <array>
#include <cmath>
#include <utility>

#include "parameter_fields.hpp"
#include "point_mass.hpp"

namespace hdae::models {

namespace {

using P = WallPendulumParameters;
const std::array<detail::ParameterField<P>, 7> kFields = {{
    {{.name = "L", .unit = "m", .min = detail::kPositive, .description = "length of the rod"},
     [](P& p) -> double& { return p.length_m; }},
    {{.name = "m", .unit = "kg", .min = detail::kPositive, .description = "mass of the bob"},
     [](P& p) -> double& { return p.mass_kg; }},
    {{.name = "g", .unit = "m/s2", .description = "gravitational acceleration"},
     [](P& p) -> double& { return p.gravity_mps2; }},
    {{.name = "e",
      .unit = "1",
      .min = 0.0,
      .max = 1.0,
      .description = "restitution: vx+ = -e vx- at the wall"},
     [](P& p) -> double& { return p.restitution; }},
    {{.name = "x_wall", .unit = "m", .description = "the wall is the line x = x_wall"},
     [](P& p) -> double& { return p.wall_x_m; }},
    {{.name = "x_start", .unit = "m", .description = "x at t0 (moved onto the circle)"},
     [](P& p) -> double& { return p.x_start_m; }},
    {{.name = "y_start", .unit = "m", .description = "y at t0 (moved onto the circle)"},
     [](P& p) -> double& { return p.y_start_m; }},
}};

}  // namespace

WallPendulum::WallPendulum(WallPendulumParameters p) : PhysicsModelOf("wall_pendulum"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  const double L = p_.length_m;
  x_ = declare_variable(
      {.name = "x", .unit = "m", .start = p_.x_start_m, .nominal = L, .der_unit = "m/s"});
  y_ = declare_variable(
      {.name = "y", .unit = "m", .start = p_.y_start_m, .nominal = L, .der_unit = "m/s"});
  vx_ = declare_variable({.name = "vx", .unit = "m/s", .der_unit = "m/s2"});
  vy_ = declare_variable({.name = "vy", .unit = "m/s", .der_unit = "m/s2"});
  F_ = declare_variable({.name = "F", .unit = "N", .nominal = 10.0, .der_unit = "N/s"});
  Fc_ = declare_variable({.name = "Fc", .unit = "N", .nominal = 10.0, .der_unit = "N/s"});
  kinematics_x_ = declare_equation("der(x) = vx");
  kinematics_y_ = declare_equation("der(y) = vy");
  momentum_x_ = declare_equation("m*der(vx) = -F*x/L + Fc");
  momentum_y_ = declare_equation("m*der(vy) = -F*y/L - m*g");
  rod_ = declare_equation("0 = x^2 + y^2 - L^2");
  contact_ = declare_equation("free: 0 = Fc; impact: 0 = vx + e*vx^- (Fc impulsive)");
  at_wall_ = declare_crossing("x - x_wall < 0", CrossingDirection::kRising, L);
  phi_ = declare_output("phi", "rad");
  energy_ = declare_output("energy", "J");
}

void WallPendulum::parameters_changed() {
  p_ = detail::read_fields<P>(kFields, structure(), p_);
  set_start(x_, p_.x_start_m);
  set_start(y_, p_.y_start_m);
  set_nominal(x_, p_.length_m);
  set_nominal(y_, p_.length_m);
}

void WallPendulum::reset() {
  impact_pass_ = false;
  impacts_ = 0;
}

void WallPendulum::on_event(EventContext& event) {
  // The impact belongs to the pass in which the bob reached the wall moving towards it; the
  // next pass (the crossing no longer rises there) returns to Fc = 0. Decided from the
  // crossing and the state alone, a second call at the same point does the same.
  const bool impact = event.rose(at_wall_) && event.x(vx_) < 0.0;
  if (impact && !impact_pass_) ++impacts_;
  impact_pass_ = impact;
  if (impact) event.impulse(Fc_);  // implies the next pass
}

void WallPendulum::outputs(Evaluation& e) const {
  const double x = e.x(x_);
  const double y = e.x(y_);
  const double vx = e.x(vx_);
  const double vy = e.x(vy_);
  e.set(phi_, detail::angle_from_vertical(x, y));
  e.set(energy_, detail::mechanical_energy(p_.mass_kg, p_.gravity_mps2, y, vx, vy));
}

std::unique_ptr<IndexReducedModel> make_wall_pendulum(WallPendulumParameters p) {
  return std::make_unique<IndexReducedModel>(std::make_unique<WallPendulum>(p));
}

}  // namespace hdae::models
