// hdae-bench-memory: peak memory per unknown and set-up time of hdae::models::MassSpringChain
// with KLU from 10^3 to 10^6 masses (docs/benchmarks.md, "Memory and set-up at scale"), hdae
// beside the raw-IDA program of bench/raw/ on the same initial value problem.
//
// Every run is a fresh child process, so its peak resident set (ru_maxrss) belongs to that run
// alone; an idle child forked just before gives what every child inherits from this process,
// and "bytes per unknown" is the difference divided by 3N. This process keeps no model: the
// raw child's start state (hdae's first row and absolute tolerances) reaches it through an
// unlinked file, not through this process's heap, so neither child carries the other's data.
// Both programs record time and the energy output only (SimulationOptions::record_kinds =
// outputs; the raw loop's store_states off) on a grid of 10 intervals, so the table is no
// part of what is measured.
//
// hdae's set-up is timed in its three parts (the model's constructor, which declares three
// families of N variables and of N equations and eight family dependencies; the Simulator's
// constructor, which validates the model and builds the sparsity pattern; initialize(), the
// event iteration, jump solve and consistent derivatives at t0), its solve as
// advance_to(stop). The raw set-up is everything before IDA's first step (pattern, colouring,
// vectors, IDAInit, KLU), its solve the output loop. Both are timed in wall time and in CPU
// time (getrusage): the machine is shared, and CPU time moves less with its load.
//
// Usage: hdae-bench-memory [--smoke] [--masses 1000,10000,...] [--rounds R] [--stop-s T]
//        hdae-bench-memory --profile --masses N [--stop-s T]   (one hdae run in this process,
//                                                               for a heap profiler)
#include <fcntl.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>
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

/// The phases of an hdae run: seconds each, and the peak resident set after each (KiB).
struct HdaeFigures {
  double model_s = 0.0, simulator_s = 0.0, initialize_s = 0.0, solve_s = 0.0;
  double setup_cpu_s = 0.0, solve_cpu_s = 0.0;
  long model_kib = 0, simulator_kib = 0, initialize_kib = 0, solve_kib = 0;
  /// The resident set after each phase (what the phase's transients did not give back).
  long model_now_kib = 0, simulator_now_kib = 0, initialize_now_kib = 0, solve_now_kib = 0;
  SolverCounts counts;
  double energy_end = 0.0;

  [[nodiscard]] double setup_s() const { return model_s + simulator_s + initialize_s; }
};

struct RawFigures {
  double setup_s = 0.0, solve_s = 0.0;
  double setup_cpu_s = 0.0, solve_cpu_s = 0.0;
  SolverCounts counts;
  double energy_end = 0.0;
};

/// The start state in a file only the children read: unlinked at once, removed with its fd.
class StartFile {
 public:
  explicit StartFile(const ChainStart& d) {
    char name[] = "/tmp/hdae-bench-memory-XXXXXX";
    fd_ = ::mkstemp(name);
    if (fd_ < 0) throw std::runtime_error("cannot create a temporary file in /tmp");
    ::unlink(name);
    n_ = d.x0.size();
    for (std::size_t k = 0; k < 3; ++k) write_at(k, k == 0 ? d.x0 : k == 1 ? d.der_x0 : d.abs_tol);
  }
  StartFile(const StartFile&) = delete;
  StartFile& operator=(const StartFile&) = delete;
  ~StartFile() { ::close(fd_); }

  [[nodiscard]] ChainStart read() const {
    ChainStart d;
    for (std::size_t k = 0; k < 3; ++k) {
      std::vector<double>& v = k == 0 ? d.x0 : k == 1 ? d.der_x0 : d.abs_tol;
      v.resize(n_);
      const auto bytes = static_cast<ssize_t>(n_ * sizeof(double));
      if (::pread(fd_, v.data(), n_ * sizeof(double), offset(k)) != bytes) {
        throw std::runtime_error("short read of the start state");
      }
    }
    return d;
  }

