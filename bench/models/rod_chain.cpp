#include "models/rod_chain.hpp"

#include <string>

namespace hdae::bench {

RodChain::RodChain(std::size_t masses) : PhysicsModelOf("rod_chain") {
  for (std::size_t k = 0; k < masses; ++k) {
    const std::string i = std::to_string(k + 1);
    x_.push_back(declare_variable({.name = "x" + i, .start = kLength * static_cast<double>(k)}));
    v_.push_back(declare_variable({.name = "v" + i}));
  }
  for (std::size_t k = 0; k + 1 < masses; ++k) {
    F_.push_back(declare_variable({.name = "F" + std::to_string(k + 1)}));
  }
  for (std::size_t k = 0; k < masses; ++k) {
    const std::string i = std::to_string(k + 1);
    kinematics_.push_back(declare_equation("der(x" + i + ") = v" + i));
    declare_dependency(kinematics_[k], x_[k]);
    declare_dependency(kinematics_[k], v_[k]);
    std::string force = k == 0 ? "-c x1" : "-F" + std::to_string(k);
    if (k + 1 < masses) force += " + F" + i;
    momentum_.push_back(declare_equation("m der(v" + i + ") = " + force));
    declare_dependency(momentum_[k], v_[k]);
    if (k == 0) declare_dependency(momentum_[k], x_[k]);
    if (k + 1 < masses) declare_dependency(momentum_[k], F_[k]);
    if (k > 0) declare_dependency(momentum_[k], F_[k - 1]);
  }
  for (std::size_t k = 0; k + 1 < masses; ++k) {
    rods_.push_back(declare_equation("0 = x" + std::to_string(k + 2) + " - x" +
                                     std::to_string(k + 1) + " - L"));
    declare_dependency(rods_[k], x_[k]);
    declare_dependency(rods_[k], x_[k + 1]);
  }
}

}  // namespace hdae::bench
