// What the sensitivity tests share: the options of a tight run and reading a column at a time.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

#include "hdae/simulator.hpp"

namespace hdae::test {

/// The tightest tolerance of a sensitivity run (kMinSensitivityRelTol in the engine).
inline constexpr double kSensitivityRelTol = 1e-9;

/// A run to stop_s with rows every interval_s, at rel_tol, without log output.
inline SimulationOptions tight(double stop_s, double interval_s,
                               double rel_tol = kSensitivityRelTol) {
  SimulationOptions o;
  o.stop_s = stop_s;
  o.output_interval_s = interval_s;
  o.rel_tol = rel_tol;
  o.log_level = LogLevel::kOff;
  return o;
}

/// The value of column `name` on the row at time t (a grid row; the last one at t: the right
/// limit at an event).
inline double at(const SimulationResult& r, const std::string& name, double t) {
  const ResultTable& table = r.table;
  const std::size_t c = table.column_index(name);
  for (std::size_t k = table.num_rows(); k-- > 0;) {
    if (std::abs(table.time(k) - t) <= 1e-12 * std::max(1.0, std::abs(t))) {
      return table.value(k, c);
    }
  }
  FAIL("no row at t = " << t);
  return 0.0;
}

}  // namespace hdae::test