 private:
  [[nodiscard]] off_t offset(std::size_t k) const {
    return static_cast<off_t>(k * n_ * sizeof(double));
  }
  void write_at(std::size_t k, const std::vector<double>& v) const {
    const auto bytes = static_cast<ssize_t>(v.size() * sizeof(double));
    if (::pwrite(fd_, v.data(), v.size() * sizeof(double), offset(k)) != bytes) {
      throw std::runtime_error("cannot write the start state to /tmp (disk full?)");
    }
  }

  int fd_ = -1;
  std::size_t n_ = 0;
};

/// Time and the energy output: what both programs record.
SimulationOptions measured_options(double stop_s) {
  SimulationOptions options = chain_options(stop_s, LinearSolverKind::kKlu, 10);
  options.record_kinds = {ColumnKind::kOutput};
  return options;
}

/// A fresh child resolves its dynamic symbols and faults in its code on first use; a run of a
/// 10-mass chain first keeps that out of the timed phases.
constexpr std::size_t kWarmUpMasses = 10;

HdaeFigures hdae_run(std::size_t masses, const SimulationOptions& options) {
  {
    models::MassSpringChain warm_up({.masses = kWarmUpMasses});
    (void)simulate(warm_up, options);
  }
  HdaeFigures f;
  const double cpu_start = cpu_seconds();
  Clock::time_point start = Clock::now();
  auto lap = [&start](double& seconds, long& peak_kib, long& now_kib) {
    const Clock::time_point now = Clock::now();
    seconds = seconds_between(start, now);
    peak_kib = peak_rss_kib();
    now_kib = current_rss_kib();
    start = Clock::now();
  };
  models::MassSpringChain model({.masses = masses});
  lap(f.model_s, f.model_kib, f.model_now_kib);
  Simulator simulator(model, options);
  lap(f.simulator_s, f.simulator_kib, f.simulator_now_kib);
  simulator.initialize();
  lap(f.initialize_s, f.initialize_kib, f.initialize_now_kib);
  const double cpu_solve_start = cpu_seconds();
  f.setup_cpu_s = cpu_solve_start - cpu_start;
  simulator.advance_to(options.stop_s);
  f.solve_cpu_s = cpu_seconds() - cpu_solve_start;
  lap(f.solve_s, f.solve_kib, f.solve_now_kib);
  const SimulationResult r = simulator.take_result();
  if (!r.status.ok()) throw std::runtime_error(r.status.message);
  f.counts = SolverCounts::from(r.statistics);
  f.energy_end = r.table.row(r.table.num_rows() - 1).back();
  return f;
}

ChildResult<HdaeFigures> hdae_child(std::size_t masses, const SimulationOptions& options) {
  return measure_in_child<HdaeFigures>([&] { return hdae_run(masses, options); });
}

ChildResult<RawFigures> raw_child(std::size_t masses, const SimulationOptions& options,
                                  const StartFile& file) {
  return measure_in_child<RawFigures>([&] {
    const ChainStart d = file.read();
    {
      const std::size_t w = 3 * kWarmUpMasses;
      const std::vector<double> x0(d.x0.begin(), d.x0.begin() + w);
      const std::vector<double> der_x0(d.der_x0.begin(), d.der_x0.begin() + w);
      const std::vector<double> abs_tol(d.abs_tol.begin(), d.abs_tol.begin() + w);
      (void)run_raw_chain({.masses = kWarmUpMasses}, options, abs_tol, x0, der_x0, false);
    }
    const double cpu_start = cpu_seconds();
    const Clock::time_point start = Clock::now();
    const raw::GridRunResult r =
        run_raw_chain({.masses = masses}, options, d.abs_tol, d.x0, d.der_x0, false);
    RawFigures f;
    f.setup_s = seconds_between(start, Clock::now()) - r.solve_s;
    f.solve_s = r.solve_s;
    f.setup_cpu_s = cpu_seconds() - cpu_start - r.solve_cpu_s;
    f.solve_cpu_s = r.solve_cpu_s;
    f.counts = SolverCounts::from(r.counters);
    f.energy_end = r.table.back();
    return f;
  });
}

/// The figures of one size over all rounds: the least of the times, the largest peaks.
struct SizeFigures {
  std::vector<HdaeFigures> hdae;
  std::vector<RawFigures> raw;
  long hdae_kib = 0, raw_kib = 0, idle_kib = 0;

