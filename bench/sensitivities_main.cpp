// What forward sensitivities cost (SimulationOptions::sensitivities, docs/design.md,
// "Sensitivities"): the same run with 0, 1, 2 and 4 sensitivities, CPU time relative to the
// plain run and the counters behind it, on the pendulum and on a chain of masses at three
// sizes (its parameters k and m: the augmented system is sparse, KLU from 50 unknowns on).
//   hdae-bench-sensitivities [--smoke]
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/simulator.hpp"
#include "support/arguments.hpp"
#include "support/markdown.hpp"
#include "support/timing.hpp"

namespace hdae::bench {
namespace {

using MakeModel = std::function<std::unique_ptr<SimulationModel>()>;

struct Case {
  std::string name;
  MakeModel make;
  std::vector<std::vector<std::string>> sources;  ///< the first entry empty: the plain run
};

/// The thread's CPU seconds of one run of each configuration (c.sources), the least of `rounds`
/// samples of at least 20 ms, each on a fresh model; the configurations take turns within a
/// round, their order rotated from round to round.
std::vector<double> cpu_of(const Case& c, SimulationOptions o, std::size_t rounds) {
  std::vector<std::function<void()>> runs;
  runs.reserve(c.sources.size());
  for (const std::vector<std::string>& sources : c.sources) {
    o.sensitivities = sources;
    runs.emplace_back([&c, o] {
      const std::unique_ptr<SimulationModel> m = c.make();
      (void)simulate(*m, o);
    });
  }
  std::vector<std::size_t> calls(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) calls[i] = calls_per_sample(runs[i], 0.02);
  std::vector<std::vector<double>> samples(runs.size());
  for (std::size_t r = 0; r < rounds; ++r) {
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const std::size_t j = (i + r) % runs.size();
      const double start = thread_cpu_seconds();
      for (std::size_t k = 0; k < calls[j]; ++k) runs[j]();
      samples[j].push_back((thread_cpu_seconds() - start) / static_cast<double>(calls[j]));
    }
  }
  std::vector<double> least(samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i) least[i] = minimum(samples[i]);
  return least;
}

void add_rows(MarkdownTable& table, const Case& c, SimulationOptions o, std::size_t rounds) {
  const std::vector<double> cpu_s = cpu_of(c, o, rounds);
  for (std::size_t i = 0; i < c.sources.size(); ++i) {
    const std::vector<std::string>& sources = c.sources[i];
    o.sensitivities = sources;
    const std::unique_ptr<SimulationModel> m = c.make();
    const SimulationResult r = simulate(*m, o);
    const Statistics& st = r.statistics;
    table.add_row({c.name, sources.empty() ? "none" : fmt::format("{}", fmt::join(sources, ", ")),
                   std::to_string(m->structure().num_unknowns() * (sources.size() + 1)),
                   std::to_string(st.steps), std::to_string(st.residual_evaluations),
                   std::to_string(st.jacobian_evaluations), format_seconds(cpu_s[i]),
                   format_ratio(cpu_s[i] / cpu_s.front())});
  }
}

int run(const Arguments& args) {
  const bool smoke = args.has("--smoke");
  SimulationOptions o;
  o.stop_s = smoke ? 1.0 : 10.0;
  o.rel_tol = 1e-8;
  o.log_level = LogLevel::kOff;
  const std::size_t rounds = smoke ? 1 : 5;
  std::vector<Case> cases;
  cases.push_back({"pendulum",
                   [] {
                     models::PendulumParameters p;
                     p.phi0_rad = 1.0;
                     return std::make_unique<models::Pendulum>(p);
                   },
                   {{}, {"L"}, {"L", "d"}, {"L", "d", "m", "start(w)"}}});
  for (const std::size_t n :
       args.sizes("--masses",
                  smoke ? std::vector<std::size_t>{10} : std::vector<std::size_t>{10, 50, 200})) {
    cases.push_back({fmt::format("chain of {} masses", n),
                     [n] {
                       models::MassSpringChainParameters p;
                       p.masses = n;
                       return std::make_unique<models::MassSpringChain>(p);
                     },
                     {{}, {"k"}, {"k", "m"}}});
  }
  MarkdownTable table({"model", "sensitivities", "unknowns", "steps", "residuals", "Jacobians",
                       "CPU per run", "CPU / plain run"});
  for (const Case& c : cases) add_rows(table, c, o, rounds);
  std::printf(
      "Runs to t = %g s at rel_tol 1e-8, default options otherwise; CPU time of the thread, "
      "the least of %zu interleaved rounds.\n\n%s",
      o.stop_s, rounds, table.str().c_str());
  return 0;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-sensitivities", argc, argv, hdae::bench::run);
}
