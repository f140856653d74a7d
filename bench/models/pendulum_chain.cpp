#include "models/pendulum_chain.hpp"

namespace hdae::bench {

PendulumChain::PendulumChain(std::size_t links) : PhysicsModelOf("pendulum_chain") {
  const auto [x, y, vx, vy, F] =
      declare_variable_families(links, {{.name = "x", .nominal = kLength},
                                        {.name = "y", .nominal = kLength},
                                        {.name = "vx"},
                                        {.name = "vy"},
                                        {.name = "F", .nominal = 10.0}});
  for (std::size_t k = 0; k < links; ++k) set_start(x[k], kLength * static_cast<double>(k + 1));
  const auto [kx, ky, mx, my, rods] = declare_equation_families(
      links, {{"der(x[{i}]) = vx[{i}]"},
              {"der(y[{i}]) = vy[{i}]"},
              {"m der(vx[{i}]) = -F[{i}] dx[{i}]/L + F[{i+1}] dx[{i+1}]/L"},
              {"m der(vy[{i}]) = -F[{i}] dy[{i}]/L + F[{i+1}] dy[{i+1}]/L - m g"},
              {"0 = dx[{i}]^2 + dy[{i}]^2 - L^2"}});
  x_ = x;
  y_ = y;
  vx_ = vx;
  vy_ = vy;
  F_ = F;
  kinematics_x_ = kx;
  kinematics_y_ = ky;
  momentum_x_ = mx;
  momentum_y_ = my;
  rods_ = rods;
}

}  // namespace hdae::bench
