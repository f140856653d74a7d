// hdae-bench-restart: what an event costs the integration after it (docs/benchmarks.md,
// "Restarts after events"). The chain of bench/models/clamped_chain.hpp, never clamped here,
// runs over the same interval (KLU) without events, with time events that change nothing
// (IDA goes on through them without a restart) and with events that switch a force on the
// free end (der_x jumps, IDA restarts), the latter under each SimulationOptions::restart_step.
// The extra IDA steps and Jacobians per event are the differences to the run without events,
// divided by the number of events.
//
// Usage: hdae-bench-restart [--smoke] [--masses 3334,33334] [--events 20]
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hdae/simulator.hpp"
#include "models/clamped_chain.hpp"
#include "support/arguments.hpp"
#include "support/markdown.hpp"

namespace hdae::bench {
namespace {

constexpr double kStopS = 2.0;

Statistics run_pulsed(std::size_t masses, double period_s, double push_n, RestartStep restart) {
  // Clamp and release lie beyond the stop time: only the pulses happen.
  ClampedChain model({.masses = masses,
                      .clamp_s = 2 * kStopS,
                      .release_s = 3 * kStopS,
                      .pulse_period_s = period_s,
                      .push_n = push_n});
  SimulationOptions options;
  options.stop_s = kStopS;
  options.rel_tol = 1e-8;
  options.output_interval_s = 0.1;
  options.linear_solver = LinearSolverKind::kKlu;
  options.restart_step = restart;
  const SimulationResult r = simulate(model, options);
  if (!r.status.ok()) throw std::runtime_error("pulsed chain: " + r.status.message);
  return r.statistics;
}

/// One row of the table: a kind of event under a restart policy.
struct Case {
  const char* kind;
  const char* restart;
  bool push;
  RestartStep restart_step;
};

int run(const Arguments& args) {
  const bool smoke = args.has("--smoke");
  const std::vector<std::size_t> sizes = args.sizes(
      "--masses", smoke ? std::vector<std::size_t>{100} : std::vector<std::size_t>{3334, 33334});
  const double events = args.number("--events", 20);
  const double period_s = kStopS / (events + 1.0);
  const std::vector<Case> cases = {
      {"nothing changes", "none (IDA goes on)", false, RestartStep::kIdaEstimate},
      {"force switched (der_x jumps)", "kIdaEstimate (default)", true, RestartStep::kIdaEstimate},
      {"force switched (der_x jumps)", "kFromHistory", true, RestartStep::kFromHistory},
  };
  MarkdownTable table({"masses", "unknowns", "events", "kind of event", "restart_step", "restarts",
                       "steps without events", "extra steps per event", "extra Jacobians per event",
                       "target <= 8"});
  for (const std::size_t masses : sizes) {
    const Statistics plain = run_pulsed(masses, 0.0, 0.0, RestartStep::kIdaEstimate);
    // The push equals the spring force at the start, k s0 / N: as large as the chain's own.
    const double push_n = 100.0 / static_cast<double>(masses);
    for (const Case& c : cases) {
      const Statistics s = run_pulsed(masses, period_s, c.push ? push_n : 0.0, c.restart_step);
      const auto per_event = [&s](std::int64_t with, std::int64_t without) {
        return static_cast<double>(with - without) / static_cast<double>(s.time_events);
      };
      const double steps = per_event(s.steps, plain.steps);
      table.add_row(
          {fmt::format("{}", masses), fmt::format("{}", 3 * masses),
           fmt::format("{}", s.time_events), c.kind, c.restart, fmt::format("{}", s.restarts),
           fmt::format("{}", plain.steps), fmt::format("{:.1f}", steps),
           fmt::format("{:.1f}", per_event(s.jacobian_evaluations, plain.jacobian_evaluations)),
           steps <= 8.0 ? "met" : "**not met**"});
    }
    std::cerr << fmt::format("restart: {} masses done\n", masses);
  }
  fmt::print("#### Extra steps and Jacobians per event (pulsed chain, KLU, rel_tol 1e-8)\n\n{}\n",
             table.str());
  return 0;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-restart", argc, argv, hdae::bench::run);
}
