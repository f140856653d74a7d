#include "hdae/models/mass_spring_chain.hpp"

#include <array>
#include <cmath>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = MassSpringChainParameters;
const std::array<detail::ParameterField<P>, 4> kFields = {{
    {{.name = "m", .unit = "kg", .min = detail::kPositive, .description = "mass of each body"},
     [](P& p) -> double& { return p.mass_kg; }},
    {{.name = "k", .unit = "N/m", .min = detail::kPositive, .description = "spring stiffness"},
     [](P& p) -> double& { return p.stiffness_npm; }},
    {{.name = "d", .unit = "N.s/m", .min = 0.0, .description = "damping of each mass"},
     [](P& p) -> double& { return p.damping_nspm; }},
    {{.name = "s_end", .unit = "m", .description = "displacement of the free end at t0"},
     [](P& p) -> double& { return p.end_displacement_m; }},
}};

/// 2^53: up to here every integer is a double.
constexpr double kMaxMasses = 9007199254740992.0;

}  // namespace

MassSpringChain::MassSpringChain(MassSpringChainParameters p) : Model("mass_spring_chain"), p_(p) {
  detail::declare_fields<P>(kFields, p_, [this](ParameterInfo i) { declare_parameter(i); });
  masses_ = declare_parameter({.name = "N",
                               .value = static_cast<double>(p_.masses),
                               .min = 1.0,
                               .max = kMaxMasses,
                               .description = "number of masses, an integer"});
  declare_chain();
}

void MassSpringChain::parameters_changed() {
  MassSpringChainParameters p = detail::read_fields<P>(kFields, structure(), p_);
  const double n = value(masses_);
  if (n != std::floor(n)) {
    throw ModelError(fmt::format(
        "model 'mass_spring_chain': parameter 'N' (number of masses) must be an integer, got {}",
        n));
  }
  p.masses = static_cast<std::size_t>(n);
  p_ = p;
  declare_chain();
}

void MassSpringChain::declare_chain() {
  clear_declarations();
  const std::size_t n = p_.masses;
  // 3 unknowns and 3 rows per mass; 8 pattern entries per mass but the 2 the chain's ends lack.
  reserve_declarations(3 * n, 3 * n, 8 * n - 2);
  bodies_.assign(n, Body{});
  const double f0 = p_.stiffness_npm * p_.end_displacement_m / static_cast<double>(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double s_start =
        p_.end_displacement_m * static_cast<double>(i + 1) / static_cast<double>(n);
    Body& body = bodies_[i];
    body.s = declare_variable({.name = fmt::format("s[{}]", i + 1), .unit = "m", .start = s_start});
    body.v = declare_variable({.name = fmt::format("v[{}]", i + 1), .unit = "m/s"});
    body.f = declare_variable({.name = fmt::format("f[{}]", i + 1),
                               .unit = "N",
                               .start = f0,
                               .nominal = std::max(f0, 1e-3)});
  }
  for (std::size_t i = 0; i < n; ++i) {
    Body& body = bodies_[i];
    body.kinematics = declare_equation(fmt::format("der(s[{0}]) = v[{0}]", i + 1));
    body.dynamics =
        declare_equation(fmt::format("m*der(v[{0}]) = f[{1}] - f[{0}] - d*v[{0}]", i + 1, i + 2));
    body.spring = declare_equation(fmt::format("0 = f[{0}] - k*(s[{0}] - s[{1}])", i + 1, i),
                                   RowKind::kConstraint);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const Body& body = bodies_[i];
    declare_dependency(body.kinematics, body.s);
    declare_dependency(body.kinematics, body.v);
    declare_dependency(body.dynamics, body.v);
    declare_dependency(body.dynamics, body.f);
    if (i + 1 < n) declare_dependency(body.dynamics, bodies_[i + 1].f);
    declare_dependency(body.spring, body.f);
    declare_dependency(body.spring, body.s);
    if (i > 0) declare_dependency(body.spring, bodies_[i - 1].s);
  }
  energy_ = declare_output("energy", "J");
}

void MassSpringChain::evaluate(Evaluation& e) {
  const std::size_t n = bodies_.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Body& body = bodies_[i];
    const double f_next = i + 1 < n ? e.x(bodies_[i + 1].f) : 0.0;
    const double s_prev = i > 0 ? e.x(bodies_[i - 1].s) : 0.0;
    const double v = e.x(body.v);
    const double f = e.x(body.f);
    e.set(body.kinematics, e.der(body.s) - v);
    e.set(body.dynamics, p_.mass_kg * e.der(body.v) + f - f_next + p_.damping_nspm * v);
    e.set(body.spring, f - p_.stiffness_npm * (e.x(body.s) - s_prev));
  }
  if (e.wants_outputs()) e.set(energy_, energy(e.x()));
}

double MassSpringChain::energy(std::span<const double> x) const {
  double energy = 0.0;
  for (const Body& body : bodies_) {
    const double v = x[body.v.index];
    const double f = x[body.f.index];
    energy += 0.5 * p_.mass_kg * v * v + f * f / (2.0 * p_.stiffness_npm);
  }
  return energy;
}

}  // namespace hdae::models
