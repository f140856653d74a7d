#include "hdae/models/pendulum.hpp"

#include <cmath>

namespace hdae::models {

Pendulum::Pendulum(PendulumParameters p) : Model("pendulum"), p_(p) {
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

void Pendulum::evaluate(Evaluation& e) {
  const double phi = e.x(phi_);
  const double w = e.x(w_);
  const double m = p_.mass_kg;
  const double L = p_.length_m;
  e.set(kinematics_, e.der(phi_) - w);
  e.set(dynamics_,
        m * L * L * e.der(w_) + m * p_.gravity_mps2 * L * std::sin(phi) + p_.damping_nms * w);
  if (e.wants_outputs()) {
    e.set(x_, L * std::sin(phi));
    e.set(y_, -L * std::cos(phi));
  }
}

}  // namespace hdae::models
