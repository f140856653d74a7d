#include "hdae/models/simple_state_events.hpp"

#include <array>
#include <utility>

#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = SimpleStateEventsParameters;
const std::array<detail::ParameterField<P>, 6> kFields = {{
    {{.name = "m", .unit = "kg", .min = detail::kPositive, .description = "mass"},
     [](P& p) -> double& { return p.mass_kg; }},
    {{.name = "k", .unit = "N/m", .description = "spring stiffness"},
     [](P& p) -> double& { return p.stiffness_npm; }},
    {{.name = "d", .unit = "N.s/m", .description = "damping coefficient"},
     [](P& p) -> double& { return p.damping_nspm; }},
    {{.name = "f_max", .unit = "N", .description = "force while s <= 0"},
     [](P& p) -> double& { return p.force_max_n; }},
    {{.name = "s_start", .unit = "m", .description = "position at t0"},
     [](P& p) -> double& { return p.s0_m; }},
    {{.name = "v_start", .unit = "m/s", .description = "velocity at t0"},
     [](P& p) -> double& { return p.v0_mps; }},
}};

}  // namespace

SimpleStateEvents::SimpleStateEvents(SimpleStateEventsParameters p)
    : Model("simple_state_events"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  s_ = declare_variable({.name = "s", .unit = "m", .start = p_.s0_m, .der_unit = "m/s"});
  v_ = declare_variable({.name = "v", .unit = "m/s", .start = p_.v0_mps, .der_unit = "m/s2"});
  kinematics_ = declare_equation("der(s) = v");
  dynamics_ = declare_equation("m*der(v) = f - d*v - k*s");
  s_positive_ = declare_crossing("s > 0");
  force_ = declare_output("f", "N");
}

void SimpleStateEvents::parameters_changed() {
  p_ = detail::read_fields<P>(kFields, structure(), p_);
  set_start(s_, p_.s0_m);
  set_start(v_, p_.v0_mps);
}

void SimpleStateEvents::evaluate(Evaluation& e) {
  const double f = e.positive(s_positive_, e.x(s_)) ? 0.0 : p_.force_max_n;
  e.set(kinematics_, e.der(s_) - e.x(v_));
  e.set(dynamics_,
        p_.mass_kg * e.der(v_) - f + p_.damping_nspm * e.x(v_) + p_.stiffness_npm * e.x(s_));
  e.set(force_, f);
}

}  // namespace hdae::models
