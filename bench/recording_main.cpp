// hdae-bench-recording: what recording the rows costs (docs/benchmarks.md, "Recording"): the
// mass-spring chain of 10^4 masses (3 10^4 unknowns, KLU) to 10 s, run
//   - with a grid of one interval (two rows): the solve without making rows (the same IDA
//     steps as the others: every run starts with the same first step),
// and with the grid of 500 intervals, its rows
//   - recorded nowhere (only counted): the solve, with the rows made (interpolated from IDA's
//     last step, outputs evaluated, assembled) as every way below makes them,
//   - kept in the in-memory table (TableSink, what SinkSpec::memory() in the options makes),
//   - streamed to CSV (CsvSink, what SinkSpec::csv makes),
//   - streamed to an HDF5 file (Hdf5Sink, what SinkSpec::hdf5 makes).
// Two measures per way. The run's CPU time (user + system) against the solve's: each run is its
// own child process, the ways take turns round after round (their order rotated) and the least
// times of the rounds are compared; this includes what recording costs outside the sink (freeing
// the table, caches the solve finds cold), but on a shared machine the load changes CPU times by
// tens of percent from one run to the next, far more than the cost of a few percent looked for. And
// the CPU time spent inside the sink's calls (begin, append, end), measured per call with the
// thread's CPU clock, over the CPU time of the rest of the same run: the load slows both alike, so
// their ratio holds where differences between runs do not. The targets: CSV at most 10 % of the
// solve, checked on the process's CPU time (its writer thread makes the text outside the sink's
// calls), HDF5 at most 3 %, checked on the sink's share (the least of the rounds). The sink's time
// is also given per row and per value. The file sizes give the bytes per recorded value, time
// included (rows x (columns + 1)).
//
// Usage: hdae-bench-recording [--smoke] [--masses N] [--rounds R]
//        hdae-bench-recording --only rowless|none|table|csv|hdf5 [--masses N]
// --only runs one way once in this process (for a profiler: valgrind --tool=callgrind,
// perf record) and prints its figures; "rowless" is the run with two rows.
#include <sys/resource.h>
#include <unistd.h>

#include <array>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cases/comparison_cases.hpp"
#include "hdae/hdf5_result.hpp"
#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/simulator.hpp"
#include "support/arguments.hpp"
#include "support/child_process.hpp"
#include "support/markdown.hpp"
#include "support/timing.hpp"

namespace hdae::bench {
namespace {

/// The first step of every run (a thousandth of the grid's first interval).
constexpr double kInitialStepSeconds = 2e-5;
/// The targets: streaming to CSV costs at most the first fraction of the solve, to HDF5 the
/// second.
constexpr double kCsvTargetFraction = 0.10;
constexpr double kHdf5TargetFraction = 0.03;

enum class Way { kRowless, kNone, kTable, kCsv, kHdf5 };
constexpr std::array<Way, 5> kWays = {Way::kRowless, Way::kNone, Way::kTable, Way::kCsv,
                                      Way::kHdf5};
constexpr std::array<const char*, 5> kWayKeys = {"rowless", "none", "table", "csv", "hdf5"};
/// The way whose run is "the solve" that recording costs are relative to.
constexpr std::size_t kSolve = 1;
constexpr std::size_t kCsv = 3;
constexpr std::size_t kHdf5 = 4;
static_assert(kWays[kSolve] == Way::kNone && kWays[kCsv] == Way::kCsv &&
              kWays[kHdf5] == Way::kHdf5);

const char* name_of(Way way) {
  switch (way) {
    case Way::kRowless:
      return "two rows only (no grid)";
    case Way::kNone:
      return "none (the solve)";
    case Way::kTable:
      return "in-memory table";
    case Way::kCsv:
      return "CSV, streamed";
    case Way::kHdf5:
      return "HDF5, streamed";
  }
  return "";
}

/// CPU time (user + system) of the calling thread, in seconds.
double thread_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/// Passes every call on to a sink and adds up the CPU time spent in it.
class TimedSink final : public RowSink {
 public:
  explicit TimedSink(RowSink& inner) : inner_(inner) {}
  void begin(const std::vector<ColumnInfo>& columns) override {
    timed([&] { inner_.begin(columns); });
  }
  void append(double t, std::span<const double> values) override {
    timed([&] { inner_.append(t, values); });
  }
  void end() override {
    timed([&] { inner_.end(); });
  }
  [[nodiscard]] double cpu_s() const { return cpu_s_; }

