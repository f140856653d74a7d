#include "hdae/models/simple_state_events.hpp"

namespace hdae::models {

SimpleStateEvents::SimpleStateEvents(SimpleStateEventsParameters p)
    : Model("simple_state_events"), p_(p) {
  s_ = declare_variable({.name = "s", .unit = "m", .start = p_.s0_m, .der_unit = "m/s"});
  v_ = declare_variable({.name = "v", .unit = "m/s", .start = p_.v0_mps, .der_unit = "m/s2"});
  kinematics_ = declare_equation("der(s) = v");
  dynamics_ = declare_equation("m*der(v) = f - d*v - k*s");
  s_positive_ = declare_crossing("s > 0");
  force_ = declare_output("f", "N");
}

void SimpleStateEvents::evaluate(Evaluation& e) {
  const double f = e.positive(s_positive_, e.x(s_)) ? 0.0 : p_.force_max_n;
  e.set(kinematics_, e.der(s_) - e.x(v_));
  e.set(dynamics_,
        p_.mass_kg * e.der(v_) - f + p_.damping_nspm * e.x(v_) + p_.stiffness_npm * e.x(s_));
  e.set(force_, f);
}

}  // namespace hdae::models
