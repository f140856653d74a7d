// hdae-bench-recording: what recording the rows costs (docs/benchmarks.md, "Recording"): the
// mass-spring chain of 10^4 masses (3 10^4 unknowns, KLU) to 10 s with the default grid of
// 500 intervals, its rows
//   - recorded nowhere (RowStorage::kSinksOnly without a sink): the solve alone,
//   - kept in the in-memory table (RowStorage::kInMemory),
//   - streamed to CSV only (stream_csv_path, RowStorage::kStreamOnly),
//   - streamed to an HDF5 file only (an Hdf5Sink, RowStorage::kSinksOnly).
// Each run is its own child process; the four ways take turns, round after round (their order
// rotated), and the medians are compared, since the machine is shared. The file sizes give
// the bytes per recorded value, time included (rows x (columns + 1) values).
//
// Usage: hdae-bench-recording [--smoke] [--masses N] [--rounds R]
#include <unistd.h>

#include <array>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cases/comparison_cases.hpp"
#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/result_file.hpp"
#include "hdae/simulator.hpp"
#include "support/arguments.hpp"
#include "support/child_process.hpp"
#include "support/markdown.hpp"
#include "support/timing.hpp"

namespace hdae::bench {
namespace {

enum class Way { kNone, kTable, kCsv, kHdf5 };
constexpr std::array<Way, 4> kWays = {Way::kNone, Way::kTable, Way::kCsv, Way::kHdf5};

const char* name_of(Way way) {
  switch (way) {
    case Way::kNone:
      return "none (the solve alone)";
    case Way::kTable:
      return "in-memory table";
    case Way::kCsv:
      return "CSV, streamed";
    case Way::kHdf5:
      return "HDF5, streamed";
  }
  return "";
}

struct RunFigures {
  double run_s = 0.0;
  double cpu_s = 0.0;  ///< user + system time of the run: less sensitive to the machine's load
  long rows = 0;
  long columns = 0;
  long file_bytes = 0;
};

RunFigures run_once(Way way, std::size_t masses, const std::filesystem::path& file) {
  SimulationOptions o = chain_options(10.0, LinearSolverKind::kKlu, 500);
  o.row_storage = way == Way::kTable ? RowStorage::kInMemory : RowStorage::kSinksOnly;
  if (way == Way::kCsv) {
    o.stream_csv_path = file;
    o.row_storage = RowStorage::kStreamOnly;
  }
  models::MassSpringChain model({.masses = masses});
  Hdf5Sink hdf5(file);
  long rows = 0;
  FunctionSink counter([&rows](double, std::span<const double>) { ++rows; });
  RunFigures f;
  const double cpu_start = cpu_seconds();
  const Clock::time_point start = Clock::now();
  {
    Simulator sim(model, o);
    sim.add_row_sink(counter);
    if (way == Way::kHdf5) sim.add_row_sink(hdf5);
    if (sim.advance_to(o.stop_s).outcome != Outcome::kReachedStopTime) {
      throw std::runtime_error(sim.status().message);
    }
    (void)sim.take_result();  // ends the sinks: the files are complete
    f.columns = static_cast<long>(counter.columns().size());
  }
  f.run_s = seconds_between(start, Clock::now());
  f.cpu_s = cpu_seconds() - cpu_start;
  f.rows = rows;
  if (way == Way::kCsv || way == Way::kHdf5) {
    f.file_bytes = static_cast<long>(std::filesystem::file_size(file));
    std::filesystem::remove(file);
  }
  return f;
}

int run(const Arguments& args) {
  const bool smoke = args.has("--smoke");
  const auto masses = static_cast<std::size_t>(args.number("--masses", smoke ? 100 : 10000));
  const auto rounds = static_cast<std::size_t>(args.number("--rounds", smoke ? 1 : 3));
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  std::array<std::vector<double>, 4> seconds;
  std::array<std::vector<double>, 4> cpu;
  std::array<RunFigures, 4> figures{};
  std::array<long, 4> rss{};
  for (std::size_t round = 0; round < rounds; ++round) {
    for (std::size_t k = 0; k < kWays.size(); ++k) {
      const std::size_t w = (k + round) % kWays.size();
      const Way way = kWays[w];
      const std::filesystem::path file = dir / fmt::format("hdae-bench-recording-{}{}", ::getpid(),
                                                           way == Way::kHdf5 ? ".h5" : ".csv");
      const auto child = measure_in_child<RunFigures>([&] { return run_once(way, masses, file); });
      seconds[w].push_back(child.value.run_s);
      cpu[w].push_back(child.value.cpu_s);
      figures[w] = child.value;
      rss[w] = std::max(rss[w], child.max_rss_kib);
    }
  }
  const double solve_s = median(seconds[0]);
  const double solve_cpu_s = median(cpu[0]);
  MarkdownTable table({"rows recorded to", "run time (median)", "recording cost",
                       "CPU time (median)", "recording cost (CPU)", "peak RSS", "file size",
                       "bytes per value"});
  for (std::size_t w = 0; w < kWays.size(); ++w) {
    const RunFigures& f = figures[w];
    const double run_s = median(seconds[w]);
    const double cpu_s = median(cpu[w]);
    const auto cost = [w](double s, double base) {
      return w == 0 ? std::string("-") : fmt::format("{:+.1f} %", 100.0 * (s - base) / base);
    };
    const double values = static_cast<double>(f.rows) * static_cast<double>(f.columns + 1);
    const bool file = f.file_bytes > 0;
    table.add_row(
        {name_of(kWays[w]), format_seconds(run_s), cost(run_s, solve_s), format_seconds(cpu_s),
         cost(cpu_s, solve_cpu_s), format_kib(rss[w]),
         file ? fmt::format("{:.1f} MiB", static_cast<double>(f.file_bytes) / 1048576.0) : "-",
         file ? fmt::format("{:.3f}", static_cast<double>(f.file_bytes) / values) : "-"});
  }
  const RunFigures& any = figures[0];
  fmt::print(
      "#### Chain of {} masses ({} unknowns, KLU) to 10 s: {} rows x {} columns (+ time), "
      "{} rounds\n\n{}\n",
      masses, 3 * masses, any.rows, any.columns, rounds, table.str());
  return 0;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-recording", argc, argv, hdae::bench::run);
}
