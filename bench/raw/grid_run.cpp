#include "raw/grid_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "support/timing.hpp"

namespace hdae::bench::raw {
namespace {

/// The same time comparison as the engine (IDA places t_out and t_stop to within round-off).
bool same_time(double a, double b) {
  const double tol =
      1000.0 * std::numeric_limits<double>::epsilon() * std::max({std::abs(a), std::abs(b), 1.0});
  return std::abs(a - b) <= tol;
}

}  // namespace

GridRunResult run_grid(const RawSetup& setup, const GridRunSpec& spec,
                       const std::vector<double>& y0, const std::vector<double>& yp0) {
  const auto n = static_cast<std::size_t>(setup.n);
  GridRunResult out;
  std::vector<double> w(spec.num_outputs);
  auto store = [&](double t, const double* y, const double* yp) {
    out.table.push_back(t);
    if (spec.store_states) {
      out.table.insert(out.table.end(), y, y + n);
      out.table.insert(out.table.end(), yp, yp + n);
    }
    if (spec.outputs != nullptr) {
      spec.outputs(y, w.data(), spec.problem);
      out.table.insert(out.table.end(), w.begin(), w.end());
    }
    ++out.rows;
  };
  RawIda ida(setup);
  ida.init(spec.start_s, y0.data(), yp0.data());
  const auto solve_start = std::chrono::steady_clock::now();
  const double solve_cpu_start = cpu_seconds();
  store(spec.start_s, y0.data(), yp0.data());

  const double t0 = spec.start_s;
  const double stop = spec.stop_s;
  const double dt = spec.output_interval_s;
  auto output_time = [&](std::size_t i) {
    return std::min(t0 + static_cast<double>(i) * dt, stop);
  };
  std::size_t k = 1;
  for (;;) {
    const double t_out = output_time(k);
    const int flag = ida.solve(t_out, stop);
    if (flag < 0) {
      throw std::runtime_error("IDASolve failed with flag " + std::to_string(flag) +
                               " at t = " + std::to_string(ida.t()));
    }
    const double t = ida.t();
    const bool at_output = same_time(t, t_out);
    const bool at_stop = same_time(t, stop);
    store(t, ida.y(), ida.yp());
    if (at_output) ++k;
    while (output_time(k) < stop && (output_time(k) <= t || same_time(output_time(k), t))) ++k;
    if (flag == IDA_ROOT_RETURN) {
      spec.on_root(t, ida.y(), ida.yp());
      ++out.events;
      store(t, ida.y(), ida.yp());
      if (!at_stop) ida.reinit(t, ida.y(), ida.yp());
    }
    if (at_stop) break;
  }
  out.solve_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - solve_start).count();
  out.solve_cpu_s = cpu_seconds() - solve_cpu_start;
  out.counters = ida.counters();
  out.y_end.assign(ida.y(), ida.y() + n);
  return out;
}

}  // namespace hdae::bench::raw
