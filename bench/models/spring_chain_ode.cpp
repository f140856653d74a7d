#include "models/spring_chain_ode.hpp"

namespace hdae::bench {

SpringChainOde::SpringChainOde(SpringChainOdeParameters p) : Model("spring_chain_ode"), p_(p) {
  const std::size_t n = p_.masses;
  const auto [s, v] =
      declare_variable_families(n, {{.name = "s", .unit = "m"}, {.name = "v", .unit = "m/s"}});
  const auto [kinematics, dynamics] = declare_equation_families(
      n, {{"der(s[{i}]) = v[{i}]"},
          {"m*der(v[{i}]) = k*(s[{i+1}] - s[{i}]) - k*(s[{i}] - s[{i-1}]) - d*v[{i}]"}});
  declare_dependency(kinematics, s);
  declare_dependency(kinematics, v);
  declare_dependency(dynamics, v);
  declare_dependency(dynamics, s);
  declare_dependency(dynamics, s, -1);
  declare_dependency(dynamics, s, +1);
  s_ = s;
  v_ = v;
  kinematics_ = kinematics;
  dynamics_ = dynamics;
  for (std::size_t i = 0; i < n; ++i) {
    set_start(s_[i], p_.end_displacement_m * static_cast<double>(i + 1) / static_cast<double>(n));
  }
}

void SpringChainOde::evaluate(Evaluation& e) {
  const std::size_t n = s_.size();
  const double k = p_.stiffness_npm;
  for (std::size_t i = 0; i < n; ++i) {
    const double s = e.x(s_[i]);
    const double s_prev = i > 0 ? e.x(s_[i - 1]) : 0.0;
    const double pull_next = i + 1 < n ? k * (e.x(s_[i + 1]) - s) : 0.0;
    const double v = e.x(v_[i]);
    e.set(kinematics_[i], e.der(s_[i]) - v);
    e.set(dynamics_[i],
          p_.mass_kg * e.der(v_[i]) - pull_next + k * (s - s_prev) + p_.damping_nspm * v);
  }
}

}  // namespace hdae::bench
