#include "hdae/models/slider_crank.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = SliderCrankParameters;
const std::array<detail::ParameterField<P>, 10> kFields = {{
    {{.name = "r", .unit = "m", .min = detail::kPositive, .description = "length of the crank"},
     [](P& p) -> double& { return p.crank_length_m; }},
    {{.name = "l",
      .unit = "m",
      .min = detail::kPositive,
      .description = "length of the connecting rod (> r)"},
     [](P& p) -> double& { return p.rod_length_m; }},
    {{.name = "m_crank",
      .unit = "kg",
      .min = 0.0,
      .description = "mass of the crank, centre at r/2 (its weight loads the motor)"},
     [](P& p) -> double& { return p.crank_mass_kg; }},
    {{.name = "J_crank",
      .unit = "kg.m2",
      .min = 0.0,
      .description = "moment of inertia of the crank about its pivot"},
     [](P& p) -> double& { return p.crank_inertia_kgm2; }},
    {{.name = "m_rod", .unit = "kg", .min = 0.0, .description = "mass of the connecting rod"},
     [](P& p) -> double& { return p.rod_mass_kg; }},
    {{.name = "J_rod",
      .unit = "kg.m2",
      .min = 0.0,
      .description = "moment of inertia of the rod about its centre"},
     [](P& p) -> double& { return p.rod_inertia_kgm2; }},
    {{.name = "m_slider",
      .unit = "kg",
      .min = detail::kPositive,
      .description = "mass of the slider"},
     [](P& p) -> double& { return p.slider_mass_kg; }},
    {{.name = "g", .unit = "m/s2", .description = "gravitational acceleration (along -y)"},
     [](P& p) -> double& { return p.gravity_mps2; }},
    {{.name = "omega", .unit = "rad/s", .description = "speed the motor holds the crank at"},
     [](P& p) -> double& { return p.omega_radps; }},
    {{.name = "theta0", .unit = "rad", .description = "crank angle at t0"},
     [](P& p) -> double& { return p.theta0_rad; }},
}};

}  // namespace

SliderCrank::SliderCrank(SliderCrankParameters p) : PhysicsModelOf("slider_crank"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  const double r = p_.crank_length_m;
  const double l = p_.rod_length_m;
  const double speed = std::max(r * std::abs(p_.omega_radps), 1e-3);
  theta_ = declare_variable({.name = "theta", .unit = "rad", .der_unit = "rad/s"});
  w_ = declare_variable({.name = "w", .unit = "rad/s", .der_unit = "rad/s2"});
  xA_ = declare_variable({.name = "xA", .unit = "m", .nominal = r, .der_unit = "m/s"});
  yA_ = declare_variable({.name = "yA", .unit = "m", .nominal = r, .der_unit = "m/s"});
  uA_ = declare_variable({.name = "uA", .unit = "m/s", .nominal = speed, .der_unit = "m/s2"});
  vA_ = declare_variable({.name = "vA", .unit = "m/s", .nominal = speed, .der_unit = "m/s2"});
  xB_ = declare_variable({.name = "xB", .unit = "m", .nominal = l, .der_unit = "m/s"});
  yB_ = declare_variable({.name = "yB", .unit = "m", .nominal = l, .der_unit = "m/s"});
  uB_ = declare_variable({.name = "uB", .unit = "m/s", .nominal = speed, .der_unit = "m/s2"});
  vB_ = declare_variable({.name = "vB", .unit = "m/s", .nominal = speed, .der_unit = "m/s2"});
  // Forces of the order of the weights and of m r omega^2 (10 N at the defaults).
  FAx_ = declare_variable({.name = "FAx", .unit = "N", .nominal = 10.0, .der_unit = "N/s"});
  FAy_ = declare_variable({.name = "FAy", .unit = "N", .nominal = 10.0, .der_unit = "N/s"});
  lambda_ = declare_variable({.name = "lambda", .unit = "N", .nominal = 10.0, .der_unit = "N/s"});
  N_ = declare_variable({.name = "N", .unit = "N", .nominal = 10.0, .der_unit = "N/s"});
  tau_ = declare_variable({.name = "tau", .unit = "N.m", .der_unit = "N.m/s"});
  crank_kinematics_ = declare_equation("der(theta) = w");
  kinematics_xA_ = declare_equation("der(xA) = uA");
  kinematics_yA_ = declare_equation("der(yA) = vA");
  kinematics_xB_ = declare_equation("der(xB) = uB");
  kinematics_yB_ = declare_equation("der(yB) = vB");
  crank_ = declare_equation("J1*der(w) = tau - m1*g*(r/2)*cos(theta) - (xA*FAy - yA*FAx)");
  rod_ax_ = declare_equation("a*der(uA) + b*der(uB) = FAx + lambda*(xB - xA)/l");
  rod_ay_ = declare_equation("a*der(vA) + b*der(vB) = FAy + lambda*(yB - yA)/l - m2*g/2");
  rod_bx_ = declare_equation("b*der(uA) + (a + m3)*der(uB) = lambda*(xA - xB)/l");
  rod_by_ =
      declare_equation("b*der(vA) + (a + m3)*der(vB) = lambda*(yA - yB)/l - (m2/2 + m3)*g + N");
  pin_x_ = declare_equation("0 = xA - r*cos(theta)");
  pin_y_ = declare_equation("0 = yA - r*sin(theta)");
  rod_ = declare_equation("0 = ((xB - xA)^2 + (yB - yA)^2 - l^2)/(2*l)");
  guide_ = declare_equation("0 = yB");
  motor_ = declare_equation("0 = w - omega");
  energy_ = declare_output("energy", "J");
  power_ = declare_output("power", "W");
  parameters_changed();
}

