#include "hdae/models/mass_spring_chain.hpp"

#include <array>
#include <cmath>
#include <utility>

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
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  masses_ = declare_parameter({.name = "N",
                               .value = static_cast<double>(p_.masses),
                               .min = 1.0,
                               .max = kMaxMasses,
                               .description = "number of masses",
                               .integer = true});
  declare_chain();
}

void MassSpringChain::parameters_changed() {
  MassSpringChainParameters p = detail::read_fields<P>(kFields, structure(), p_);
  const double n = value(masses_);  // an integer: ParameterInfo::integer
  p.masses = static_cast<std::size_t>(n);
  const bool resized = p.masses != p_.masses;
  p_ = p;
  // A new size declares the chain anew; other parameters move only start values and the
  // forces' nominal, which a sensitivity run may do while the model is in it.
  if (resized) {
    declare_chain();
  } else {
    set_starts();
  }
}

void MassSpringChain::declare_chain() {
  clear_declarations();
  const std::size_t n = p_.masses;
  // One family per quantity, element by element (s[1], v[1], f[1], s[2], ...): neighbours in
  // the chain are neighbours in x, as in the raw-IDA program the benchmarks compare with.
  const auto [s, v, f] = declare_variable_families(
      n, {{.name = "s", .unit = "m"}, {.name = "v", .unit = "m/s"}, {.name = "f", .unit = "N"}});
  const auto [kinematics, dynamics, spring] =
      declare_equation_families(n, {{"der(s[{i}]) = v[{i}]"},
                                    {"m*der(v[{i}]) = f[{i+1}] - f[{i}] - d*v[{i}]"},
                                    {"0 = f[{i}] - k*(s[{i}] - s[{i-1}])", RowKind::kConstraint}});
  declare_dependency(kinematics, s);
  declare_dependency(kinematics, v);
  declare_dependency(dynamics, v);
  declare_dependency(dynamics, f);
  declare_dependency(dynamics, f, +1);
  declare_dependency(spring, f);
  declare_dependency(spring, s);
  declare_dependency(spring, s, -1);
  s_ = s;
  v_ = v;
  f_ = f;
  kinematics_ = kinematics;
  dynamics_ = dynamics;
  spring_ = spring;
  energy_ = declare_output("energy", "J");
  set_starts();
}

void MassSpringChain::set_starts() {
  const std::size_t n = p_.masses;
  const double f0 = p_.stiffness_npm * p_.end_displacement_m / static_cast<double>(n);
  for (std::size_t i = 0; i < n; ++i) {
    set_start(s_[i], p_.end_displacement_m * static_cast<double>(i + 1) / static_cast<double>(n));
    set_start(f_[i], f0);
  }
  set_nominal(f_, std::max(f0, 1e-3));
}

void MassSpringChain::evaluate(Evaluation& e) {
  const std::size_t n = s_.size();
  for (std::size_t i = 0; i < n; ++i) {
    const double f_next = i + 1 < n ? e.x(f_[i + 1]) : 0.0;
    const double s_prev = i > 0 ? e.x(s_[i - 1]) : 0.0;
    const double v = e.x(v_[i]);
    const double f = e.x(f_[i]);
    e.set(kinematics_[i], e.der(s_[i]) - v);
    e.set(dynamics_[i], p_.mass_kg * e.der(v_[i]) + f - f_next + p_.damping_nspm * v);
    e.set(spring_[i], f - p_.stiffness_npm * (e.x(s_[i]) - s_prev));
  }
  if (e.wants_outputs()) e.set(energy_, energy(e.x()));
}

double MassSpringChain::energy(std::span<const double> x) const {
  double energy = 0.0;
  for (std::size_t i = 0; i < s_.size(); ++i) {
    const double v = x[v_[i].index];
    const double f = x[f_[i].index];
    energy += 0.5 * p_.mass_kg * v * v + f * f / (2.0 * p_.stiffness_npm);
  }
  return energy;
}

}  // namespace hdae::models
