#include "hdae/models/mass_spring_chain.hpp"

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::models {

MassSpringChain::MassSpringChain(MassSpringChainParameters p) : Model("mass_spring_chain"), p_(p) {
  const std::size_t n = p_.masses;
  if (n == 0) throw ModelError("MassSpringChain: masses must be >= 1");
  const double f0 = p_.stiffness_npm * p_.end_displacement_m / static_cast<double>(n);
  masses_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double s_start =
        p_.end_displacement_m * static_cast<double>(i + 1) / static_cast<double>(n);
    Mass& mass = masses_[i];
    mass.s = declare_variable({.name = fmt::format("s[{}]", i + 1), .unit = "m", .start = s_start});
    mass.v = declare_variable({.name = fmt::format("v[{}]", i + 1), .unit = "m/s"});
    mass.f = declare_variable({.name = fmt::format("f[{}]", i + 1),
                               .unit = "N",
                               .start = f0,
                               .nominal = std::max(f0, 1e-3)});
  }
  for (std::size_t i = 0; i < n; ++i) {
    Mass& mass = masses_[i];
    mass.kinematics = declare_equation(fmt::format("der(s[{0}]) = v[{0}]", i + 1));
    mass.dynamics =
        declare_equation(fmt::format("m*der(v[{0}]) = f[{1}] - f[{0}] - d*v[{0}]", i + 1, i + 2));
    mass.spring = declare_equation(fmt::format("0 = f[{0}] - k*(s[{0}] - s[{1}])", i + 1, i),
                                   RowKind::kConstraint);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const Mass& mass = masses_[i];
    declare_dependency(mass.kinematics, mass.s);
    declare_dependency(mass.kinematics, mass.v);
    declare_dependency(mass.dynamics, mass.v);
    declare_dependency(mass.dynamics, mass.f);
    if (i + 1 < n) declare_dependency(mass.dynamics, masses_[i + 1].f);
    declare_dependency(mass.spring, mass.f);
    declare_dependency(mass.spring, mass.s);
    if (i > 0) declare_dependency(mass.spring, masses_[i - 1].s);
  }
  energy_ = declare_output("energy", "J");
}

void MassSpringChain::evaluate(Evaluation& e) {
  const std::size_t n = masses_.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Mass& mass = masses_[i];
    const double f_next = i + 1 < n ? e.x(masses_[i + 1].f) : 0.0;
    const double s_prev = i > 0 ? e.x(masses_[i - 1].s) : 0.0;
    const double v = e.x(mass.v);
    const double f = e.x(mass.f);
    e.set(mass.kinematics, e.der(mass.s) - v);
    e.set(mass.dynamics, p_.mass_kg * e.der(mass.v) + f - f_next + p_.damping_nspm * v);
    e.set(mass.spring, f - p_.stiffness_npm * (e.x(mass.s) - s_prev));
  }
  if (e.wants_outputs()) e.set(energy_, energy(e.x()));
}

double MassSpringChain::energy(std::span<const double> x) const {
  double energy = 0.0;
  for (std::size_t i = 0; i < masses_.size(); ++i) {
    const double v = x[masses_[i].v.index];
    const double f = x[masses_[i].f.index];
    energy += 0.5 * p_.mass_kg * v * v + f * f / (2.0 * p_.stiffness_npm);
  }
  return energy;
}

}  // namespace hdae::models