  template <class T, class F>
  static double minimum_of(const std::vector<T>& runs, F field) {
    std::vector<double> v;
    v.reserve(runs.size());
    for (const T& r : runs) v.push_back(field(r));
    return minimum(v);
  }
};

SizeFigures measure_size(std::size_t masses, const SimulationOptions& options, std::size_t rounds) {
  std::unique_ptr<StartFile> file;
  {
    const ChainStart d = chain_start(masses, options);
    file = std::make_unique<StartFile>(d);
  }
  ::malloc_trim(0);  // what the start state took goes back before the children inherit it
  SizeFigures s;
  s.idle_kib = measure_in_child<int>([] { return 0; }).max_rss_kib;
  for (std::size_t round = 0; round < rounds; ++round) {
    auto run_hdae = [&] {
      const ChildResult<HdaeFigures> h = hdae_child(masses, options);
      s.hdae.push_back(h.value);
      s.hdae_kib = std::max(s.hdae_kib, h.max_rss_kib);
    };
    auto run_raw = [&] {
      const ChildResult<RawFigures> r = raw_child(masses, options, *file);
      s.raw.push_back(r.value);
      s.raw_kib = std::max(s.raw_kib, r.max_rss_kib);
    };
    if (round % 2 == 0) {
      run_hdae();
      run_raw();
    } else {
      run_raw();
      run_hdae();
    }
  }
  return s;
}

std::string bytes_per_unknown(long kib, long idle_kib, std::size_t n) {
  return fmt::format("{:.0f}",
                     1024.0 * static_cast<double>(kib - idle_kib) / static_cast<double>(n));
}

