// hdae-bench-reduction: what index reduction costs (docs/benchmarks.md, "Index reduction").
// 1. The pendulum three ways at the same tolerance: the Cartesian index-3 form reduced by
//    hdae (models/cartesian_pendulum.hpp), the hand-written GGL index-1 form
//    (models/pendulum_dae.hpp, set to the same physics) and the ODE in the angle
//    (models/pendulum.hpp); run time, IDA's work and the angle's error against the ODE at
//    rel_tol 1e-12.
// 2. The structure analysis (hdae::analyze_index) of a chain of masses joined by rigid rods
//    (bench/models/rod_chain.hpp) at 10^3 to 10^5 unknowns, medians over the rounds.
// 3. A planar chain of rigid links in Cartesian coordinates (bench/models/pendulum_chain.hpp)
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
#include "hdae/models/cartesian_pendulum.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/models/pendulum_dae.hpp"
#include "hdae/simulator.hpp"
#include "hdae/structure.hpp"
#include "models/pendulum_chain.hpp"
#include "models/rod_chain.hpp"
#include "support/arguments.hpp"
#include "support/markdown.hpp"
#include "support/timing.hpp"

namespace hdae::bench {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kStopS = 10.0;
constexpr double kRelTol = 1e-8;

SimulationOptions pendulum_options(double rel_tol) {
  SimulationOptions o;
  o.stop_s = kStopS;
  o.rel_tol = rel_tol;
  o.output_interval_s = 0.01;
  return o;
}

/// The angle phi(t) on the output grid (event rows skipped) from columns phi, or x and y.
std::vector<double> grid_angle(const SimulationResult& r) {
  const ResultTable& t = r.table;
  const bool has_phi =
      t.columns().end() != std::find_if(t.columns().begin(), t.columns().end(),
                                        [](const ColumnInfo& c) { return c.name == "phi"; });
  std::vector<double> phi;
  for (std::size_t k = 0; k < t.num_rows(); ++k) {
    if (k + 1 < t.num_rows() && t.time(k + 1) == t.time(k)) continue;  // left limit at an event
    const double g = std::round(t.time(k) / 0.01) * 0.01;
    if (std::abs(t.time(k) - g) > 1e-12) continue;  // an event row off the grid
    phi.push_back(
        has_phi ? t.value(k, t.column_index("phi"))
                : std::atan2(t.value(k, t.column_index("x")), -t.value(k, t.column_index("y"))));
  }
  return phi;
}

struct Contender {
  std::string name;
  std::function<std::unique_ptr<SimulationModel>()> make;
  bool step_to_outputs = false;  ///< the Cartesian example's options (examples/registry)
};

std::vector<Contender> pendulums() {
  models::PendulumParameters ode;
  ode.phi0_rad = kPi / 2.0;
  return {
      {"Cartesian, index 3, reduced by hdae",
       [] { return std::unique_ptr<SimulationModel>(models::make_cartesian_pendulum()); }, true},
      {"GGL index-1 form, by hand",
       [] {
         // Same physics: L = 0.5 m, damping force -(d/L^2) v with d = 0.1 N m s, at rest
         // at the horizontal.
         auto m = std::make_unique<models::PendulumDae>();
         m->set_parameter("L", 0.5);
         m->set_parameter("d", 0.1 / 0.25);
         m->set_parameter("x_start", 0.5);
         m->set_parameter("y_start", 0.0);
         m->set_parameter("vx_start", 0.0);
         m->set_parameter("vy_start", 0.0);
         return std::unique_ptr<SimulationModel>(std::move(m));
       }},
      {"ODE in the angle",
       [ode] { return std::unique_ptr<SimulationModel>(std::make_unique<models::Pendulum>(ode)); }},
  };
}

std::string pendulum_table(std::size_t rounds) {
  models::PendulumParameters p;
  p.phi0_rad = kPi / 2.0;
  models::Pendulum exact_model(p);
  const std::vector<double> exact = grid_angle(simulate(exact_model, pendulum_options(1e-12)));
  const std::vector<Contender> all = pendulums();
  std::vector<std::vector<double>> times(all.size());
  std::vector<SimulationResult> last(all.size());
  for (std::size_t round = 0; round < rounds; ++round) {
    for (std::size_t k = 0; k < all.size(); ++k) {
      const std::size_t c = (k + round) % all.size();  // a different order every round
      auto model = all[c].make();
      SimulationOptions o = pendulum_options(kRelTol);
      o.step_to_outputs = all[c].step_to_outputs;
      times[c].push_back(time_call([&] { last[c] = simulate(*model, o); }));
    }
  }
  MarkdownTable table({"pendulum", "median s", "vs GGL", "IDA steps", "residual calls",
                       "max abs(phi - phi_exact) rad", "status"});
  const double ggl = median(times[1]);
  for (std::size_t c = 0; c < all.size(); ++c) {
    const std::vector<double> phi = grid_angle(last[c]);
    double error = phi.size() == exact.size() ? 0.0 : NAN;
    for (std::size_t k = 0; k < phi.size() && k < exact.size(); ++k) {
      error = std::max(error, std::abs(phi[k] - exact[k]));
    }
    table.add_row({all[c].name, fmt::format("{:.4f}", median(times[c])),
                   fmt::format("{:.2f}", median(times[c]) / ggl),
                   std::to_string(last[c].statistics.steps),
                   std::to_string(last[c].statistics.residual_evaluations),
                   fmt::format("{:.1e}", error), std::string(to_string(last[c].status.outcome))});
  }
  return table.str();
}

/// The analysis of the chain at each size, `rounds` times on one model: median wall and CPU
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
                   fmt::format("{:.3f}", median(wall)), fmt::format("{:.3f}", median(cpu)),
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
  std::cout << pendulum_table(rounds) << "\n"
            << structure_table(sizes, rounds) << "\n"
            << chain_table(links);
  return 0;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-reduction", argc, argv, hdae::bench::run);
}
