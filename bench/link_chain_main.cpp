// hdae-bench-link-chain: index reduction at the size of a machine (docs/benchmarks.md,
// "Reduction at the size of machines"). The planar chain of N rigid links in Cartesian
// coordinates (models/link_chain.hpp: 5N unknowns, index 3, N degrees of freedom), released
// at rest from the horizontal, for each N of a list:
//   set-up  the thread's CPU time of make_link_chain: declaring the model, the structure
//           analysis, the reduction, the state selection and the consistent start;
//   run     the thread's CPU time of one simulate() over stop_s at rel_tol (default options
//           otherwise, rows at 0 and stop_s only), with IDA's steps, residual evaluations and
//           Jacobians, and the CPU time per step;
//   accuracy at the last row: |E| over the potential energy the chain can exchange,
//           m g L N (N + 1) / 2 (E = 0 at the start and conserved), and the worst rod's
//           |d^2 - L^2| / L^2 (the model's output rod_drift).
// Times are the least of the rounds (fresh models each round); the counters and the accuracy
// are the same in every round. "growth" is (per step / N) over the same at the N before: 1
// where a step costs in proportion to N. A size whose reduction or run throws is reported in
// its row and the list goes on. With --evaluation doubles the chain is evaluated with doubles
// only (DifferenceQuotientModel): no exact Jacobians, every matrix of the reduction and of
// the run by difference quotients.
//
// Usage: hdae-bench-link-chain [--smoke] [--links 10,30,100,300,1000,3000] [--rounds 3]
//                              [--stop-s 0.2] [--rel-tol 1e-6] [--solver auto|dense|klu]
//                              [--evaluation jets|doubles]
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hdae/difference_quotients.hpp"
#include "hdae/index_reduction.hpp"
#include "hdae/models/link_chain.hpp"
#include "hdae/simulator.hpp"
#include "support/arguments.hpp"
#include "support/markdown.hpp"
#include "support/timing.hpp"

namespace hdae::bench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const std::vector<std::string> kHeaders = {"N",
                                           "unknowns",
                                           "reduced unknowns",
                                           "set-up CPU s",
                                           "steps",
                                           "residuals",
                                           "Jacobians",
                                           "run CPU s",
                                           "CPU per step",
                                           "growth of per step / N",
                                           "abs(E) / (m g L N (N+1)/2)",
                                           "rod drift",
                                           "status"};

struct Settings {
  std::vector<std::size_t> links;
  std::size_t rounds = 3;
  double stop_s = 0.2;
  double rel_tol = 1e-6;
  /// IDA's linear solver: by default as a user's run chooses (KLU from 50 unknowns).
  LinearSolverKind solver = LinearSolverKind::kAuto;
  /// The chain evaluated with doubles only, its derivatives by difference quotients.
  bool doubles_only = false;
};

/// One size: the least times of the rounds and what every round shares.
struct Measurement {
  std::size_t links = 0;
  std::size_t reduced_unknowns = 0;
  std::vector<double> setup_cpu_s;  ///< per round
  std::vector<double> run_cpu_s;    ///< per round
  Statistics statistics;
  std::string status;
  double energy_error = kNaN;  ///< |E| / (m g L N (N + 1) / 2) at the last row
  double rod_drift = kNaN;     ///< max_i |d_i^2 - L^2| / L^2 at the last row
  /// What stopped this size: the reduction refusing it (too many unknowns) or a run that threw.
  std::optional<std::string> error;

  [[nodiscard]] double per_step_s() const {
    return minimum(run_cpu_s) / static_cast<double>(std::max<long>(statistics.steps, 1));
  }
};

SimulationOptions run_options(const Settings& s) {
  SimulationOptions o;
  o.stop_s = s.stop_s;
  o.rel_tol = s.rel_tol;
  o.output_interval_s = s.stop_s;  // the last row is all the accuracy columns need
  o.linear_solver = s.solver;
  return o;
}

/// The potential energy the chain exchanges hanging straight down from the horizontal.
double energy_scale(const models::LinkChainParameters& p) {
  const double n = static_cast<double>(p.links);
  return p.mass_kg * p.gravity_mps2 * p.length_m * n * (n + 1.0) / 2.0;
}

std::unique_ptr<IndexReducedModel> make_chain(const Settings& s,
                                              const models::LinkChainParameters& p) {
  if (!s.doubles_only) return models::make_link_chain(p);
  return std::make_unique<IndexReducedModel>(
      std::make_unique<DifferenceQuotientModel>(std::make_unique<models::LinkChain>(p)));
}

