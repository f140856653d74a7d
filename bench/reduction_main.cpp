// hdae-bench-reduction: what index reduction costs (docs/benchmarks.md, "Index reduction"; the
// reduced forms against forms reduced by hand at equal accuracy are hdae-bench-higher-index's).
// 1. The structure analysis (hdae::analyze_index) of a chain of masses joined by rigid rods
//    (bench/models/rod_chain.hpp) at 10^3 to 10^5 unknowns, the least of the rounds.
// 2. A planar chain of rigid links in Cartesian coordinates (bench/models/pendulum_chain.hpp)
//    reduced and run for 0.1 s at rel_tol 1e-6: set-up and per-step CPU time, how they grow
//    with the number of links, and how well the rods and the energy hold at the end.
//
// Usage: hdae-bench-reduction [--smoke] [--rounds 7] [--masses 334,3334,33334]
//                             [--links 10,20,40,80,160]
#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "hdae/index_reduction.hpp"
#include "hdae/simulator.hpp"
#include "hdae/structure.hpp"
#include "models/pendulum_chain.hpp"
#include "models/rod_chain.hpp"
#include "support/arguments.hpp"
#include "support/markdown.hpp"
#include "support/timing.hpp"

namespace hdae::bench {
namespace {

/// The analysis of the chain at each size, `rounds` times on one model: the least wall and CPU
/// seconds (CPU time is less sensitive to the load of the shared machine).
std::string structure_table(const std::vector<std::size_t>& sizes, std::size_t rounds) {
  MarkdownTable table(
      {"masses", "unknowns", "analysis s", "analysis CPU s", "index", "degrees of freedom"});
  for (const std::size_t masses : sizes) {
    RodChain model(masses);
    const std::span<const double> start = model.structure().variables.starts();
    const std::vector<double> x(start.begin(), start.end());
    std::vector<double> der_x(x.size(), 0.0);
    IndexAnalysis a;
    std::vector<double> wall, cpu;
    for (std::size_t round = 0; round < rounds; ++round) {
      const double cpu_start = cpu_seconds();
      wall.push_back(time_call([&] { a = analyze_index(model, 0.0, x, der_x); }));
      cpu.push_back(cpu_seconds() - cpu_start);
    }
    table.add_row({std::to_string(masses), std::to_string(x.size()),
                   fmt::format("{:.3f}", minimum(wall)), fmt::format("{:.3f}", minimum(cpu)),
                   std::to_string(a.index), std::to_string(a.degrees_of_freedom)});
  }
  return table.str();
}

/// The worst rod of the chain at the run's last row, |dx^2 + dy^2 - L^2| / L^2, and its
/// mechanical energy there over the scale N m g L (it starts at 0: at rest, y = 0).
std::pair<double, double> chain_drift(const ResultTable& t, std::size_t links) {
  constexpr double kL = PendulumChain::kLength;
  double rod = 0.0;
  double energy = 0.0;
  double x0 = 0.0;
  double y0 = 0.0;
  for (std::size_t k = 1; k <= links; ++k) {
    const double x = t.final_value(fmt::format("x[{}]", k));
    const double y = t.final_value(fmt::format("y[{}]", k));
    const double vx = t.final_value(fmt::format("vx[{}]", k));
    const double vy = t.final_value(fmt::format("vy[{}]", k));
    rod = std::max(rod, std::abs((x - x0) * (x - x0) + (y - y0) * (y - y0) - kL * kL) / (kL * kL));
    energy += PendulumChain::kMass * (0.5 * (vx * vx + vy * vy) + PendulumChain::kGravity * y);
    x0 = x;
    y0 = y;
  }
  const double scale =
      static_cast<double>(links) * PendulumChain::kMass * PendulumChain::kGravity * kL;
  return {rod, std::abs(energy) / scale};
}

/// The chain of links reduced and run at each size: CPU seconds of the reduction (structure,
/// layout, state selection, consistent start) and per IDA step, with the exponent p of their
/// growth against the size before (cost ~ N^p).
std::string chain_table(const std::vector<std::size_t>& sizes) {
  MarkdownTable table({"links", "unknowns reduced", "set-up CPU s", "p", "steps", "CPU s per step",
                       "p", "worst rod / L^2", "energy / (N m g L)", "status"});
  double setup_before = 0.0;
  double step_before = 0.0;
  std::size_t size_before = 0;
  for (const std::size_t links : sizes) {
    const double cpu_start = cpu_seconds();
    IndexReducedModel reduced(std::make_unique<PendulumChain>(links));
    const double setup = cpu_seconds() - cpu_start;
    SimulationOptions o;
    o.stop_s = 0.1;
    o.rel_tol = 1e-6;
    o.output_interval_s = 0.1;
    const double run_start = cpu_seconds();
    const SimulationResult r = simulate(reduced, o);
    const double per_step =
        (cpu_seconds() - run_start) / static_cast<double>(std::max<long>(r.statistics.steps, 1));
    const auto exponent = [&](double now, double before) {
      if (size_before == 0 || !(before > 0.0)) return std::string("");
      return fmt::format(
          "{:.1f}", std::log(now / before) /
                        std::log(static_cast<double>(links) / static_cast<double>(size_before)));
    };
    const auto [rod, energy] = chain_drift(r.table, links);
    table.add_row({std::to_string(links), std::to_string(reduced.structure().num_unknowns()),
                   fmt::format("{:.3f}", setup), exponent(setup, setup_before),
                   std::to_string(r.statistics.steps), fmt::format("{:.2e}", per_step),
                   exponent(per_step, step_before), fmt::format("{:.1e}", rod),
                   fmt::format("{:.1e}", energy), std::string(to_string(r.status.outcome))});
    setup_before = setup;
    step_before = per_step;
    size_before = links;
  }
  return table.str();
}

int run(const Arguments& args) {
  const bool smoke = args.has("--smoke");
  const auto rounds = static_cast<std::size_t>(args.number("--rounds", smoke ? 1 : 7));
  const std::vector<std::size_t> sizes =
      args.sizes("--masses",
                 smoke ? std::vector<std::size_t>{34} : std::vector<std::size_t>{334, 3334, 33334});
  const std::vector<std::size_t> links =
      args.sizes("--links", smoke ? std::vector<std::size_t>{5}
                                  : std::vector<std::size_t>{10, 20, 40, 80, 160});
  std::cout << structure_table(sizes, rounds) << "\n" << chain_table(links);
  return 0;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-reduction", argc, argv, hdae::bench::run);
}
