// When two times are the same instant for the event machinery.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace hdae::detail {

/// Whether two times are the same instant: IDA places t_out and t_stop to within its time
/// round-off, 100 u max(|t|, |h|), and 1000 u max(|a|, |b|, 1) covers that.
[[nodiscard]] inline bool same_time(double a, double b) {
  const double scale = std::max(std::max(std::abs(a), std::abs(b)), 1.0);
  return std::abs(a - b) <= 1000.0 * std::numeric_limits<double>::epsilon() * scale;
}

}  // namespace hdae::detail