/// One round: a fresh model built and run, both timed; the counters and accuracy kept.
void measure_round(const Settings& s, Measurement& m) {
  const models::LinkChainParameters p{.links = m.links};
  const double setup_start = thread_cpu_seconds();
  const std::unique_ptr<IndexReducedModel> chain = make_chain(s, p);
  m.setup_cpu_s.push_back(thread_cpu_seconds() - setup_start);
  const double run_start = thread_cpu_seconds();
  const SimulationResult r = simulate(*chain, run_options(s));
  m.run_cpu_s.push_back(thread_cpu_seconds() - run_start);
  m.reduced_unknowns = chain->structure().num_unknowns();
  m.statistics = r.statistics;
  m.status = r.status.ok()
                 ? std::string(to_string(r.status.outcome))
                 : fmt::format("{} at t = {:.3g} s", to_string(r.status.outcome), r.status.t);
  if (r.table.num_rows() == 0) return;
  m.energy_error = std::abs(r.table.final_value("energy")) / energy_scale(p);
  m.rod_drift = r.table.final_value("rod_drift");
}

Measurement measure(const Settings& s, std::size_t links) {
  Measurement m;
  m.links = links;
  try {
    for (std::size_t round = 0; round < s.rounds; ++round) measure_round(s, m);
  } catch (const std::exception& e) {
    m.error = e.what();
  }
  return m;
}

std::string format_e(double v) { return std::isfinite(v) ? fmt::format("{:.1e}", v) : "n/a"; }

/// (per step / N) against the same at the size before: 1 for a cost linear in N.
std::string growth(const Measurement& m, const Measurement* before) {
  if (before == nullptr || before->error || m.error) return "";
  const double now = m.per_step_s() / static_cast<double>(m.links);
  const double then = before->per_step_s() / static_cast<double>(before->links);
  return fmt::format("{:.2f}", now / then);
}

std::vector<std::string> row(const Measurement& m, const Measurement* before) {
  if (m.error) {
    // A refusal names many equations: its first 200 characters say what it is.
    std::vector<std::string> cells(kHeaders.size());
    cells[0] = std::to_string(m.links);
    cells[1] = std::to_string(5 * m.links);
    cells.back() = "stopped: " + m.error->substr(0, 200);
    return cells;
  }
  const Statistics& st = m.statistics;
  return {std::to_string(m.links),
          std::to_string(5 * m.links),
          std::to_string(m.reduced_unknowns),
          fmt::format("{:.4f}", minimum(m.setup_cpu_s)),
          std::to_string(st.steps),
          std::to_string(st.residual_evaluations),
          std::to_string(st.jacobian_evaluations),
          fmt::format("{:.4f}", minimum(m.run_cpu_s)),
          format_seconds(m.per_step_s()),
          growth(m, before),
          format_e(m.energy_error),
          format_e(m.rod_drift),
          m.status};
}

std::string table(const Settings& s) {
  MarkdownTable t(kHeaders);
  std::optional<Measurement> before;
  for (const std::size_t links : s.links) {
    Measurement m = measure(s, links);
    t.add_row(row(m, before ? &*before : nullptr));
    before = std::move(m);
  }
  return t.str();
}

LinearSolverKind solver_kind(const std::string& name) {
  if (name == "dense") return LinearSolverKind::kDense;
  if (name == "auto") return LinearSolverKind::kAuto;
  if (name == "klu") return LinearSolverKind::kKlu;
  throw std::invalid_argument("--solver takes dense, auto or klu, got '" + name + "'");
}

Settings settings(const Arguments& args) {
  const bool smoke = args.has("--smoke");
  Settings s;
  s.links = args.sizes("--links", smoke ? std::vector<std::size_t>{5, 10}
                                        : std::vector<std::size_t>{10, 30, 100, 300, 1000, 3000});
  s.rounds = static_cast<std::size_t>(args.number("--rounds", smoke ? 1 : 3));
  s.stop_s = args.number("--stop-s", smoke ? 0.05 : 0.2);
  s.rel_tol = args.number("--rel-tol", 1e-6);
  s.solver = solver_kind(args.value("--solver", "auto"));
  const std::string evaluation = args.value("--evaluation", "jets");
  if (evaluation != "jets" && evaluation != "doubles") {
    throw std::invalid_argument(
        fmt::format("--evaluation takes jets or doubles, got '{}'", evaluation));
  }
  s.doubles_only = evaluation == "doubles";
  return s;
}

int run(const Arguments& args) {
  const Settings s = settings(args);
  const models::LinkChainParameters p;  // every size runs with the other defaults
  std::cout << fmt::format(
                   "Chain of N links (L = {} m, m = {} kg, g = {} m/s2) released at rest from "
                   "the horizontal, {} s at rel_tol {:g}, linear solver {}, evaluated {}; CPU "
                   "times are the least of {} round(s).\n\n",
                   p.length_m, p.mass_kg, p.gravity_mps2, s.stop_s, s.rel_tol,
                   args.value("--solver", "auto"),
                   s.doubles_only ? "with doubles only (difference quotients)" : "with jets",
                   s.rounds)
            << table(s);
  return 0;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-link-chain", argc, argv, hdae::bench::run);
}
