// hdae-bench-work-precision: hdae's side of docs/benchmarks.md, "Work and precision": four
// problems that SciPy's solve_ivp solves too, each with every integrator hdae offers for it
// (SimulationOptions::method) over a sweep of tolerances. bench/work_precision.py runs SciPy's
// methods on the same problems, computes every run's error against references of its own
// (closed forms, or SciPy at rtol 1e-13) and writes the table; this program only runs hdae.
//   robertson: the stiff kinetics as an explicit ODE (models/robertson.hpp), 0..40 s; answer
//     y1, y2, y3 at 40 s;
//   pendulum: models::Pendulum (L = 0.5 m, d = 0.1 N m s, from 60 deg), 0..10 s, 501 rows;
//     answer phi and w at 10 s;
//   ball: models::BouncingBall (h0 = 1 m, e = 0.7, at rest below 0.01 m/s), 0..3 s; answer
//     its impact times;
//   chain: the chain of N masses as an explicit ODE (models/spring_chain_ode.hpp), 0..10 s,
//     501 rows; answer the displacements at 10 s.
// One line per run, "problem method rtol cpu_s steps rhs_evaluations count value...": cpu_s is
// the calling thread's CPU time of one simulate() call, averaged over as many calls as last
// 20 ms. The absolute tolerance is 0.01 rtol times each unknown's nominal, as by default.
//
// Usage: hdae-bench-work-precision --out FILE [--smoke] [--masses N] [--only PROBLEM]
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hdae/models/bouncing_ball.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/simulator.hpp"
#include "models/robertson.hpp"
#include "models/spring_chain_ode.hpp"
#include "support/arguments.hpp"
#include "support/timing.hpp"

namespace hdae::bench {
namespace {

/// Each timed sample repeats a run until this much thread CPU time has passed.
constexpr double kSampleS = 0.02;

struct Problem {
  std::string name;
  std::function<std::unique_ptr<Model>()> make;
  double stop_s;
  std::optional<double> output_interval_s;  ///< empty: events-only rows
  std::vector<IntegrationMethod> methods;
  /// The values the error is taken of.
  std::function<std::vector<double>(const SimulationResult&)> answer;
};

std::vector<double> last_values(const SimulationResult& r, const std::vector<std::string>& names) {
  std::vector<double> values;
  values.reserve(names.size());
  for (const std::string& name : names) values.push_back(r.table.column(name).back());
  return values;
}

std::vector<double> impact_times(const SimulationResult& r) {
  std::vector<double> times;
  for (const EventRecord& e : r.events) {
    if (e.kind == EventKind::kState) times.push_back(e.t);
  }
  return times;
}

std::vector<Problem> problems(std::size_t masses) {
  using M = IntegrationMethod;
  const std::vector<M> all = {M::kIda, M::kAuto, M::kErk, M::kAdams, M::kBdf};
  std::vector<std::string> chain_names;
  for (std::size_t i = 1; i <= masses; ++i) chain_names.push_back(fmt::format("s[{}]", i));
  return {
      {"robertson",
       [] { return std::make_unique<RobertsonOde>(); },
       40.0,
       std::nullopt,
       {M::kIda, M::kAuto, M::kBdf},
       [](const SimulationResult& r) {
         return last_values(r, {"y1", "y2", "y3"});
       }},
      {"pendulum", [] { return std::make_unique<models::Pendulum>(); }, 10.0, 0.02, all,
       [](const SimulationResult& r) {
         return last_values(r, {"phi", "w"});
       }},
      {"ball", [] { return std::make_unique<models::BouncingBall>(); }, 3.0, std::nullopt, all,
       impact_times},
      {"chain",
       [masses] { return std::make_unique<SpringChainOde>(SpringChainOdeParameters{masses}); },
       10.0, 0.02, all,
       [chain_names](const SimulationResult& r) { return last_values(r, chain_names); }},
  };
}

SimulationOptions options_for(const Problem& p, IntegrationMethod method, double rel_tol) {
  SimulationOptions o;
  o.stop_s = p.stop_s;
  o.rel_tol = rel_tol;
  o.method = method;
  o.log_level = LogLevel::kOff;
  if (p.output_interval_s) {
    o.output_interval_s = p.output_interval_s;
  } else {
    o.record_rows = RecordedRows::kEventsOnly;
  }
  return o;
}

/// One line of the output for p run with method at rel_tol.
std::string measure(const Problem& p, IntegrationMethod method, double rel_tol) {
  const std::unique_ptr<Model> model = p.make();
  const SimulationOptions o = options_for(p, method, rel_tol);
  SimulationResult r = simulate(*model, o);
  if (r.status.outcome != Outcome::kReachedStopTime) {
    throw std::runtime_error(fmt::format("{} with method {} at rtol {:g}: {}", p.name,
                                         to_string(method), rel_tol, r.status.message));
  }
  int calls = 0;
  const double start = thread_cpu_seconds();
  double elapsed = 0.0;
  while (elapsed < kSampleS || calls == 0) {
    r = simulate(*model, o);
    ++calls;
    elapsed = thread_cpu_seconds() - start;
  }
  std::ostringstream line;
  const std::vector<double> answer = p.answer(r);
  line << fmt::format("{} {} {:g} {:.6g} {} {} {}", p.name, to_string(method), rel_tol,
                      elapsed / calls, r.statistics.steps, r.statistics.residual_evaluations,
                      answer.size());
  for (const double v : answer) line << fmt::format(" {:.17g}", v);
  return line.str();
}

int run(const Arguments& args) {
  const std::string out_file = args.value("--out", "");
  if (out_file.empty()) throw std::invalid_argument("--out FILE is required");
  const bool smoke = args.has("--smoke");
  const auto masses = static_cast<std::size_t>(args.number("--masses", smoke ? 10 : 100));
  std::vector<double> rel_tols = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};
  if (smoke) rel_tols = {1e-6};
  const std::string only = args.value("--only", "");
  std::ofstream out(out_file);
  for (const Problem& p : problems(masses)) {
    if (!only.empty() && p.name != only) continue;
    for (const IntegrationMethod method : p.methods) {
      for (const double rel_tol : rel_tols) out << measure(p, method, rel_tol) << '\n';
    }
  }
  return 0;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-work-precision", argc, argv, hdae::bench::run);
}
