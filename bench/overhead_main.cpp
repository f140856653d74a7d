// hdae-bench-overhead: hdae against the same problems written directly against IDA's C API
// (docs/benchmarks.md, "Overhead"). For each problem: IDA's counters of both runs (they must
// be identical: same residuals, tolerances, output grid and Jacobian), and the CPU time of
// whole runs, interleaved round by round, as the least of the rounds and the hdae/raw ratio.
//
// Usage: hdae-bench-overhead [--smoke] [--rounds R] [--min-sample-s S]
//        hdae-bench-overhead --callgrind-hdae CASE | --callgrind-raw CASE
// CASE is pendulum, robertson, chain, dense-chain or ball (the elastic ball of
// hdae-bench-events with 1000 impacts, for the profile of the event path); the callgrind modes run
// the case once to warm up and once inside measured_hdae_run / measured_raw_run, the functions that
// `valgrind --tool=callgrind --toggle-collect=...` counts (scripts/bench.sh).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cases/comparison_cases.hpp"
#include "support/arguments.hpp"
#include "support/markdown.hpp"
#include "support/timing.hpp"

namespace hdae::bench {
namespace {

/// Ratios against the 1.05 target with three decimals, so that the verdict can be read off
/// the figure (three significant digits would print 1.0503 as "1.05" next to "not met").
std::string three_decimals(double r) { return std::isfinite(r) ? fmt::format("{:.3f}", r) : "n/a"; }

struct Sizes {
  double robertson_stop_s = 4e5;
  std::size_t chain_masses = 1000;
  double chain_stop_s = 5.0;
  std::size_t dense_chain_masses = 100;
};

std::vector<std::unique_ptr<ComparisonCase>> make_cases(const Sizes& sizes,
                                                        const std::string& only) {
  std::vector<std::unique_ptr<ComparisonCase>> cases;
  if (only.empty() || only == "pendulum") cases.push_back(make_pendulum_case());
  if (only.empty() || only == "robertson") {
    cases.push_back(make_robertson_case(sizes.robertson_stop_s));
  }
  if (only.empty() || only == "chain") {
    cases.push_back(
        make_chain_case(sizes.chain_masses, sizes.chain_stop_s, LinearSolverKind::kKlu, 50));
  }
  if (only.empty() || only == "dense-chain") {
    cases.push_back(make_chain_case(sizes.dense_chain_masses, sizes.chain_stop_s,
                                    LinearSolverKind::kDense, 50));
  }
  if (only == "ball") cases.push_back(make_elastic_ball_case(1000));
  return cases;
}

std::string pair(long a, long b) {
  return a == b ? fmt::format("{}", a) : fmt::format("**{} / {}**", a, b);
}

[[gnu::noinline]] void measured_hdae_run(ComparisonCase& c) {
  const SimulationResult r = c.run_hdae();
  if (!r.status.ok()) std::fprintf(stderr, "hdae run failed: %s\n", r.status.message.c_str());
}

[[gnu::noinline]] void measured_raw_run(ComparisonCase& c, const std::vector<double>& x0,
                                        const std::vector<double>& der_x0) {
  const raw::GridRunResult r = c.run_raw(x0, der_x0);
  if (r.rows == 0) std::fprintf(stderr, "raw run stored no rows\n");
}

int callgrind_mode(const Sizes& sizes, const std::string& which, const std::string& name) {
  auto cases = make_cases(sizes, name);
  if (cases.empty()) throw std::invalid_argument("unknown case '" + name + "'");
  ComparisonCase& c = *cases.front();
  const SimulationResult first = c.run_hdae();
  std::vector<double> x0, der_x0;
  state_of_row(first, 0, x0, der_x0);
  if (which == "hdae") {
    measured_hdae_run(c);
  } else {
    (void)c.run_raw(x0, der_x0);
    measured_raw_run(c, x0, der_x0);
  }
  return 0;
}

int run(const Arguments& args) {
  const bool smoke = args.has("--smoke");
  Sizes sizes;
  if (smoke) {
    sizes.robertson_stop_s = 40.0;
    sizes.chain_masses = 100;
    sizes.chain_stop_s = 1.0;
    sizes.dense_chain_masses = 20;
  }
  if (args.has("--callgrind-hdae"))
    return callgrind_mode(sizes, "hdae", args.value("--callgrind-hdae", ""));
  if (args.has("--callgrind-raw"))
    return callgrind_mode(sizes, "raw", args.value("--callgrind-raw", ""));
  const auto rounds = static_cast<std::size_t>(args.number("--rounds", smoke ? 1 : 11));
  const double min_sample_s = args.number("--min-sample-s", smoke ? 0.0 : 0.2);

  MarkdownTable counters({"problem", "set-up", "nst", "nre", "nje", "Jacobian residuals",
                          "netf / ncfn", "counters identical", "final state rel. diff."});
  MarkdownTable times(
      {"problem", "runs per sample", "hdae CPU per run", "raw IDA CPU per run", "hdae / raw"});
  bool all_identical = true;
  for (const auto& c : make_cases(sizes, "")) {
    const SimulationResult h = c->run_hdae();
    if (!h.status.ok()) throw std::runtime_error(c->name() + ": " + h.status.message);
    std::vector<double> x0, der_x0, x_end, der_end;
    state_of_row(h, 0, x0, der_x0);
    state_of_row(h, h.table.num_rows() - 1, x_end, der_end);
    const raw::GridRunResult r = c->run_raw(x0, der_x0);
    const SolverCounts ch = SolverCounts::from(h.statistics);
    const SolverCounts cr = SolverCounts::from(r.counters);
    const bool identical = ch == cr && h.table.num_rows() == r.rows;
    all_identical = all_identical && identical;
    counters.add_row({c->name(), c->description(), pair(ch.steps, cr.steps),
                      pair(ch.residuals, cr.residuals), pair(ch.jacobians, cr.jacobians),
                      pair(ch.jacobian_residuals, cr.jacobian_residuals),
                      fmt::format("{} / {}", pair(ch.error_test_failures, cr.error_test_failures),
                                  pair(ch.convergence_failures, cr.convergence_failures)),
                      identical ? "yes" : "**NO**",
                      fmt::format("{:.1e}", max_relative_difference(x_end, r.y_end))});

    auto hdae_run = [&c] { (void)c->run_hdae(); };
    auto raw_run = [&c, &x0, &der_x0] { (void)c->run_raw(x0, der_x0); };
    const std::size_t k = calls_per_sample(raw_run, min_sample_s);
    auto repeat = [k](const std::function<void()>& f) {
      return [k, f] {
        for (std::size_t i = 0; i < k; ++i) f();
      };
    };
    const InterleavedTimes t = interleave(rounds, repeat(hdae_run), repeat(raw_run));
    const auto per_run = [k](double s) { return s / static_cast<double>(k); };
    times.add_row({c->name(), fmt::format("{}", k), format_seconds(per_run(t.min_a_cpu_s())),
                   format_seconds(per_run(t.min_b_cpu_s())), three_decimals(t.ratio_of_min_cpu())});
  }
  fmt::print("#### IDA counters, hdae vs raw IDA (hdae / raw where they differ)\n\n{}\n",
             counters.str());
  fmt::print(
      "#### CPU time of whole runs (the thread's, the least of {} interleaved rounds; the "
      "targets are judged on the instruction counts below)\n\n{}\n",
      rounds, times.str());
  return all_identical ? 0 : 3;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-overhead", argc, argv, hdae::bench::run);
}
