// hdae-bench-jump: cost of one jump solve with many constraints switching at once on the
// sparse path (docs/benchmarks.md, "Jump solve"). bench/models/clamped_chain.hpp clamps every
// mass of a chain at t = 0.5 s (N dynamics rows become f_c rows v_i = 0, every v_i jumps to
// zero) and releases them at 0.75 s. The model itself counts the residual calls and the time
// from the clamp's event call to the first IDA step after the restart; that span holds the
// second event-iteration pass, the jump solve (Newton with coloured difference Jacobians and
// KLU), the consistent derivatives, the right-limit row and the algebraic-variable probe.
//
// Usage: hdae-bench-jump [--smoke] [--masses 100,1000,...]
#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include <fmt/format.h>

#include "hdae/simulator.hpp"
#include "models/clamped_chain.hpp"
#include "support/arguments.hpp"
#include "support/child_process.hpp"
#include "support/markdown.hpp"
#include "support/timing.hpp"

namespace hdae::bench {
namespace {

struct JumpFigures {
  ClampEventCost cost;
  double wall_s = 0.0;
  long steps = 0;
  long jump_solves = 0;
  long jump_newton_iterations = 0;
  long colors = 0;
  double max_speed_after = 0.0;
  bool ok = false;
};

JumpFigures run_clamped(std::size_t masses) {
  ClampedChain model({.masses = masses});
  SimulationOptions options;
  options.stop_s = 1.0;
  options.output_interval_s = 0.01;
  options.linear_solver = LinearSolverKind::kKlu;
  const Clock::time_point start = Clock::now();
  const SimulationResult r = simulate(model, options);
  JumpFigures f;
  f.wall_s = seconds_between(start, Clock::now());
  f.ok = r.status.ok();
  f.cost = model.clamp_cost();
  f.steps = r.statistics.steps;
  f.jump_solves = r.statistics.jump_solves;
  f.jump_newton_iterations = r.statistics.jump_newton_iterations;
  f.colors = r.statistics.jacobian_colors;
  // The right limit at the clamp is the second of the two rows at t = 0.5 s.
  const std::vector<double>& t = r.table.time();
  for (std::size_t row = 1; row < t.size(); ++row) {
    if (t[row] == t[row - 1] && std::abs(t[row] - 0.5) < 1e-9) {
      const std::span<const double> values = r.table.row(row);
      for (std::size_t i = 0; i < masses; ++i) {
        f.max_speed_after = std::max(f.max_speed_after, std::abs(values[3 * i + 1]));
      }
      break;
    }
  }
  return f;
}

int run(const Arguments& args) {
  const bool smoke = args.has("--smoke");
  const std::vector<std::size_t> sizes =
      args.sizes("--masses", smoke ? std::vector<std::size_t>{100}
                                   : std::vector<std::size_t>{100, 1000, 10000, 33334});
  MarkdownTable table({"masses", "unknowns", "constraints switching", "residual calls in the event",
                       "event handling time", "IDA time per step (whole run)", "event / step",
                       "jump solves / Newton iterations (whole run)", "max abs(v) before -> after",
                       "peak RSS"});
  for (const std::size_t masses : sizes) {
    (void)run_in_child([] {
      (void)run_clamped(70);  // see scaling_main.cpp: not timed, resolves symbols
      return std::vector<char>{};
    });
    const ChildResult<JumpFigures> c = measure_in_child<JumpFigures>([masses] {
      (void)run_clamped(70);
      return run_clamped(masses);
    });
    const JumpFigures& f = c.value;
    if (!f.ok) throw std::runtime_error("the clamped chain run failed");
    const double step_s = f.wall_s / static_cast<double>(f.steps);
    table.add_row({fmt::format("{}", masses), fmt::format("{}", 3 * masses),
                   fmt::format("{}", masses), fmt::format("{}", f.cost.residual_evaluations),
                   format_seconds(f.cost.seconds), format_seconds(step_s),
                   format_ratio(f.cost.seconds / step_s),
                   fmt::format("{} / {}", f.jump_solves, f.jump_newton_iterations),
                   fmt::format("{:.2g} -> {:.1g}", f.cost.max_speed_before, f.max_speed_after),
                   format_kib(c.max_rss_kib)});
    std::cerr << fmt::format("jump: {} masses done\n", masses);
  }
  fmt::print(
      "#### Clamping every mass of a chain at once (KLU; colours of the FD Jacobian: 4)\n\n{}\n",
      table.str());
  return 0;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-jump", argc, argv, hdae::bench::run);
}
