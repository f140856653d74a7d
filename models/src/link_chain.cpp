#include "hdae/models/link_chain.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>
#include <utility>

#include "parameter_fields.hpp"
#include "point_mass.hpp"

namespace hdae::models {

namespace {

using P = LinkChainParameters;
const std::array<detail::ParameterField<P>, 3> kFields = {{
    {{.name = "L", .unit = "m", .min = detail::kPositive, .description = "length of each rod"},
     [](P& p) -> double& { return p.length_m; }},
    {{.name = "m", .unit = "kg", .min = detail::kPositive, .description = "mass of each link"},
     [](P& p) -> double& { return p.mass_kg; }},
    {{.name = "g",
      .unit = "m/s2",
      .min = detail::kPositive,
      .description = "gravitational acceleration, along -y"},
     [](P& p) -> double& { return p.gravity_mps2; }},
}};

/// 2^53: up to here every integer is a double.
constexpr double kMaxLinks = 9007199254740992.0;

}  // namespace

LinkChain::LinkChain(LinkChainParameters p) : PhysicsModelOf("link_chain"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  links_ = declare_parameter({.name = "N",
                              .value = static_cast<double>(p_.links),
                              .min = 1.0,
                              .max = kMaxLinks,
                              .description = "number of links",
                              .integer = true});
  declare_chain();
}

void LinkChain::parameters_changed() {
  LinkChainParameters p = detail::read_fields<P>(kFields, structure(), p_);
  p.links = static_cast<std::size_t>(value(links_));  // an integer: ParameterInfo::integer
  const bool resized = p.links != p_.links;
  p_ = p;
  // A new size declares the chain anew; the other parameters move start values and nominals
  // only, which a sensitivity run may do while the model is in it.
  if (resized) {
    declare_chain();
  } else {
    set_starts();
  }
}

void LinkChain::declare_chain() {
  clear_declarations();
  const auto [x, y, vx, vy, F] =
      declare_variable_families(p_.links, {{.name = "x", .unit = "m", .der_unit = "m/s"},
                                           {.name = "y", .unit = "m", .der_unit = "m/s"},
                                           {.name = "vx", .unit = "m/s", .der_unit = "m/s2"},
                                           {.name = "vy", .unit = "m/s", .der_unit = "m/s2"},
                                           {.name = "F", .unit = "N", .der_unit = "N/s"}});
  x_ = x;
  y_ = y;
  vx_ = vx;
  vy_ = vy;
  F_ = F;
  const auto [kx, ky, mx, my, rod] = declare_equation_families(
      p_.links,
      {{"der(x[{i}]) = vx[{i}]"},
       {"der(y[{i}]) = vy[{i}]"},
       {"m*der(vx[{i}]) = -F[{i}]*(x[{i}] - x[{i-1}])/L + F[{i+1}]*(x[{i+1}] - x[{i}])/L"},
       {"m*der(vy[{i}]) = -F[{i}]*(y[{i}] - y[{i-1}])/L + F[{i+1}]*(y[{i+1}] - y[{i}])/L - m*g"},
       {"0 = (x[{i}] - x[{i-1}])^2 + (y[{i}] - y[{i-1}])^2 - L^2", RowKind::kConstraint}});
  kinematics_x_ = kx;
  kinematics_y_ = ky;
  momentum_x_ = mx;
  momentum_y_ = my;
  rod_ = rod;
  declare_pattern();
  energy_ = declare_output("energy", "J");
  rod_drift_ = declare_output("rod_drift");  // a ratio: no unit
  set_starts();
}

// Every unknown a row of the header reads, through x or der(x); the engine takes undeclared
// entries as zero, so a missing one would hide a dependency from the structure analysis.
void LinkChain::declare_pattern() {
  declare_dependency(kinematics_x_, x_);  // der(x_i)
  declare_dependency(kinematics_x_, vx_);
  declare_dependency(kinematics_y_, y_);
  declare_dependency(kinematics_y_, vy_);
  for (const auto& [row, position, velocity] :
       {std::tuple{momentum_x_, x_, vx_}, std::tuple{momentum_y_, y_, vy_}}) {
    declare_dependency(row, velocity);  // der(v_i)
    declare_dependency(row, F_);
    declare_dependency(row, F_, +1);
    declare_dependency(row, position, -1);
    declare_dependency(row, position);
    declare_dependency(row, position, +1);
  }
  declare_dependency(rod_, x_);
  declare_dependency(rod_, x_, -1);
  declare_dependency(rod_, y_);
  declare_dependency(rod_, y_, -1);
}

void LinkChain::set_starts() {
  const double n = static_cast<double>(p_.links);
  const double L = p_.length_m;
  for (std::size_t i = 0; i < p_.links; ++i) {
    set_start(x_[i], L * static_cast<double>(i + 1));
    set_start(y_[i], 0.0);
    set_start(vx_[i], 0.0);
    set_start(vy_[i], 0.0);
    set_start(F_[i], 0.0);  // the consistent force at rest on the horizontal (header)
  }
  // Sizes the motion reaches: the chain's reach, the speed of a fall through it, and the
  // weight a rod carries (rod i holds up the N - i + 1 links beyond it), averaged over the rods.
  set_nominal(x_, n * L);
  set_nominal(y_, n * L);
  const double speed = std::sqrt(2.0 * p_.gravity_mps2 * n * L);
  set_nominal(vx_, speed);
  set_nominal(vy_, speed);
  set_nominal(F_, p_.mass_kg * p_.gravity_mps2 * (n + 1.0) / 2.0);
}

void LinkChain::outputs(Evaluation& e) const {
  const double L = p_.length_m;
  double energy = 0.0;
  double drift = 0.0;
  double x_before = 0.0;  // the pivot
  double y_before = 0.0;
  for (std::size_t i = 0; i < p_.links; ++i) {
    const double x = e.x(x_[i]);
    const double y = e.x(y_[i]);
    energy += detail::mechanical_energy(p_.mass_kg, p_.gravity_mps2, y, e.x(vx_[i]), e.x(vy_[i]));
    const double dx = x - x_before;
    const double dy = y - y_before;
    drift = std::max(drift, std::abs(dx * dx + dy * dy - L * L) / (L * L));
    x_before = x;
    y_before = y;
  }
  e.set(energy_, energy);
  e.set(rod_drift_, drift);
}

std::unique_ptr<IndexReducedModel> make_link_chain(LinkChainParameters p) {
  return std::make_unique<IndexReducedModel>(std::make_unique<LinkChain>(p));
}

}  // namespace hdae::models
