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

#include "cases/comparison_cases.hpp"
#include "hdae/simulator.hpp"
#include "models/clamped_chain.hpp"
#include "raw/raw_ida.hpp"
#include "raw/raw_problems.hpp"
#include "support/arguments.hpp"
#include "support/markdown.hpp"

namespace hdae::bench {
namespace {

constexpr double kStopS = 2.0;

SimulationOptions pulsed_options(RestartStep restart) {
  SimulationOptions options;
  options.stop_s = kStopS;
  options.rel_tol = 1e-8;
  options.output_interval_s = 0.1;
  options.linear_solver = LinearSolverKind::kKlu;
  options.restart_step = restart;
  return options;
}

ClampedChain pulsed_chain(std::size_t masses, double period_s, double push_n) {
  // Clamp and release lie beyond the stop time: only the pulses happen.
  return ClampedChain({.masses = masses,
                       .clamp_s = 2 * kStopS,
                       .release_s = 3 * kStopS,
                       .pulse_period_s = period_s,
                       .push_n = push_n});
}

Statistics run_pulsed(std::size_t masses, double period_s, double push_n, RestartStep restart) {
  ClampedChain model = pulsed_chain(masses, period_s, push_n);
  const SimulationResult r = simulate(model, pulsed_options(restart));
  if (!r.status.ok()) throw std::runtime_error("pulsed chain: " + r.status.message);
  return r.statistics;
}

/// What run_raw_pulsed counted.
struct RawRun {
  raw::RawCounters counters;
  long switches = 0;    ///< IDAReInit calls after the start
  long late_steps = 0;  ///< steps in the last third of the intervals between events
};

/// hdae's first row of the chain (after its consistent initialization) and its absolute
/// tolerances, for the raw program to start from.
ChainStart raw_start(std::size_t masses, const SimulationOptions& options) {
  ClampedChain model = pulsed_chain(masses, 0.0, 0.0);
  SimulationOptions first = options;
  first.stop_s = 1e-6;
  first.output_interval_s = first.stop_s;
  first.record_kinds = {ColumnKind::kState, ColumnKind::kDerivative};
  const SimulationResult r = simulate(model, first);
  if (!r.status.ok()) throw std::runtime_error("raw pulsed chain start: " + r.status.message);
  ChainStart start;
  state_of_row(r, 0, start.x0, start.der_x0);
  start.abs_tol = absolute_tolerances(options, model.structure());
  return start;
}

/// The pulsed chain written against IDA directly (bench/raw/): the same start, tolerances,
/// output points and event instants, the push switched by hand and IDA restarted with
/// IDAReInit and its own first step, as a hand-written program does. With push_n = 0 the
/// instants only end IDA's steps (it goes on through them).
RawRun run_raw_pulsed(std::size_t masses, double period_s, double push_n) {
  const SimulationOptions options = pulsed_options(RestartStep::kIdaEstimate);
  const ChainStart start = raw_start(masses, options);
  raw::RawChain problem{.masses = masses};
  raw::ColoredJacobian jacobian(problem.pattern());
  problem.jacobian = &jacobian;
  raw::RawSetup setup;
  setup.n = static_cast<sunindextype>(3 * masses);
  setup.rel_tol = options.rel_tol;
  setup.abs_tol = start.abs_tol;
  setup.id.assign(3 * masses, 1.0);
  for (std::size_t i = 0; i < masses; ++i) setup.id[3 * i + 2] = 0.0;  // the spring forces
  setup.suppress_algebraic = options.suppress_algebraic;
  setup.max_steps = options.max_steps_per_interval;
  setup.residual = &raw::RawChain::residual;
  setup.user_data = &problem;
  setup.colored = &jacobian;
  setup.jacobian_fn = &raw::colored_jacobian_fn<raw::RawChain>;
  raw::RawIda ida(setup);
  RawRun run;
  ida.init(options.start_s, start.x0.data(), start.der_x0.data());
  const double output_s = options.output_interval_s.value_or(0.1);
  double next_event = period_s > 0.0 ? options.start_s + period_s : 2 * kStopS;
  // The last third of each interval between events, when IDA has long climbed back.
  double late_start = next_event - period_s / 3.0;
  long steps_at_late_start = -1;
  std::size_t next_output = 1;
  const std::size_t last_v = 3 * (masses - 1) + 1;
  for (;;) {
    const double t_grid = std::min(static_cast<double>(next_output) * output_s, options.stop_s);
    const bool to_late_start = steps_at_late_start < 0 && late_start < t_grid;
    const double t_out = to_late_start ? late_start : t_grid;
    const double t_stop = std::min(next_event, options.stop_s);
    const int flag = ida.solve(t_out, t_stop);
    if (flag < 0) throw std::runtime_error(fmt::format("raw pulsed chain: IDA flag {}", flag));
    if (flag != IDA_TSTOP_RETURN) {
      if (to_late_start) {
        steps_at_late_start = ida.counters().steps;
      } else {
        ++next_output;
      }
      continue;
    }
    // IDA returns exactly at t_stop; an output point within round-off of it is that row.
    if (t_grid - t_stop < 1e-12) ++next_output;
    if (t_stop >= options.stop_s) break;
    if (steps_at_late_start >= 0) run.late_steps += ida.counters().steps - steps_at_late_start;
    if (push_n > 0.0) {
      // The push switches: der(v) of the last mass jumps by the push over the mass, nothing else.
      const double sign = problem.push_n == 0.0 ? 1.0 : -1.0;
      problem.push_n = problem.push_n == 0.0 ? push_n : 0.0;
      ida.yp()[last_v] += sign * push_n / problem.mass_kg;
      ida.reinit(ida.t(), ida.y(), ida.yp());
      ++run.switches;
    }
    next_event = ida.t() + period_s;
    late_start = next_event - period_s / 3.0;
    steps_at_late_start = -1;
  }
  run.counters = ida.counters();
  return run;
}

/// One row of the table: a kind of event under a restart policy.
struct Case {
  const char* kind;
  const char* restart;
  bool push;
  RestartStep restart_step;
};

std::string per_event(long with, long without, long events) {
  return fmt::format("{:.1f}", static_cast<double>(with - without) / static_cast<double>(events));
}

/// The raw program's row, and its steps over the last third of each interval between events
/// with and without the push (the second table).
void add_raw_rows(MarkdownTable& table, MarkdownTable& late, std::size_t masses, double period_s,
                  double push_n) {
  const RawRun plain = run_raw_pulsed(masses, 0.0, 0.0);
  const RawRun quiet = run_raw_pulsed(masses, period_s, 0.0);
  const RawRun pushed = run_raw_pulsed(masses, period_s, push_n);
  // hdae counts the event at the stop time too, and the start among its restarts.
  const long events = pushed.switches + 1;
  table.add_row(
      {fmt::format("{}", masses), fmt::format("{}", 3 * masses), fmt::format("{}", events),
       "force switched (der_x jumps)", "raw IDA, IDAReInit at the same instants",
       fmt::format("{}", events), fmt::format("{}", plain.counters.steps),
       per_event(pushed.counters.steps, plain.counters.steps, events),
       per_event(pushed.counters.jacobian_evaluations, plain.counters.jacobian_evaluations, events),
       "-"});
  late.add_row({fmt::format("{}", masses), fmt::format("{}", events),
                fmt::format("{}", quiet.late_steps), fmt::format("{}", pushed.late_steps)});
}

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
      {"force switched (der_x jumps)", "kKeepOrder", true, RestartStep::kKeepOrder},
  };
  MarkdownTable table({"masses", "unknowns", "events", "kind of event", "restart_step", "restarts",
                       "steps without events", "extra steps per event", "extra Jacobians per event",
                       "target <= 8"});
  MarkdownTable late({"masses", "events", "steps, events change nothing", "steps, force switched"});
  for (const std::size_t masses : sizes) {
    const Statistics plain = run_pulsed(masses, 0.0, 0.0, RestartStep::kIdaEstimate);
    // The push equals the spring force at the start, k s0 / N: as large as the chain's own.
    const double push_n = 100.0 / static_cast<double>(masses);
    for (const Case& c : cases) {
      const Statistics s = run_pulsed(masses, period_s, c.push ? push_n : 0.0, c.restart_step);
      const double steps =
          static_cast<double>(s.steps - plain.steps) / static_cast<double>(s.time_events);
      table.add_row({fmt::format("{}", masses), fmt::format("{}", 3 * masses),
                     fmt::format("{}", s.time_events), c.kind, c.restart,
                     fmt::format("{}", s.restarts), fmt::format("{}", plain.steps),
                     per_event(s.steps, plain.steps, s.time_events),
                     per_event(s.jacobian_evaluations, plain.jacobian_evaluations, s.time_events),
                     steps <= 8.0 ? "met" : "**not met**"});
    }
    add_raw_rows(table, late, masses, period_s, push_n);
    std::cerr << fmt::format("restart: {} masses done\n", masses);
  }
  fmt::print("#### Extra steps and Jacobians per event (pulsed chain, KLU, rel_tol 1e-8)\n\n{}\n",
             table.str());
  fmt::print(
      "#### Raw IDA's steps over the last third of each interval between events, once it has "
      "climbed back\n\n{}\n",
      late.str());
  return 0;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-restart", argc, argv, hdae::bench::run);
}
