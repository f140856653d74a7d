#include "models/rod_chain.hpp"

namespace hdae::bench {

RodChain::RodChain(std::size_t masses) : PhysicsModelOf("rod_chain") {
  const std::size_t n = masses;
  const auto [x, v] = declare_variable_families(n, {{.name = "x"}, {.name = "v"}});
  for (std::size_t k = 0; k < n; ++k) set_start(x[k], kLength * static_cast<double>(k));
  const Vars F = declare_variables(n - 1, {.name = "F"});
  const auto [kinematics, momentum] = declare_equation_families(
      n, {{"der(x[{i}]) = v[{i}]"}, {"m der(v[{i}]) = F[{i}] - F[{i-1}]"}});
  const Eqs rods = declare_equations(n - 1, "0 = x[{i+1}] - x[{i}] - L");
  declare_dependency(kinematics, x);
  declare_dependency(kinematics, v);
  declare_dependency(momentum, v);
  declare_dependency(momentum[0], x[0]);  // F_0 = c x_1
  declare_dependency(momentum, F);
  declare_dependency(momentum, F, -1);
  declare_dependency(rods, x);
  declare_dependency(rods, x, +1);
  x_ = x;
  v_ = v;
  F_ = F;
  kinematics_ = kinematics;
  momentum_ = momentum;
  rods_ = rods;
}

}  // namespace hdae::bench
