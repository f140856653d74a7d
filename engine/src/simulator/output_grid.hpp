// The output points of a run (SimulationOptions::output_interval_s or output_times) and how
// far the run has come through them: point k >= 1 is t0 + k dt (computed, not accumulated, so
// without drift; the last is stop_s), or with a list its entry k - 1 and stop_s after the list.
// It also counts IDA's steps since the last row, which max_steps_per_interval bounds.
#pragma once

#include <cstddef>
#include <span>

#include "hdae/options.hpp"

namespace hdae::detail {

class OutputGrid {
 public:
  /// options must be valid (SimulationOptions::validate) and outlive the grid.
  explicit OutputGrid(const SimulationOptions& options);

  /// Time of output point k >= 1.
  [[nodiscard]] double time(std::size_t k) const;
  /// Index and time of the next output point the run has not stored.
  [[nodiscard]] std::size_t next_index() const { return next_; }
  [[nodiscard]] double next_time() const { return time(next_); }
  /// The next point's row was stored (or held back): the one after it is next.
  void stored_next() {
    ++next_;
    steps_since_row_ = 0;
  }
  /// Points before the stop time at t or within round-off of it need no row of their own: an
  /// instant row at t (t0, an event, where the run ends) stands for them.
  void skip_through(double t);

  /// IDA took a step; a row was stored (any kind: grid or instant).
  void count_step() { ++steps_since_row_; }
  void row_stored() { steps_since_row_ = 0; }
  [[nodiscard]] long steps_since_row() const { return steps_since_row_; }

 private:
  double start_s_;
  double stop_s_;
  double interval_s_;
  std::span<const double> listed_;  ///< SimulationOptions::output_times
  std::size_t next_ = 1;
  long steps_since_row_ = 0;
};

}  // namespace hdae::detail
