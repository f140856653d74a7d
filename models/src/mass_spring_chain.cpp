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
  for (auto* handles : {&s_, &v_, &f_}) handles->clear();
  for (auto* handles : {&kinematics_, &dynamics_, &springs_}) handles->clear();
  const std::size_t n = p_.masses;
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
