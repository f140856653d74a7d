// hdae-bench-events: event throughput (docs/benchmarks.md, "Events"). An elastic bouncing
// ball (hdae::models::BouncingBall with e = 1 and no rest rule: constant spacing of the
// impacts, so the chattering detector stays quiet) run through hdae's full event machinery
// and through a hand-written raw-IDA loop doing the same root finding (the same root
// function with the same restart offset and direction) and restarts (IDAReInit from the
// post-impact state). IDA's counters must agree; the CPU times are interleaved.
//
// Usage: hdae-bench-events [--smoke] [--impacts 10000,100000] [--rounds R]
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cases/comparison_cases.hpp"
#include "support/arguments.hpp"
#include "support/markdown.hpp"
#include "support/timing.hpp"

namespace hdae::bench {
namespace {

int run(const Arguments& args) {
  const bool smoke = args.has("--smoke");
  const std::vector<std::size_t> impacts_list = args.sizes(
      "--impacts", smoke ? std::vector<std::size_t>{100} : std::vector<std::size_t>{10000, 100000});
  const auto rounds = static_cast<std::size_t>(args.number("--rounds", smoke ? 1 : 5));

  MarkdownTable counters({"impacts", "set-up", "nst", "steps per event", "nre", "nje",
                          "root-function calls", "events hdae / raw", "counters identical",
                          "final state rel. diff."});
  MarkdownTable times({"impacts", "hdae events/s", "raw IDA events/s", "hdae CPU per event",
                       "raw CPU per event", "hdae / raw", "target <= 0.9"});
  bool all_identical = true;
  for (const std::size_t impacts : impacts_list) {
    const auto c = make_elastic_ball_case(impacts);
    const SimulationResult h = c->run_hdae();
    if (!h.status.ok()) throw std::runtime_error(h.status.message);
    std::vector<double> x0, der_x0, x_end, der_end;
    state_of_row(h, 0, x0, der_x0);
    state_of_row(h, h.table.num_rows() - 1, x_end, der_end);
    const raw::GridRunResult r = c->run_raw(x0, der_x0);
    const SolverCounts ch = SolverCounts::from(h.statistics);
    const SolverCounts cr = SolverCounts::from(r.counters);
    const auto events = h.statistics.state_events;
    const bool identical =
        ch == cr && static_cast<std::size_t>(events) == r.events && h.table.num_rows() == r.rows;
    all_identical = all_identical && identical;
    counters.add_row(
        {fmt::format("{}", impacts), c->description(),
         ch.steps == cr.steps ? fmt::format("{}", ch.steps)
                              : fmt::format("**{} / {}**", ch.steps, cr.steps),
         fmt::format("{:.1f}", static_cast<double>(ch.steps) / static_cast<double>(events)),
         fmt::format("{} / {}", ch.residuals, cr.residuals),
         fmt::format("{} / {}", ch.jacobians, cr.jacobians),
         fmt::format("{} / {}", ch.root_evaluations, cr.root_evaluations),
         fmt::format("{} / {}", events, r.events), identical ? "yes" : "**NO**",
         fmt::format("{:.1e}", max_relative_difference(x_end, r.y_end))});

    const InterleavedTimes t = interleave(
        rounds, [&c] { (void)c->run_hdae(); },
        [&c, &x0, &der_x0] { (void)c->run_raw(x0, der_x0); });
    const auto per_s = [events](double s) { return static_cast<double>(events) / s; };
    const double ratio = t.ratio_of_min_cpu();
    times.add_row({fmt::format("{}", impacts), fmt::format("{:.3g}", per_s(t.min_a_cpu_s())),
                   fmt::format("{:.3g}", per_s(t.min_b_cpu_s())),
                   format_seconds(t.min_a_cpu_s() / static_cast<double>(events)),
                   format_seconds(t.min_b_cpu_s() / static_cast<double>(events)),
                   format_ratio(ratio), ratio <= 0.9 ? "met" : "**not met**"});
    std::cerr << fmt::format("events: {} impacts done\n", impacts);
  }
  fmt::print("#### IDA counters, hdae / raw IDA\n\n{}\n", counters.str());
  fmt::print("#### Throughput (CPU time of the thread, the least of {} interleaved rounds)\n\n{}\n",
             rounds, times.str());
  return all_identical ? 0 : 3;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-events", argc, argv, hdae::bench::run);
}
