#include "simulator/output_grid.hpp"

#include <algorithm>

#include "events/same_time.hpp"

namespace hdae::detail {

OutputGrid::OutputGrid(const SimulationOptions& options)
    : start_s_(options.start_s),
      stop_s_(options.stop_s),
      interval_s_(options.resolved_output_interval_s()),
      listed_(options.output_times) {}

double OutputGrid::time(std::size_t k) const {
  if (!listed_.empty()) return k - 1 < listed_.size() ? listed_[k - 1] : stop_s_;
  return std::min(start_s_ + static_cast<double>(k) * interval_s_, stop_s_);
}

void OutputGrid::skip_through(double t) {
  while (next_time() < stop_s_ && (next_time() <= t || same_time(next_time(), t))) ++next_;
}

}  // namespace hdae::detail