int run(const Arguments& args) {
  const bool smoke = args.has("--smoke");
  const std::vector<std::size_t> sizes =
      args.sizes("--masses", smoke ? std::vector<std::size_t>{100, 1000}
                                   : std::vector<std::size_t>{1000, 10000, 100000, 1000000});
  const auto rounds = static_cast<std::size_t>(args.number("--rounds", smoke ? 1 : 5));
  const double stop_s = args.number("--stop-s", smoke ? 0.1 : 1.0);
  if (rounds < 1) throw std::invalid_argument("--rounds must be at least 1");
  const SimulationOptions options = measured_options(stop_s);
  if (args.has("--profile")) {
    // One hdae run in this process, for a heap profiler (heaptrack, valgrind --tool=massif).
    const HdaeFigures f = hdae_run(sizes.front(), options);
    fmt::print(
        "set-up {} (model {}, Simulator {}, initialize {}), solve {}; CPU set-up {}, "
        "solve {}\n",
        format_seconds(f.setup_s()), format_seconds(f.model_s), format_seconds(f.simulator_s),
        format_seconds(f.initialize_s), format_seconds(f.solve_s), format_seconds(f.setup_cpu_s),
        format_seconds(f.solve_cpu_s));
    fmt::print(
        "RSS now / peak after the model {} / {}, the Simulator {} / {}, initialize {} / {}, "
        "the solve {} / {}\n",
        format_kib(f.model_now_kib), format_kib(f.model_kib), format_kib(f.simulator_now_kib),
        format_kib(f.simulator_kib), format_kib(f.initialize_now_kib), format_kib(f.initialize_kib),
        format_kib(f.solve_now_kib), format_kib(f.solve_kib));
    return 0;
  }

  MarkdownTable memory({"masses", "unknowns", "counters identical", "hdae peak RSS", "raw peak RSS",
                        "hdae bytes / unknown", "raw bytes / unknown", "hdae / raw", "idle child"});
  MarkdownTable phases({"masses", "model", "Simulator", "initialize", "hdae set-up", "hdae solve",
                        "set-up / solve", "raw set-up", "raw solve", "raw set-up / solve"});
  MarkdownTable cpu({"masses", "hdae set-up", "hdae solve", "set-up / solve", "raw set-up",
                     "raw solve", "raw set-up / solve"});
  MarkdownTable growth(
      {"masses", "after the model", "after the Simulator", "after initialize", "after the solve"});
  for (const std::size_t masses : sizes) {
    const std::size_t n = 3 * masses;
    const SizeFigures s = measure_size(masses, options, rounds);
    const HdaeFigures& h = s.hdae.back();
    const RawFigures& r = s.raw.back();
    const bool identical = h.counts == r.counts && h.energy_end == r.energy_end;
    const double ratio =
        static_cast<double>(s.hdae_kib - s.idle_kib) / static_cast<double>(s.raw_kib - s.idle_kib);
    memory.add_row({fmt::format("{}", masses), fmt::format("{}", n),
                    identical ? "yes" : fmt::format("**NO** (raw nst {})", r.counts.steps),
                    format_kib(s.hdae_kib), format_kib(s.raw_kib),
                    bytes_per_unknown(s.hdae_kib, s.idle_kib, n),
                    bytes_per_unknown(s.raw_kib, s.idle_kib, n), format_ratio(ratio),
                    format_kib(s.idle_kib)});
    auto least = [&s](auto field) { return SizeFigures::minimum_of(s.hdae, field); };
    const double setup = least([](const HdaeFigures& f) { return f.setup_s(); });
    const double solve = least([](const HdaeFigures& f) { return f.solve_s; });
    const double raw_setup =
        SizeFigures::minimum_of(s.raw, [](const RawFigures& f) { return f.setup_s; });
    const double raw_solve =
        SizeFigures::minimum_of(s.raw, [](const RawFigures& f) { return f.solve_s; });
    phases.add_row({fmt::format("{}", masses),
                    format_seconds(least([](const HdaeFigures& f) { return f.model_s; })),
                    format_seconds(least([](const HdaeFigures& f) { return f.simulator_s; })),
                    format_seconds(least([](const HdaeFigures& f) { return f.initialize_s; })),
                    format_seconds(setup), format_seconds(solve),
                    fmt::format("{:.1f} %", 100 * setup / solve), format_seconds(raw_setup),
                    format_seconds(raw_solve),
                    fmt::format("{:.1f} %", 100 * raw_setup / raw_solve)});
    const double setup_cpu = least([](const HdaeFigures& f) { return f.setup_cpu_s; });
    const double solve_cpu = least([](const HdaeFigures& f) { return f.solve_cpu_s; });
    const double raw_setup_cpu =
        SizeFigures::minimum_of(s.raw, [](const RawFigures& f) { return f.setup_cpu_s; });
    const double raw_solve_cpu =
        SizeFigures::minimum_of(s.raw, [](const RawFigures& f) { return f.solve_cpu_s; });
    cpu.add_row({fmt::format("{}", masses), format_seconds(setup_cpu), format_seconds(solve_cpu),
                 fmt::format("{:.1f} %", 100 * setup_cpu / solve_cpu),
                 format_seconds(raw_setup_cpu), format_seconds(raw_solve_cpu),
                 fmt::format("{:.1f} %", 100 * raw_setup_cpu / raw_solve_cpu)});
    growth.add_row({fmt::format("{}", masses), bytes_per_unknown(h.model_kib, s.idle_kib, n),
                    bytes_per_unknown(h.simulator_kib, s.idle_kib, n),
                    bytes_per_unknown(h.initialize_kib, s.idle_kib, n),
                    bytes_per_unknown(h.solve_kib, s.idle_kib, n)});
    std::cerr << fmt::format("memory: {} masses done\n", masses);
  }
  fmt::print(
      "#### Peak memory (chain with KLU to {:g} s, rtol 1e-6, {} round(s); peak RSS of each "
      "child, bytes per unknown above the idle child's)\n\n{}\n"
      "#### Set-up and solve in wall time (the least of the rounds)\n\n{}\n"
      "#### Set-up and solve in CPU time (user + system, the least of the rounds)\n\n{}\n"
      "#### hdae's peak RSS per unknown after each phase (bytes, last round)\n\n{}\n",
      stop_s, rounds, memory.str(), phases.str(), cpu.str(), growth.str());
  return 0;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-memory", argc, argv, hdae::bench::run);
}