void SliderCrank::parameters_changed() {
  const P p = detail::read_fields<P>(kFields, structure(), p_);
  if (!(p.rod_length_m > p.crank_length_m)) {
    throw ModelError(fmt::format(
        "model 'slider_crank': the rod must be longer than the crank: parameter l must be > r, "
        "got l = {}, r = {}",
        p.rod_length_m, p.crank_length_m));
  }
  p_ = p;
  set_starts();
}

// Positions and velocities at t0 from the closed form (header), so that the reduction starts
// from a consistent point without moving anything; the forces start at 0 as guesses.
void SliderCrank::set_starts() {
  const double r = p_.crank_length_m;
  const double l = p_.rod_length_m;
  const double omega = p_.omega_radps;
  const double theta = p_.theta0_rad;
  const double root = std::sqrt(l * l - r * r * std::sin(theta) * std::sin(theta));
  set_start(theta_, theta);
  set_start(w_, omega);
  set_start(xA_, r * std::cos(theta));
  set_start(yA_, r * std::sin(theta));
  set_start(uA_, -r * omega * std::sin(theta));
  set_start(vA_, r * omega * std::cos(theta));
  set_start(xB_, slider_crank_slider_x(r, l, theta));
  set_start(yB_, 0.0);
  // d/dt of the closed form: -r w sin(theta) - r^2 w sin(theta) cos(theta) / root.
  set_start(uB_, -r * omega * std::sin(theta) * (1 + r * std::cos(theta) / root));
  set_start(vB_, 0.0);
  const double speed = std::max(r * std::abs(omega), 1e-3);
  set_nominal(xA_, r);
  set_nominal(yA_, r);
  set_nominal(xB_, l);
  set_nominal(yB_, l);
  for (const Var v : {uA_, vA_, uB_, vB_}) set_nominal(v, speed);
}

void SliderCrank::outputs(Evaluation& e) const {
  const double l = p_.rod_length_m;
  const double g = p_.gravity_mps2;
  const double m2 = p_.rod_mass_kg;
  const double m3 = p_.slider_mass_kg;
  const double a = m2 / 4 + p_.rod_inertia_kgm2 / (l * l);
  const double b = m2 / 4 - p_.rod_inertia_kgm2 / (l * l);
  const double w = e.x(w_);
  const double uA = e.x(uA_), vA = e.x(vA_), uB = e.x(uB_), vB = e.x(vB_);
  const double kinetic =
      0.5 * p_.crank_inertia_kgm2 * w * w +
      0.5 * (a * (uA * uA + vA * vA) + 2 * b * (uA * uB + vA * vB) + a * (uB * uB + vB * vB)) +
      0.5 * m3 * (uB * uB + vB * vB);
  const double potential = p_.crank_mass_kg * g * p_.crank_length_m / 2 * std::sin(e.x(theta_)) +
                           m2 * g * (e.x(yA_) + e.x(yB_)) / 2 + m3 * g * e.x(yB_);
  e.set(energy_, kinetic + potential);
  e.set(power_, e.x(tau_) * w);
}

std::unique_ptr<IndexReducedModel> make_slider_crank(SliderCrankParameters p) {
  return std::make_unique<IndexReducedModel>(std::make_unique<SliderCrank>(p));
}

}  // namespace hdae::models
