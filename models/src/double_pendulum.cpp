#include "hdae/models/double_pendulum.hpp"

#include <array>
#include <cmath>
#include <utility>

#include "parameter_fields.hpp"
#include "point_mass.hpp"

namespace hdae::models {

namespace {

using P = DoublePendulumParameters;
const std::array<detail::ParameterField<P>, 9> kFields = {{
    {{.name = "L1", .unit = "m", .min = detail::kPositive, .description = "length of rod 1"},
     [](P& p) -> double& { return p.length1_m; }},
    {{.name = "L2", .unit = "m", .min = detail::kPositive, .description = "length of rod 2"},
     [](P& p) -> double& { return p.length2_m; }},
    {{.name = "m1", .unit = "kg", .min = detail::kPositive, .description = "mass of bob 1"},
     [](P& p) -> double& { return p.mass1_kg; }},
    {{.name = "m2", .unit = "kg", .min = detail::kPositive, .description = "mass of bob 2"},
     [](P& p) -> double& { return p.mass2_kg; }},
    {{.name = "g", .unit = "m/s2", .description = "gravitational acceleration"},
     [](P& p) -> double& { return p.gravity_mps2; }},
    {{.name = "phi1_start",
      .unit = "rad",
      .description = "angle of rod 1 from the downward "
                     "vertical at t0"},
     [](P& p) -> double& { return p.phi1_start_rad; }},
    {{.name = "phi2_start",
      .unit = "rad",
      .description = "angle of rod 2 from the downward "
                     "vertical at t0"},
     [](P& p) -> double& { return p.phi2_start_rad; }},
    {{.name = "w1_start", .unit = "rad/s", .description = "angular velocity of rod 1 at t0"},
     [](P& p) -> double& { return p.w1_start_radps; }},
    {{.name = "w2_start", .unit = "rad/s", .description = "angular velocity of rod 2 at t0"},
     [](P& p) -> double& { return p.w2_start_radps; }},
}};

}  // namespace

DoubleCartesianPendulum::DoubleCartesianPendulum(DoublePendulumParameters p)
    : PhysicsModelOf("double_cartesian_pendulum"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  x1_ = declare_variable({.name = "x1", .unit = "m", .der_unit = "m/s"});
  y1_ = declare_variable({.name = "y1", .unit = "m", .der_unit = "m/s"});
  x2_ = declare_variable({.name = "x2", .unit = "m", .der_unit = "m/s"});
  y2_ = declare_variable({.name = "y2", .unit = "m", .der_unit = "m/s"});
  vx1_ = declare_variable({.name = "vx1", .unit = "m/s", .der_unit = "m/s2"});
  vy1_ = declare_variable({.name = "vy1", .unit = "m/s", .der_unit = "m/s2"});
  vx2_ = declare_variable({.name = "vx2", .unit = "m/s", .der_unit = "m/s2"});
  vy2_ = declare_variable({.name = "vy2", .unit = "m/s", .der_unit = "m/s2"});
  // The rod forces are of the order of the weights, (m1 + m2) g = 20 N at the defaults.
  F1_ = declare_variable({.name = "F1", .unit = "N", .nominal = 10.0, .der_unit = "N/s"});
  F2_ = declare_variable({.name = "F2", .unit = "N", .nominal = 10.0, .der_unit = "N/s"});
  kinematics_[0] = declare_equation("der(x1) = vx1");
  kinematics_[1] = declare_equation("der(y1) = vy1");
  kinematics_[2] = declare_equation("der(x2) = vx2");
  kinematics_[3] = declare_equation("der(y2) = vy2");
  momentum_[0] = declare_equation("m1*der(vx1) = -F1*x1/L1 + F2*(x2 - x1)/L2");
  momentum_[1] = declare_equation("m1*der(vy1) = -F1*y1/L1 + F2*(y2 - y1)/L2 - m1*g");
  momentum_[2] = declare_equation("m2*der(vx2) = -F2*(x2 - x1)/L2");
  momentum_[3] = declare_equation("m2*der(vy2) = -F2*(y2 - y1)/L2 - m2*g");
  rod1_ = declare_equation("0 = x1^2 + y1^2 - L1^2");
  rod2_ = declare_equation("0 = (x2 - x1)^2 + (y2 - y1)^2 - L2^2");
  phi1_ = declare_output("phi1", "rad");
  phi2_ = declare_output("phi2", "rad");
  energy_ = declare_output("energy", "J");
  set_starts();
}

void DoubleCartesianPendulum::parameters_changed() {
  p_ = detail::read_fields<P>(kFields, structure(), p_);
  set_starts();
}

// The positions and velocities of the start angles and rates (header), on both circles.
void DoubleCartesianPendulum::set_starts() {
  const double L1 = p_.length1_m, L2 = p_.length2_m;
  const double phi1 = p_.phi1_start_rad, phi2 = p_.phi2_start_rad;
  const double w1 = p_.w1_start_radps, w2 = p_.w2_start_radps;
  set_start(x1_, L1 * std::sin(phi1));
  set_start(y1_, -L1 * std::cos(phi1));
  set_start(x2_, L1 * std::sin(phi1) + L2 * std::sin(phi2));
  set_start(y2_, -L1 * std::cos(phi1) - L2 * std::cos(phi2));
  set_start(vx1_, L1 * std::cos(phi1) * w1);
  set_start(vy1_, L1 * std::sin(phi1) * w1);
  set_start(vx2_, L1 * std::cos(phi1) * w1 + L2 * std::cos(phi2) * w2);
  set_start(vy2_, L1 * std::sin(phi1) * w1 + L2 * std::sin(phi2) * w2);
  for (const Var v : {x1_, y1_, x2_, y2_}) set_nominal(v, L1 + L2);
}

void DoubleCartesianPendulum::outputs(Evaluation& e) const {
  const double x1 = e.x(x1_), y1 = e.x(y1_), x2 = e.x(x2_), y2 = e.x(y2_);
  const double vx1 = e.x(vx1_), vy1 = e.x(vy1_), vx2 = e.x(vx2_), vy2 = e.x(vy2_);
  const double m1 = p_.mass1_kg, m2 = p_.mass2_kg, g = p_.gravity_mps2;
  e.set(phi1_, detail::angle_from_vertical(x1, y1));
  e.set(phi2_, detail::angle_from_vertical(x2 - x1, y2 - y1));
  e.set(energy_, detail::mechanical_energy(m1, g, y1, vx1, vy1) +
                     detail::mechanical_energy(m2, g, y2, vx2, vy2));
}

DoublePendulum::DoublePendulum(DoublePendulumParameters p)
    : PhysicsModelOf("double_pendulum"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  phi1_ = declare_variable(
      {.name = "phi1", .unit = "rad", .start = p_.phi1_start_rad, .der_unit = "rad/s"});
  phi2_ = declare_variable(
      {.name = "phi2", .unit = "rad", .start = p_.phi2_start_rad, .der_unit = "rad/s"});
  w1_ = declare_variable(
      {.name = "w1", .unit = "rad/s", .start = p_.w1_start_radps, .der_unit = "rad/s2"});
  w2_ = declare_variable(
      {.name = "w2", .unit = "rad/s", .start = p_.w2_start_radps, .der_unit = "rad/s2"});
  kinematics1_ = declare_equation("der(phi1) = w1");
  kinematics2_ = declare_equation("der(phi2) = w2");
  motion1_ = declare_equation(
      "(m1 + m2)*L1*der(w1) + m2*L2*cos(phi1 - phi2)*der(w2) + m2*L2*w2^2*sin(phi1 - phi2) + "
      "(m1 + m2)*g*sin(phi1) = 0");
  motion2_ = declare_equation(
      "m2*L2*der(w2) + m2*L1*cos(phi1 - phi2)*der(w1) - m2*L1*w1^2*sin(phi1 - phi2) + "
      "m2*g*sin(phi2) = 0");
  energy_ = declare_output("energy", "J");
}

void DoublePendulum::parameters_changed() {
  p_ = detail::read_fields<P>(kFields, structure(), p_);
  set_start(phi1_, p_.phi1_start_rad);
  set_start(phi2_, p_.phi2_start_rad);
  set_start(w1_, p_.w1_start_radps);
  set_start(w2_, p_.w2_start_radps);
}

void DoublePendulum::outputs(Evaluation& e) const {
  const double L1 = p_.length1_m, L2 = p_.length2_m;
  const double m1 = p_.mass1_kg, m2 = p_.mass2_kg, g = p_.gravity_mps2;
  const double phi1 = e.x(phi1_), phi2 = e.x(phi2_), w1 = e.x(w1_), w2 = e.x(w2_);
  // E of the header with the Cartesian velocities written in the angles.
  e.set(energy_, 0.5 * (m1 + m2) * L1 * L1 * w1 * w1 + 0.5 * m2 * L2 * L2 * w2 * w2 +
                     m2 * L1 * L2 * w1 * w2 * std::cos(phi1 - phi2) -
                     (m1 + m2) * g * L1 * std::cos(phi1) - m2 * g * L2 * std::cos(phi2));
}

std::unique_ptr<IndexReducedModel> make_double_cartesian_pendulum(DoublePendulumParameters p) {
  return std::make_unique<IndexReducedModel>(std::make_unique<DoubleCartesianPendulum>(p));
}

}  // namespace hdae::models
