// The output loop of the raw-IDA baseline: IDASolve in IDA_NORMAL mode to each point of the
// output grid t0 + k dt with the stop time as IDASetStopTime, a stored row (t, y, yp, w) at
// each point (w: the same auxiliary outputs the hdae model computes for its rows), and, on a root,
// a hand-written event step (the caller's on_root changes y and yp; the loop stores both limits and
// calls IDAReInit). This is the loop of engine/src/simulator/run_loop.cpp and run_events.cpp with
// everything but IDA and the rows taken out.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "raw/raw_ida.hpp"

namespace hdae::bench::raw {

struct GridRunSpec {
  double start_s = 0.0;
  double stop_s = 1.0;
  double output_interval_s = 0.002;
  /// Called at a root with t, y and yp (n values each) to apply the event; may be empty when
  /// the setup has no root functions.
  std::function<void(double t, double* y, double* yp)> on_root;
  /// Auxiliary outputs of a row, w = outputs(y, problem); none when null.
  void (*outputs)(const double* y, double* w, const void* problem) = nullptr;
  std::size_t num_outputs = 0;
  const void* problem = nullptr;
  /// false: a row holds t and w only (for runs whose memory is measured, not their table).
  bool store_states = true;
};

struct GridRunResult {
  RawCounters counters;
  std::size_t rows = 0;
  std::size_t events = 0;
  std::vector<double> table;  ///< rows of (t, y, yp, w)
  std::vector<double> y_end;
  double solve_s = 0.0;      ///< wall time from IDAInit's return to the end of the loop
  double solve_cpu_s = 0.0;  ///< CPU time of this process over the same stretch
};

/// Runs from (y0, yp0) at spec.start_s; throws std::runtime_error when IDA fails.
[[nodiscard]] GridRunResult run_grid(const RawSetup& setup, const GridRunSpec& spec,
                                     const std::vector<double>& y0, const std::vector<double>& yp0);

}  // namespace hdae::bench::raw
