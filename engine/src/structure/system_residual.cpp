#include "structure/system_residual.hpp"

#include <algorithm>

namespace hdae::structure {

void SystemResidual::evaluate(double t, std::span<const double> x, std::span<const double> der_x,
                              std::span<double> r, std::span<double> raw) const {
  Evaluation e(t, x, der_x, r, {}, nullptr, EvaluationPhase::kContinuous);
  model_.evaluate(e);
  if (!raw.empty()) std::copy(r.begin(), r.end(), raw.begin());
  for (const RowCombination& c : corrections_) {
    double sum = 0.0;
    for (std::size_t k = 0; k < c.rows.size(); ++k) sum += c.coefficients[k] * r[c.rows[k]];
    r[c.replaced_row] = sum;
  }
}

std::vector<std::vector<std::size_t>> SystemResidual::raw_support() const {
  std::vector<std::vector<std::size_t>> support(size());
  for (std::size_t i = 0; i < support.size(); ++i) support[i] = {i};
  for (const RowCombination& c : corrections_) {
    std::vector<std::size_t> merged;
    for (const std::size_t i : c.rows) {
      merged.insert(merged.end(), support[i].begin(), support[i].end());
    }
    std::sort(merged.begin(), merged.end());
    merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
    support[c.replaced_row] = std::move(merged);
  }
  return support;
}

}  // namespace hdae::structure