 private:
  template <class F>
  void timed(F&& f) {
    const double start = thread_cpu_seconds();
    f();
    cpu_s_ += thread_cpu_seconds() - start;
  }

  RowSink& inner_;
  double cpu_s_ = 0.0;
};

struct RunFigures {
  double run_s = 0.0;
  double cpu_s = 0.0;   ///< user + system time of the run: less sensitive to the machine's load
  double sink_s = 0.0;  ///< CPU time inside the sink's calls
  long minor_faults = 0;
  long steps = 0;
  long rows = 0;
  long columns = 0;
  long file_bytes = 0;
};

long minor_faults() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

/// The sink of a way, or nullptr for none.
std::unique_ptr<RowSink> sink_of(Way way, const std::filesystem::path& file) {
  switch (way) {
    case Way::kRowless:
    case Way::kNone:
      return nullptr;
    case Way::kTable:
      return std::make_unique<TableSink>();
    case Way::kCsv:
      return std::make_unique<CsvSink>(file);
    case Way::kHdf5:
      return std::make_unique<Hdf5Sink>(file);
  }
  return nullptr;
}

RunFigures run_once(Way way, std::size_t masses, const std::filesystem::path& file) {
  SimulationOptions o = chain_options(10.0, LinearSolverKind::kKlu, way == Way::kRowless ? 1 : 500);
  // IDA's own first step depends on the first output time: one step size for all ways makes
  // the run with two rows take the very steps of the others.
  o.initial_step_s = kInitialStepSeconds;
  o.sinks.clear();  // each way's sink is added by hand, to time its calls
  models::MassSpringChain model({.masses = masses});
  long rows = 0;
  FunctionSink counter([&rows](double, std::span<const double>) { ++rows; });
  RunFigures f;
  const long faults_start = minor_faults();
  const double cpu_start = cpu_seconds();
  const Clock::time_point start = Clock::now();
  {
    const std::unique_ptr<RowSink> sink = sink_of(way, file);
    std::optional<TimedSink> timed;
    Simulator sim(model, o);
    sim.add_row_sink(counter);
    if (sink) sim.add_row_sink(timed.emplace(*sink));
    if (sim.advance_to(o.stop_s).outcome != Outcome::kReachedStopTime) {
      throw std::runtime_error(sim.status().message);
    }
    f.steps = static_cast<long>(sim.take_result().statistics.steps);  // ends the sinks
    f.columns = static_cast<long>(counter.columns().size());
    f.sink_s = timed ? timed->cpu_s() : 0.0;
  }  // the table is freed here, within the run's time
  f.run_s = seconds_between(start, Clock::now());
  f.cpu_s = cpu_seconds() - cpu_start;
  f.minor_faults = minor_faults() - faults_start;
  f.rows = rows;
  if (way == Way::kCsv || way == Way::kHdf5) {
    f.file_bytes = static_cast<long>(std::filesystem::file_size(file));
    std::filesystem::remove(file);
  }
  return f;
}

std::filesystem::path file_for(Way way) {
  return std::filesystem::temp_directory_path() /
         fmt::format("hdae-bench-recording-{}{}", ::getpid(), way == Way::kHdf5 ? ".h5" : ".csv");
}

int run_only(const std::string& key, std::size_t masses) {
  for (std::size_t w = 0; w < kWays.size(); ++w) {
    if (key != kWayKeys[w]) continue;
    const RunFigures f = run_once(kWays[w], masses, file_for(kWays[w]));
    fmt::print(
        "{}: {} steps, {} rows x {} columns, run {:.3f} s, CPU {:.3f} s, in the sink "
        "{:.3f} s, {} minor page faults, file {} bytes\n",
        name_of(kWays[w]), f.steps, f.rows, f.columns, f.run_s, f.cpu_s, f.sink_s, f.minor_faults,
        f.file_bytes);
    return 0;
  }
  throw std::invalid_argument(
      fmt::format("--only {}: expected rowless, none, table, csv or hdf5", key));
}

constexpr std::size_t kNumWays = kWays.size();

struct Samples {
  std::array<std::vector<double>, kNumWays> run_s;
  std::array<std::vector<double>, kNumWays> cpu_s;
  std::array<std::vector<double>, kNumWays> sink_s;
  /// The sink's CPU time over the rest of the same run's: both slowed alike by the load.
  std::array<std::vector<double>, kNumWays> sink_share;
  std::array<RunFigures, kNumWays> last{};
  std::array<long, kNumWays> rss_kib{};
};

/// rounds x every way, each run in a child process, the order rotated every round.
Samples measure(std::size_t masses, std::size_t rounds) {
  Samples samples;
  for (std::size_t round = 0; round < rounds; ++round) {
    for (std::size_t k = 0; k < kNumWays; ++k) {
      const std::size_t w = (k + round) % kNumWays;
      const Way way = kWays[w];
      const std::filesystem::path file = file_for(way);
      const auto child = measure_in_child<RunFigures>([&] { return run_once(way, masses, file); });
      samples.run_s[w].push_back(child.value.run_s);
      samples.cpu_s[w].push_back(child.value.cpu_s);
      samples.sink_s[w].push_back(child.value.sink_s);
      samples.sink_share[w].push_back(child.value.sink_s /
                                      (child.value.cpu_s - child.value.sink_s));
      samples.last[w] = child.value;
      samples.rss_kib[w] = std::max(samples.rss_kib[w], child.max_rss_kib);
    }
  }
  return samples;
}

std::string percent_of(double part, double whole) {
  return fmt::format("{:+.1f} %", 100.0 * part / whole);
}

/// The CSV target is judged on the process's CPU time against the solve's: its text is made on
/// a writer thread, outside the run thread's sink calls. HDF5 writes on the run's thread, and
/// its target is judged on the sink's share of its own run, which the load moves little.
std::string target_of(const Samples& samples, std::size_t w) {
  if (w != kCsv && w != kHdf5) return "-";
  const double solve_cpu_s = minimum(samples.cpu_s[kSolve]);
  const double share = w == kCsv ? (minimum(samples.cpu_s[w]) - solve_cpu_s) / solve_cpu_s
                                 : minimum(samples.sink_share[w]);
  const double target = w == kCsv ? kCsvTargetFraction : kHdf5TargetFraction;
  return fmt::format("<= {:.0f} % ({}): {}", 100.0 * target,
                     w == kCsv ? "against the solve" : "sink / rest",
                     share <= target ? "met" : "**not met**");
}

std::vector<std::string> table_row(const Samples& samples, std::size_t w) {
  const RunFigures& f = samples.last[w];
  const double solve_cpu_s = minimum(samples.cpu_s[kSolve]);
  const double cpu_s = minimum(samples.cpu_s[w]);
  const double sink_s = minimum(samples.sink_s[w]);
  const double rows = static_cast<double>(f.rows);
  const double values = rows * static_cast<double>(f.columns + 1);
  const bool sink = kWays[w] != Way::kRowless && kWays[w] != Way::kNone;
  const bool file = f.file_bytes > 0;
  const double mib = static_cast<double>(f.file_bytes) / 1048576.0;
  return {name_of(kWays[w]),
          format_seconds(cpu_s),
          w == kSolve ? "-" : percent_of(cpu_s - solve_cpu_s, solve_cpu_s),
          format_seconds(minimum(samples.run_s[w])),
          sink ? format_seconds(sink_s) : "-",
          sink ? fmt::format("{:.1f} %", 100.0 * minimum(samples.sink_share[w])) : "-",
          target_of(samples, w),
          sink ? format_seconds(sink_s / rows) : "-",
          sink ? fmt::format("{:.1f} ns", 1e9 * sink_s / values) : "-",
          format_kib(samples.rss_kib[w]),
          file ? fmt::format("{:.1f} MiB", mib) : "-",
          file ? fmt::format("{:.3f}", static_cast<double>(f.file_bytes) / values) : "-"};
}

int run(const Arguments& args) {
  const bool smoke = args.has("--smoke");
  const auto masses = static_cast<std::size_t>(args.number("--masses", smoke ? 100 : 10000));
  if (const std::string only = args.value("--only", ""); !only.empty()) {
    return run_only(only, masses);
  }
  const auto rounds = static_cast<std::size_t>(args.number("--rounds", smoke ? 1 : 5));
  const Samples samples = measure(masses, rounds);
  MarkdownTable table({"rows recorded to", "CPU time", "against the solve", "run time",
                       "CPU in the sink", "sink / rest of its run", "target", "per row",
                       "per value", "peak RSS", "file size", "bytes per value"});
  for (std::size_t w = 0; w < kNumWays; ++w) table.add_row(table_row(samples, w));
  const RunFigures& grid = samples.last[kSolve];
  fmt::print(
      "#### Chain of {} masses ({} unknowns, KLU) to 10 s: {} rows x {} columns (+ time), "
      "the least of {} rounds\n\n{}",
      masses, 3 * masses, grid.rows, grid.columns, rounds, table.str());
  return 0;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-recording", argc, argv, hdae::bench::run);
}
