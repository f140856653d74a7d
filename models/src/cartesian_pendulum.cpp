#include "hdae/models/cartesian_pendulum.hpp"

#include <array>
#include <cmath>
#include <utility>

#include "parameter_fields.hpp"
#include "point_mass.hpp"

namespace hdae::models {

namespace {

using P = CartesianPendulumParameters;
const std::array<detail::ParameterField<P>, 8> kFields = {{
    {{.name = "L", .unit = "m", .min = detail::kPositive, .description = "length of the rod"},
     [](P& p) -> double& { return p.length_m; }},
    {{.name = "m", .unit = "kg", .min = detail::kPositive, .description = "mass of the bob"},
     [](P& p) -> double& { return p.mass_kg; }},
    {{.name = "d",
      .unit = "N.m.s/rad",
      .min = 0.0,
      .description = "damping, as a torque at the pivot (force -(d/L^2) v)"},
     [](P& p) -> double& { return p.damping_nms; }},
    {{.name = "g", .unit = "m/s2", .description = "gravitational acceleration"},
     [](P& p) -> double& { return p.gravity_mps2; }},
    {{.name = "x_start", .unit = "m", .description = "x at t0 (moved onto the circle)"},
     [](P& p) -> double& { return p.x_start_m; }},
    {{.name = "y_start", .unit = "m", .description = "y at t0 (moved onto the circle)"},
     [](P& p) -> double& { return p.y_start_m; }},
    {{.name = "vx_start", .unit = "m/s", .description = "vx at t0 (made tangential)"},
     [](P& p) -> double& { return p.vx_start_mps; }},
    {{.name = "vy_start", .unit = "m/s", .description = "vy at t0 (made tangential)"},
     [](P& p) -> double& { return p.vy_start_mps; }},
}};

}  // namespace

CartesianPendulum::CartesianPendulum(CartesianPendulumParameters p)
    : PhysicsModelOf("cartesian_pendulum"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  const double L = p_.length_m;
  x_ = declare_variable(
      {.name = "x", .unit = "m", .start = p_.x_start_m, .nominal = L, .der_unit = "m/s"});
  y_ = declare_variable(
      {.name = "y", .unit = "m", .start = p_.y_start_m, .nominal = L, .der_unit = "m/s"});
  vx_ =
      declare_variable({.name = "vx", .unit = "m/s", .start = p_.vx_start_mps, .der_unit = "m/s2"});
  vy_ =
      declare_variable({.name = "vy", .unit = "m/s", .start = p_.vy_start_mps, .der_unit = "m/s2"});
  F_ = declare_variable({.name = "F", .unit = "N", .nominal = 10.0, .der_unit = "N/s"});
  kinematics_x_ = declare_equation("der(x) = vx");
  kinematics_y_ = declare_equation("der(y) = vy");
  momentum_x_ = declare_equation("m*der(vx) = -F*x/L - (d/L^2)*vx");
  momentum_y_ = declare_equation("m*der(vy) = -F*y/L - m*g - (d/L^2)*vy");
  rod_ = declare_equation("0 = x^2 + y^2 - L^2");
  phi_ = declare_output("phi", "rad");
  energy_ = declare_output("energy", "J");
}

void CartesianPendulum::parameters_changed() {
  p_ = detail::read_fields<P>(kFields, structure(), p_);
  set_start(x_, p_.x_start_m);
  set_start(y_, p_.y_start_m);
  set_start(vx_, p_.vx_start_mps);
  set_start(vy_, p_.vy_start_mps);
  set_nominal(x_, p_.length_m);
  set_nominal(y_, p_.length_m);
}

void CartesianPendulum::outputs(Evaluation& e) const {
  const double x = e.x(x_);
  const double y = e.x(y_);
  const double vx = e.x(vx_);
  const double vy = e.x(vy_);
  e.set(phi_, detail::angle_from_vertical(x, y));
  e.set(energy_, detail::mechanical_energy(p_.mass_kg, p_.gravity_mps2, y, vx, vy));
}

std::unique_ptr<IndexReducedModel> make_cartesian_pendulum(CartesianPendulumParameters p) {
  return std::make_unique<IndexReducedModel>(std::make_unique<CartesianPendulum>(p));
}

}  // namespace hdae::models
