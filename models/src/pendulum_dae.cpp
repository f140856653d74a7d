#include "hdae/models/pendulum_dae.hpp"

#include <array>
#include <utility>

#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = PendulumDaeParameters;
const std::array<detail::ParameterField<P>, 8> kFields = {{
    {{.name = "L", .unit = "m", .min = detail::kPositive, .description = "length of the rod"},
     [](P& p) -> double& { return p.length_m; }},
    {{.name = "m", .unit = "kg", .min = detail::kPositive, .description = "mass"},
     [](P& p) -> double& { return p.mass_kg; }},
    {{.name = "g", .unit = "m/s2", .description = "gravitational acceleration"},
     [](P& p) -> double& { return p.gravity_mps2; }},
    {{.name = "d", .unit = "N.s/m", .min = 0.0, .description = "damping of the velocity"},
     [](P& p) -> double& { return p.damping_nspm; }},
    {{.name = "x_start", .unit = "m", .description = "x at t0- (projected onto the circle)"},
     [](P& p) -> double& { return p.x_start_m; }},
    {{.name = "y_start", .unit = "m", .description = "y at t0- (projected onto the circle)"},
     [](P& p) -> double& { return p.y_start_m; }},
    {{.name = "vx_start", .unit = "m/s", .description = "vx at t0- (projected)"},
     [](P& p) -> double& { return p.vx_start_mps; }},
    {{.name = "vy_start", .unit = "m/s", .description = "vy at t0- (projected)"},
     [](P& p) -> double& { return p.vy_start_mps; }},
}};

}  // namespace

PendulumDae::PendulumDae(PendulumDaeParameters p) : Model("pendulum_dae"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  const double L = p_.length_m;
  const bool fixed = p_.fix_x_and_vx;
  x_ = declare_variable({.name = "x",
                         .unit = "m",
                         .start = p_.x_start_m,
                         .fixed = fixed,
                         .nominal = L,
                         .der_unit = "m/s"});
  y_ = declare_variable(
      {.name = "y", .unit = "m", .start = p_.y_start_m, .nominal = L, .der_unit = "m/s"});
  vx_ = declare_variable(
      {.name = "vx", .unit = "m/s", .start = p_.vx_start_mps, .fixed = fixed, .der_unit = "m/s2"});
  vy_ =
      declare_variable({.name = "vy", .unit = "m/s", .start = p_.vy_start_mps, .der_unit = "m/s2"});
  lambda_int_ = declare_variable(
      {.name = "lambda_int", .unit = "N.s/m", .der_name = "lambda", .der_unit = "N/m"});
  mue_int_ = declare_variable({.name = "mue_int", .der_name = "mue", .der_unit = "1/s"});
  kinematics_x_ = declare_equation("der(x) = vx - x*mue");
  kinematics_y_ = declare_equation("der(y) = vy - y*mue");
  momentum_x_ = declare_equation("m*der(vx) = -x*lambda - d*vx");
  momentum_y_ = declare_equation("m*der(vy) = -y*lambda - m*g - d*vy");
  position_ = declare_equation("0 = (x^2 + y^2 - L^2)/2", RowKind::kConstraint);
  velocity_ = declare_equation("0 = x*vx + y*vy", RowKind::kConstraint);
  energy_ = declare_output("energy", "J");
}

void PendulumDae::parameters_changed() {
  p_ = detail::read_fields<P>(kFields, structure(), p_);
  set_start(x_, p_.x_start_m);
  set_start(y_, p_.y_start_m);
  set_start(vx_, p_.vx_start_mps);
  set_start(vy_, p_.vy_start_mps);
  set_nominal(x_, p_.length_m);
  set_nominal(y_, p_.length_m);
}

void PendulumDae::evaluate(Evaluation& e) {
  const double x = e.x(x_);
  const double y = e.x(y_);
  const double vx = e.x(vx_);
  const double vy = e.x(vy_);
  const double lambda = e.der(lambda_int_);
  const double mue = e.der(mue_int_);
  const double m = p_.mass_kg;
  const double d = p_.damping_nspm;
  e.set(kinematics_x_, e.der(x_) - vx + x * mue);
  e.set(kinematics_y_, e.der(y_) - vy + y * mue);
  e.set(momentum_x_, m * e.der(vx_) + x * lambda + d * vx);
  e.set(momentum_y_, m * e.der(vy_) + y * lambda + m * p_.gravity_mps2 + d * vy);
  e.set(position_, (x * x + y * y - p_.length_m * p_.length_m) / 2.0);
  e.set(velocity_, x * vx + y * vy);
  if (e.wants_outputs()) {
    e.set(energy_, 0.5 * m * (vx * vx + vy * vy) + m * p_.gravity_mps2 * y);
  }
}

}  // namespace hdae::models
