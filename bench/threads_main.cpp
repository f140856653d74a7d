// hdae-bench-threads: SUNDIALS' OpenMP N_Vector against its serial one
// (SimulationOptions::threads; docs/benchmarks.md, "Threads"). Two problems with KLU:
//   - the mass-spring chain (hdae::models::MassSpringChain), no events;
//   - the pulsed chain of bench/models/clamped_chain.hpp: time events switch a force on the
//     free end on and off, so each event runs the event iteration (jump solve, consistent
//     derivatives) and restarts IDA, all of it on the calling thread.
// Each problem runs with threads = 1 and threads = T in the same process, alternating round
// after round (order swapped every round), on the same model object. A run is timed in two
// parts: set-up and initialization (the Simulator's construction and initialize(): model
// structure, sparsity pattern and colouring, the event iteration at t0) and the integration
// (advance_to(stop)), where IDA's vector operations are. The speed-up is the least serial wall
// time over the least threaded one (the rounds' minima: the load only adds time). CPU time
// (user + system, all threads) shows what the extra threads burn. Only s[N], v[N] and f[1] are
// recorded, so the rows cost nothing; their last values, serial against threaded, show the
// round-off difference.
//
// Usage: hdae-bench-threads [--smoke] [--masses 100000] [--threads 2] [--rounds 5]
//                           [--stop-s 1] [--pulses 10]   (--pulses 0: the chain only)
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/simulator.hpp"
#include "models/clamped_chain.hpp"
#include "support/arguments.hpp"
#include "support/markdown.hpp"
#include "support/timing.hpp"

