// Hand-made signature matrices for the tests of Pryce's Sigma-method.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "hdae/structure.hpp"

namespace hdae::test {

/// The n x n signature matrix of the given entries, sorted as sigma_method expects.
inline SignatureMatrix matrix(std::size_t n, std::vector<SignatureEntry> entries) {
  SignatureMatrix s{n, std::move(entries)};
  s.normalize();
  return s;
}

}  // namespace hdae::test
