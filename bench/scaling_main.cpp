// hdae-bench-scaling: hdae::models::MassSpringChain from about 1e2 to 1e5 unknowns
// (docs/benchmarks.md, "Sparse scaling"), hdae and raw IDA side by side. Every run is a
// fresh child process, so its peak resident set (ru_maxrss) belongs to that size alone; the
// rounds alternate hdae and raw children. Figures: CPU time per IDA step, the Jacobian's cost
// (colours = residual calls per Jacobian with KLU, n with the dense difference quotient),
// and peak memory; times are the least over the rounds.
//
// Usage: hdae-bench-scaling [--smoke] [--solver klu|dense] [--masses 34,100,...]
//                           [--rounds R] [--stop-s T]
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cases/comparison_cases.hpp"
#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/simulator.hpp"
#include "support/arguments.hpp"
#include "support/child_process.hpp"
#include "support/markdown.hpp"
#include "support/timing.hpp"

namespace hdae::bench {
namespace {

/// A run to stop_s and, before it in the same child, one to stop_s / 2: the differences give
/// the marginal cost of a step, free of set-up and initialization (which the whole-run
/// figures include).
struct RunFigures {
  double cpu_s = 0.0;       ///< the CPU time of the run to stop_s (its thread's)
  double half_cpu_s = 0.0;  ///< the same in the run to stop_s / 2
  SolverCounts counts;
  long half_steps = 0;
  long colors = 0;
  long rows = 0;
  double jacobian_s = 0.0;  ///< hdae only: time in its coloured difference Jacobian
};

/// The CPU time of a step beyond the half run's, from the least times of the rounds; NaN when
/// the load left it unresolved (not positive), as at the smallest sizes, where a run takes
/// about as long as the noise between rounds.
double marginal_step_s(double cpu_s, double half_cpu_s, const RunFigures& f) {
  const double step = (cpu_s - half_cpu_s) / static_cast<double>(f.counts.steps - f.half_steps);
  return step > 0.0 ? step : std::numeric_limits<double>::quiet_NaN();
}

SimulationOptions halved(const SimulationOptions& options) {
  SimulationOptions half = options;
  half.stop_s = 0.5 * options.stop_s;
  return half;
}

/// A fresh child resolves its dynamic symbols and faults in its code on first use; a run of
/// a 10-mass chain first keeps that out of the timed run without adding to its peak memory.
constexpr std::size_t kWarmUpMasses = 10;

ChildResult<RunFigures> hdae_child(std::size_t masses, const SimulationOptions& options) {
  return measure_in_child<RunFigures>([&] {
    {
      models::MassSpringChain warm_up({.masses = kWarmUpMasses});
      (void)simulate(warm_up, options);
    }
    models::MassSpringChain model({.masses = masses});
    RunFigures f;
    {
      const double start = thread_cpu_seconds();
      const SimulationResult half = simulate(model, halved(options));
      f.half_cpu_s = thread_cpu_seconds() - start;
      f.half_steps = half.statistics.steps;
    }
    const double start = thread_cpu_seconds();
    const SimulationResult r = simulate(model, options);
    f.cpu_s = thread_cpu_seconds() - start;
    if (!r.status.ok()) throw std::runtime_error(r.status.message);
    f.counts = SolverCounts::from(r.statistics);
    f.colors = r.statistics.jacobian_colors;
    f.jacobian_s = r.statistics.jacobian_time_s;
    f.rows = static_cast<long>(r.table.num_rows());
    return f;
  });
}

ChildResult<RunFigures> raw_child(std::size_t masses, const SimulationOptions& options,
                                  const ChainStart& d) {
  return measure_in_child<RunFigures>([&] {
    {
      const std::vector<double> x0(d.x0.begin(), d.x0.begin() + 3 * kWarmUpMasses);
      const std::vector<double> der_x0(d.der_x0.begin(), d.der_x0.begin() + 3 * kWarmUpMasses);
      const std::vector<double> abs_tol(d.abs_tol.begin(), d.abs_tol.begin() + 3 * kWarmUpMasses);
      (void)run_raw_chain({.masses = kWarmUpMasses}, options, abs_tol, x0, der_x0);
    }
    RunFigures f;
    {
      const double start = thread_cpu_seconds();
      const raw::GridRunResult half =
          run_raw_chain({.masses = masses}, halved(options), d.abs_tol, d.x0, d.der_x0);
      f.half_cpu_s = thread_cpu_seconds() - start;
      f.half_steps = half.counters.steps;
    }
    const double start = thread_cpu_seconds();
    const raw::GridRunResult r =
        run_raw_chain({.masses = masses}, options, d.abs_tol, d.x0, d.der_x0);
    f.cpu_s = thread_cpu_seconds() - start;
    f.counts = SolverCounts::from(r.counters);
    f.rows = static_cast<long>(r.rows);
    return f;
  });
}

int run(const Arguments& args) {
  const bool smoke = args.has("--smoke");
  const std::string solver_name = args.value("--solver", "klu");
  const bool klu = solver_name == "klu";
  if (!klu && solver_name != "dense") throw std::invalid_argument("--solver is klu or dense");
  const std::vector<std::size_t> default_sizes =
      smoke ? std::vector<std::size_t>{34, 100}
      : klu ? std::vector<std::size_t>{34, 100, 334, 1000, 3334, 10000, 33334}
            : std::vector<std::size_t>{34, 100, 334};
  const std::vector<std::size_t> sizes = args.sizes("--masses", default_sizes);
  const auto rounds = static_cast<std::size_t>(args.number("--rounds", smoke ? 1 : 5));
  const double stop_s = args.number("--stop-s", smoke ? 0.2 : 1.0);
  const SimulationOptions options =
      chain_options(stop_s, klu ? LinearSolverKind::kKlu : LinearSolverKind::kDense, 10);

  const auto baseline = measure_in_child<int>([] { return 0; });
  MarkdownTable table({"masses", "unknowns", "nst", "residual calls per Jacobian",
                       "counters identical", "hdae CPU per step", "raw CPU per step",
                       klu ? "hdae per Jacobian (per unknown)" : "Jacobian",
                       "hdae per step per unknown", "hdae run", "raw run", "hdae / raw (run)",
                       "hdae peak RSS", "raw peak RSS"});
  for (const std::size_t masses : sizes) {
    const std::size_t n = 3 * masses;
    const ChainStart d = chain_start(masses, options);
    std::vector<double> hdae_s, raw_s, hdae_half_s, raw_half_s, jacobian_s;
    RunFigures h{}, r{};
    long hdae_rss = 0, raw_rss = 0;
    for (std::size_t round = 0; round < rounds; ++round) {
      ChildResult<RunFigures> a{}, b{};
      if (round % 2 == 0) {
        a = hdae_child(masses, options);
        b = raw_child(masses, options, d);
      } else {
        b = raw_child(masses, options, d);
        a = hdae_child(masses, options);
      }
      h = a.value;
      r = b.value;
      hdae_s.push_back(h.cpu_s);
      raw_s.push_back(r.cpu_s);
      hdae_half_s.push_back(h.half_cpu_s);
      raw_half_s.push_back(r.half_cpu_s);
      if (h.counts.jacobians > 0) {
        jacobian_s.push_back(h.jacobian_s / static_cast<double>(h.counts.jacobians));
      }
      hdae_rss = std::max(hdae_rss, a.max_rss_kib);
      raw_rss = std::max(raw_rss, b.max_rss_kib);
    }
    const double per_jacobian = h.counts.jacobians > 0
                                    ? static_cast<double>(h.counts.jacobian_residuals) /
                                          static_cast<double>(h.counts.jacobians)
                                    : 0.0;
    const bool identical = h.counts == r.counts && h.rows == r.rows;
    const double step_s = marginal_step_s(minimum(hdae_s), minimum(hdae_half_s), h);
    const double raw_step_s = marginal_step_s(minimum(raw_s), minimum(raw_half_s), r);
    table.add_row({fmt::format("{}", masses), fmt::format("{}", n),
                   fmt::format("{}", h.counts.steps),
                   klu ? fmt::format("{:g} (colours: {})", per_jacobian, h.colors)
                       : fmt::format("{:g}", per_jacobian),
                   identical ? "yes" : fmt::format("**NO** (raw nst {})", r.counts.steps),
                   format_seconds(step_s), format_seconds(raw_step_s),
                   klu && !jacobian_s.empty()
                       ? fmt::format("{} ({})", format_seconds(minimum(jacobian_s)),
                                     format_seconds(minimum(jacobian_s) / static_cast<double>(n)))
                       : std::string("inside IDA"),
                   format_seconds(step_s / static_cast<double>(n)), format_seconds(minimum(hdae_s)),
                   format_seconds(minimum(raw_s)), format_ratio(minimum(hdae_s) / minimum(raw_s)),
                   format_kib(hdae_rss), format_kib(raw_rss)});
    std::cerr << fmt::format("scaling ({}): {} masses done\n", solver_name, masses);
  }
  fmt::print(
      "#### {} (chain to {:g} s, rtol 1e-6, CPU time, the least of {} rounds; peak RSS of an idle "
      "child: {})\n\n{}\n",
      klu ? "KLU with the coloured finite-difference Jacobian"
          : "Dense LU, IDA's own "
            "difference-quotient Jacobian",
      stop_s, rounds, format_kib(baseline.max_rss_kib), table.str());
  return 0;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-scaling", argc, argv, hdae::bench::run);
}