namespace hdae::bench {
namespace {

struct RunFigures {
  double setup_s = 0.0;        ///< Simulator construction and initialize()
  double integration_s = 0.0;  ///< advance_to(stop)
  double cpu_s = 0.0;          ///< user + system time of the whole run, all threads
  Statistics statistics;
  std::vector<double> last_row;
};

RunFigures run_once(SimulationModel& model, SimulationOptions options, int threads) {
  options.threads = threads;
  RunFigures f;
  const double cpu_start = cpu_seconds();
  const Clock::time_point start = Clock::now();
  Simulator sim(model, options);
  if (!sim.initialize().ok() && sim.status().outcome != Outcome::kRunning) {
    throw std::runtime_error("initialization: " + sim.status().message);
  }
  const Clock::time_point initialized = Clock::now();
  if (sim.advance_to(options.stop_s).outcome != Outcome::kReachedStopTime) {
    throw std::runtime_error(fmt::format("threads = {}: {}", threads, sim.status().message));
  }
  const Clock::time_point end = Clock::now();
  f.cpu_s = cpu_seconds() - cpu_start;
  f.setup_s = seconds_between(start, initialized);
  f.integration_s = seconds_between(initialized, end);
  const SimulationResult r = sim.take_result();
  f.statistics = r.statistics;
  for (std::size_t c = 0; c < r.table.num_columns(); ++c) {
    f.last_row.push_back(r.table.value(r.table.num_rows() - 1, c));
  }
  return f;
}

/// Largest |a_i - b_i| / |a_i| over the recorded columns of the last row.
double last_row_difference(const RunFigures& a, const RunFigures& b) {
  double worst = 0.0;
  for (std::size_t c = 0; c < a.last_row.size(); ++c) {
    const double scale = std::max(std::abs(a.last_row[c]), 1e-300);
    worst = std::max(worst, std::abs(a.last_row[c] - b.last_row[c]) / scale);
  }
  return worst;
}

struct Contest {
  std::vector<RunFigures> serial;
  std::vector<RunFigures> threaded;
};

Contest contest(SimulationModel& model, const SimulationOptions& options, int threads,
                std::size_t rounds) {
  Contest c;
  for (std::size_t round = 0; round < rounds; ++round) {
    if (round % 2 == 0) {
      c.serial.push_back(run_once(model, options, 1));
      c.threaded.push_back(run_once(model, options, threads));
    } else {
      c.threaded.push_back(run_once(model, options, threads));
      c.serial.push_back(run_once(model, options, 1));
    }
  }
  return c;
}

/// The least over the rounds of one figure.
double minimum_of(const std::vector<RunFigures>& runs, double RunFigures::*figure) {
  std::vector<double> values;
  values.reserve(runs.size());
  for (const RunFigures& f : runs) values.push_back(f.*figure);
  return minimum(values);
}

/// Serial over threaded of one figure, each the least of its rounds.
double speed_up(const Contest& c, double RunFigures::*figure) {
  return minimum_of(c.serial, figure) / minimum_of(c.threaded, figure);
}

void add_row(MarkdownTable& table, const std::string& problem, std::size_t masses,
             const Contest& c) {
  const RunFigures& s = c.serial.front();
  const RunFigures& t = c.threaded.front();
  const bool same_counters = s.statistics.steps == t.statistics.steps &&
                             s.statistics.ida_nni == t.statistics.ida_nni &&
                             s.statistics.jacobian_evaluations == t.statistics.jacobian_evaluations;
  const auto whole = [](const std::vector<RunFigures>& runs) {
    std::vector<double> values(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
      values[i] = runs[i].setup_s + runs[i].integration_s;
    return minimum(values);
  };
  table.add_row({problem, fmt::format("{}", masses), fmt::format("{}", 3 * masses),
                 fmt::format("{}", s.statistics.time_events), fmt::format("{}", s.statistics.steps),
                 same_counters ? "yes" : "**no**",
                 format_seconds(minimum_of(c.serial, &RunFigures::setup_s)),
                 format_seconds(minimum_of(c.serial, &RunFigures::integration_s)),
                 format_seconds(minimum_of(c.threaded, &RunFigures::integration_s)),
                 format_ratio(speed_up(c, &RunFigures::integration_s)),
                 format_ratio(whole(c.serial) / whole(c.threaded)),
                 format_ratio(1.0 / speed_up(c, &RunFigures::cpu_s)),
                 fmt::format("{:.1e}", last_row_difference(s, t))});
}

SimulationOptions chain_run_options(double stop_s, std::size_t masses) {
  SimulationOptions o;
  o.stop_s = stop_s;
  o.rel_tol = 1e-6;
  o.linear_solver = LinearSolverKind::kKlu;
  o.output_interval_s = stop_s / 10.0;
  o.record_columns = {fmt::format("s[{}]", masses), fmt::format("v[{}]", masses), "f[1]"};
  return o;
}

int run(const Arguments& args) {
  const bool smoke = args.has("--smoke");
  const std::vector<std::size_t> sizes = args.sizes(
      "--masses", smoke ? std::vector<std::size_t>{1000} : std::vector<std::size_t>{100000});
  const auto threads = static_cast<int>(args.number("--threads", 2));
  const auto rounds = static_cast<std::size_t>(args.number("--rounds", smoke ? 1 : 5));
  const double stop_s = args.number("--stop-s", smoke ? 0.2 : 1.0);
  const double pulses = args.number("--pulses", 10);
  MarkdownTable table({"problem", "masses", "unknowns", "events", "steps", "counters identical",
                       "set-up + init (serial)", "integration, serial",
                       fmt::format("integration, {} threads", threads), "speed-up (integration)",
                       "speed-up (whole run)", "CPU time threaded / serial",
                       "last row, relative difference"});
  for (const std::size_t masses : sizes) {
    const SimulationOptions options = chain_run_options(stop_s, masses);
    {
      models::MassSpringChain chain({.masses = masses});
      add_row(table, "chain", masses, contest(chain, options, threads, rounds));
    }
    std::cerr << fmt::format("threads: chain of {} masses done\n", masses);
    if (pulses <= 0.0) continue;
    // Clamp and release lie beyond the stop time: only the pulses happen. The push equals the
    // spring force at the start, k s0 / N (bench/restart_main.cpp).
    ClampedChain pulsed({.masses = masses,
                         .clamp_s = 2 * stop_s,
                         .release_s = 3 * stop_s,
                         .pulse_period_s = stop_s / (pulses + 1.0),
                         .push_n = 100.0 / static_cast<double>(masses)});
    add_row(table, "pulsed chain", masses, contest(pulsed, options, threads, rounds));
    std::cerr << fmt::format("threads: pulsed chain of {} masses done\n", masses);
  }
  // libgomp reads the waiting policy of idle threads from the environment at start-up: spinning
  // (the default, for a while) or sleeping at once (passive), which matters on a busy machine.
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  fmt::print(
      "#### Serial against {} threads, OMP_WAIT_POLICY {} (KLU, rel_tol 1e-6, to {:g} s, {} "
      "rounds, the least of each)\n\n{}\n",
      threads, policy != nullptr ? fmt::format("= {}", policy) : std::string("unset"), stop_s,
      rounds, table.str());
  return 0;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-threads", argc, argv, hdae::bench::run);
}
