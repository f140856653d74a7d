#include "hdae/models/mass_spring_chain.hpp"

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::models {

MassSpringChain::MassSpringChain(MassSpringChainParameters p) : Model("mass_spring_chain"), p_(p) {
  const std::size_t n = p_.masses;
  if (n == 0) throw ModelError("MassSpringChain: masses must be >= 1");
  const double f0 = p_.stiffness_npm * p_.end_displacement_m / static_cast<double>(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double s_start =
        p_.end_displacement_m * static_cast<double>(i + 1) / static_cast<double>(n);
    s_.push_back(
        declare_variable({.name = fmt::format("s[{}]", i + 1), .unit = "m", .start = s_start}));
    v_.push_back(declare_variable({.name = fmt::format("v[{}]", i + 1), .unit = "m/s"}));
    f_.push_back(declare_variable({.name = fmt::format("f[{}]", i + 1),
                                   .unit = "N",
                                   .start = f0,
                                   .nominal = std::max(f0, 1e-3)}));
  }
  for (std::size_t i = 0; i < n; ++i) {
    kinematics_.push_back(declare_equation(fmt::format("der(s[{0}]) = v[{0}]", i + 1)));
    dynamics_.push_back(
        declare_equation(fmt::format("m*der(v[{0}]) = f[{1}] - f[{0}] - d*v[{0}]", i + 1, i + 2)));
    springs_.push_back(declare_equation(fmt::format("0 = f[{0}] - k*(s[{0}] - s[{1}])", i + 1, i),
                                        RowKind::kConstraint));
  }
  for (std::size_t i = 0; i < n; ++i) {
    declare_dependency(kinematics_[i], s_[i]);
    declare_dependency(kinematics_[i], v_[i]);
    declare_dependency(dynamics_[i], v_[i]);
    declare_dependency(dynamics_[i], f_[i]);
    if (i + 1 < n) declare_dependency(dynamics_[i], f_[i + 1]);
    declare_dependency(springs_[i], f_[i]);
    declare_dependency(springs_[i], s_[i]);
    if (i > 0) declare_dependency(springs_[i], s_[i - 1]);
  }
  energy_ = declare_output("energy", "J");
}

void MassSpringChain::evaluate(Evaluation& e) {
  const std::size_t n = p_.masses;
  for (std::size_t i = 0; i < n; ++i) {
    const double f_next = i + 1 < n ? e.x(f_[i + 1]) : 0.0;
    const double s_prev = i > 0 ? e.x(s_[i - 1]) : 0.0;
    e.set(kinematics_[i], e.der(s_[i]) - e.x(v_[i]));
    e.set(dynamics_[i],
          p_.mass_kg * e.der(v_[i]) + e.x(f_[i]) - f_next + p_.damping_nspm * e.x(v_[i]));
    e.set(springs_[i], e.x(f_[i]) - p_.stiffness_npm * (e.x(s_[i]) - s_prev));
  }
  if (e.wants_outputs()) e.set(energy_, energy(e.x()));
}

double MassSpringChain::energy(std::span<const double> x) const {
  double energy = 0.0;
  for (std::size_t i = 0; i < p_.masses; ++i) {
    const double v = x[v_[i].index];
    const double f = x[f_[i].index];
    energy += 0.5 * p_.mass_kg * v * v + f * f / (2.0 * p_.stiffness_npm);
  }
  return energy;
}

}  // namespace hdae::models
