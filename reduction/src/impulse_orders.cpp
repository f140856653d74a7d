#include "impulse_orders.hpp"

#include <algorithm>

namespace hdae::reduction {

std::vector<int> row_orders(const SignatureMatrix& sigma, std::span<const int> b) {
  std::vector<int> order(sigma.n, kNotReached);
  for (const SignatureEntry& e : sigma.entries) {
    if (b[e.col] == kNotReached) continue;
    order[e.row] = std::max(order[e.row], b[e.col] + e.sigma);
  }
  return order;
}

std::vector<int> impulse_orders(const SignatureMatrix& sigma,
                                std::span<const std::size_t> transversal,
                                std::span<const std::size_t> sources, std::span<const int> cap) {
  std::vector<int> b(sigma.n, kNotReached);
  for (const std::size_t s : sources) b[s] = 0;
  // Each sweep raises some b_j by at least 1 or ends; the cap bounds them.
  for (bool changed = true; changed;) {
    changed = false;
    const std::vector<int> order = row_orders(sigma, b);
    for (std::size_t i = 0; i < sigma.n; ++i) {
      if (order[i] == kNotReached || transversal[i] >= sigma.n) continue;
      const std::size_t j = transversal[i];
      const int wanted = order[i] - sigma.sigma(i, j);
      if (b[j] != kNotReached && wanted <= b[j]) continue;
      b[j] = wanted;
      if (b[j] > cap[j]) return b;
      changed = true;
    }
  }
  return b;
}

}  // namespace hdae::reduction
