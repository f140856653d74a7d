#include "hdae/models/pendulum.hpp"

#include <array>
#include <cmath>
#include <utility>

#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = PendulumParameters;
const std::array<detail::ParameterField<P>, 6> kFields = {{
    {{.name = "L", .unit = "m", .min = detail::kPositive, .description = "length of the rod"},
     [](P& p) -> double& { return p.length_m; }},
    {{.name = "m", .unit = "kg", .min = detail::kPositive, .description = "mass of the bob"},
     [](P& p) -> double& { return p.mass_kg; }},
    {{.name = "d", .unit = "N.m.s/rad", .min = 0.0, .description = "damping at the pivot"},
     [](P& p) -> double& { return p.damping_nms; }},
    {{.name = "g", .unit = "m/s2", .description = "gravitational acceleration"},
     [](P& p) -> double& { return p.gravity_mps2; }},
    {{.name = "phi_start", .unit = "rad", .description = "angle from the vertical at t0"},
     [](P& p) -> double& { return p.phi0_rad; }},
    {{.name = "w_start", .unit = "rad/s", .description = "angular velocity at t0"},
     [](P& p) -> double& { return p.w0_radps; }},
}};

}  // namespace

Pendulum::Pendulum(PendulumParameters p) : Model("pendulum"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  phi_ =
      declare_variable({.name = "phi", .unit = "rad", .start = p_.phi0_rad, .der_unit = "rad/s"});
  w_ = declare_variable({.name = "w", .unit = "rad/s", .start = p_.w0_radps, .der_unit = "rad/s2"});
  kinematics_ = declare_equation("der(phi) = w");
  dynamics_ = declare_equation("m*L^2*der(w) = -m*g*L*sin(phi) - d*w");
  declare_dependency(kinematics_, phi_);
  declare_dependency(kinematics_, w_);
  declare_dependency(dynamics_, phi_);
  declare_dependency(dynamics_, w_);
  x_ = declare_output("x", "m");
  y_ = declare_output("y", "m");
}

void Pendulum::parameters_changed() {
  p_ = detail::read_fields<P>(kFields, structure(), p_);
  set_start(phi_, p_.phi0_rad);
  set_start(w_, p_.w0_radps);
}

void Pendulum::evaluate(Evaluation& e) {
  const double phi = e.x(phi_);
  const double w = e.x(w_);
  const double m = p_.mass_kg;
  const double L = p_.length_m;
  e.set(kinematics_, e.der(phi_) - w);
  e.set(dynamics_,
        m * L * L * e.der(w_) + m * p_.gravity_mps2 * L * std::sin(phi) + p_.damping_nms * w);
  if (e.wants_outputs()) set_position(e, phi);
}

// Out of line: beside the residual's sin(phi) in one function, the compiler would fuse the
// position's cos(phi) with it into one sincos call on every residual call, outputs or not.
[[gnu::noinline]] void Pendulum::set_position(Evaluation& e, double phi) const {
  e.set(x_, p_.length_m * std::sin(phi));
  e.set(y_, -p_.length_m * std::cos(phi));
}

}  // namespace hdae::models
