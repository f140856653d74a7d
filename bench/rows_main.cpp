// hdae-bench-rows: a run that produces many result rows (docs/benchmarks.md, "Results at
// scale"): the pendulum to 10 s with an output interval of 1e-5 s (1e6 rows), in hdae
//   - rows kept in memory in the ResultTable, then written with write_csv,
//   - rows kept in memory and streamed to CSV as they are produced (sinks memory and csv),
//   - rows streamed to CSV only (sinks csv alone: bounded memory),
// and in the raw-IDA loop (rows appended to one std::vector, no file). Each run is its own
// child process, for its peak RSS.
//
// Usage: hdae-bench-rows [--smoke] [--rows N]
#include <unistd.h>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include <fmt/format.h>

#include "cases/comparison_cases.hpp"
#include "hdae/csv.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/simulator.hpp"
#include "raw/raw_problems.hpp"
#include "support/arguments.hpp"
#include "support/child_process.hpp"
#include "support/markdown.hpp"
#include "support/timing.hpp"

namespace hdae::bench {
namespace {

struct RowFigures {
  double run_s = 0.0;
  double csv_s = 0.0;
  long rows = 0;
  long columns = 0;
  long csv_bytes = 0;
};

SimulationOptions row_options(double rows) {
  SimulationOptions o;
  o.stop_s = 10.0;
  o.rel_tol = 1e-6;
  o.output_interval_s = o.stop_s / rows;
  return o;
}

int run(const Arguments& args) {
  const bool smoke = args.has("--smoke");
  const double rows = args.number("--rows", smoke ? 1e4 : 1e6);
  const SimulationOptions options = row_options(rows);
  const std::filesystem::path csv_file =
      std::filesystem::temp_directory_path() / fmt::format("hdae-bench-rows-{}.csv", ::getpid());

  // Initial state for the raw run (tiny hdae run, in a child).
  const auto start = measure_in_child<std::array<double, 4>>([] {
    models::Pendulum model;
    SimulationOptions o = row_options(1.0);
    const SimulationResult r = simulate(model, o);
    std::vector<double> x, dx;
    state_of_row(r, 0, x, dx);
    return std::array<double, 4>{x[0], x[1], dx[0], dx[1]};
  });
  const auto baseline = measure_in_child<int>([] { return 0; });

  enum class Mode { kWriteAfter, kStreamAndKeep, kStreamOnly };
  const auto hdae_run = [&](Mode mode) {
    return measure_in_child<RowFigures>([&] {
      models::Pendulum model;
      SimulationOptions o = options;
      if (mode == Mode::kStreamAndKeep) o.sinks = {SinkSpec::memory(), SinkSpec::csv(csv_file)};
      if (mode == Mode::kStreamOnly) o.sinks = {SinkSpec::csv(csv_file)};
      RowFigures f;
      const Clock::time_point t0 = Clock::now();
      const SimulationResult r = simulate(model, o);
      f.run_s = seconds_between(t0, Clock::now());
      if (!r.status.ok()) throw std::runtime_error(r.status.message);
      f.columns = 7;
      if (mode == Mode::kWriteAfter) {
        f.rows = static_cast<long>(r.table.num_rows());
        const Clock::time_point t1 = Clock::now();
        write_csv(r.table, csv_file);
        f.csv_s = seconds_between(t1, Clock::now());
      }
      f.csv_bytes = static_cast<long>(std::filesystem::file_size(csv_file));
      if (mode != Mode::kWriteAfter) {
        // Rows in the streamed file: lines minus the header.
        std::ifstream in(csv_file);
        f.rows = -1;
        for (std::string line; std::getline(in, line);) ++f.rows;
      }
      std::filesystem::remove(csv_file);
      return f;
    });
  };
  const auto after = hdae_run(Mode::kWriteAfter);
  const auto stream_keep = hdae_run(Mode::kStreamAndKeep);
  const auto stream_only = hdae_run(Mode::kStreamOnly);
  const auto raw_run = measure_in_child<RowFigures>([&] {
    raw::RawPendulum problem;
    raw::RawSetup setup;
    setup.n = 2;
    setup.residual = &raw::RawPendulum::residual;
    setup.user_data = &problem;
    setup.rel_tol = options.rel_tol;
    setup.abs_tol.assign(2, options.abs_tol_factor * options.rel_tol * 1.0);
    setup.id.assign(2, 1.0);
    raw::GridRunSpec spec;
    spec.stop_s = options.stop_s;
    spec.output_interval_s = options.resolved_output_interval_s();
    spec.outputs = &raw::RawPendulum::outputs;
    spec.num_outputs = 2;
    spec.problem = &problem;
    RowFigures f;
    const Clock::time_point t0 = Clock::now();
    const raw::GridRunResult r = raw::run_grid(setup, spec, {start.value[0], start.value[1]},
                                               {start.value[2], start.value[3]});
    f.run_s = seconds_between(t0, Clock::now());
    f.rows = static_cast<long>(r.rows);
    f.columns = 7;
    return f;
  });

  const RowFigures& r = raw_run.value;
  const double table_mib = static_cast<double>(after.value.rows) *
                           static_cast<double>(after.value.columns) * 8.0 / (1024.0 * 1024.0);
  MarkdownTable table(
      {"program", "rows", "run time", "per row", "peak RSS", "CSV written", "CSV size"});
  const auto add = [&table](const std::string& name, const ChildResult<RowFigures>& c,
                            const std::string& csv) {
    const RowFigures& f = c.value;
    table.add_row({name, fmt::format("{}", f.rows), format_seconds(f.run_s),
                   format_seconds(f.run_s / static_cast<double>(f.rows)), format_kib(c.max_rss_kib),
                   csv, fmt::format("{:.1f} MiB", static_cast<double>(f.csv_bytes) / 1048576.0)});
  };
  add("hdae, table in memory, write_csv afterwards", after,
      fmt::format("afterwards, {}", format_seconds(after.value.csv_s)));
  add("hdae, table in memory and streamed to CSV", stream_keep, "during the run");
  add("hdae, streamed to CSV only (sinks = {csv})", stream_only, "during the run");
  table.add_row({"raw IDA, rows in one std::vector", fmt::format("{}", r.rows),
                 format_seconds(r.run_s), format_seconds(r.run_s / static_cast<double>(r.rows)),
                 format_kib(raw_run.max_rss_kib), "-", "-"});
  fmt::print(
      "#### Pendulum to 10 s, output interval {:g} s ({} columns incl. time: the table "
      "itself is {:.1f} MiB; an idle child's peak RSS is {})\n\n{}\n",
      options.resolved_output_interval_s(), after.value.columns, table_mib,
      format_kib(baseline.max_rss_kib), table.str());
  return 0;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-rows", argc, argv, hdae::bench::run);
}
