// The tube's span and half-height (tube.hpp).
#include "tube.hpp"

namespace hdae::compare {

double scaled_span(double factor, double lo, double hi) {
  const double span = hi - lo;
  if (std::isfinite(span)) return factor * span;
  return 2.0 * (factor * (hi / 2 - lo / 2));
}

double tube_height(std::string_view name, std::span<const double> reference,
                   const CompareOptions& options) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double rel = options.rel_value;
  double abs = options.abs_floor;
  if (const auto it = options.signal_tolerances.find(name); it != options.signal_tolerances.end()) {
    rel = it->second.rel.value_or(rel);
    abs = it->second.abs.value_or(abs);
  }
  double lo = kInf;
  double hi = -kInf;
  for (const double v : reference) {
    if (!std::isfinite(v)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  return hi >= lo ? std::max(scaled_span(rel, lo, hi), abs) : abs;
}

}  // namespace hdae::compare
