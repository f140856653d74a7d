// Streamed CSV (CsvStreamWriter, CsvSink, SimulationOptions::sinks): rows wider than
// the writer's 64 KiB chunk come out as write_csv writes them and read back bit for bit, and a
// run interrupted while streaming leaves a CSV of whole rows, the rows of the same run
// uninterrupted up to where it stopped.
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/csv.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/simulator.hpp"
#include "results/temp_dir.hpp"

using namespace hdae;

namespace {

bool same_bits(double a, double b) {
  // Every NaN is written as "nan": for NaN only NaN-ness survives.
  if (std::isnan(a)) return std::isnan(b);
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

/// How many values of b differ from a's in their bits (time included); -1 when the shapes
/// differ.
long differing_values(const ResultTable& a, const ResultTable& b, std::size_t rows) {
  if (a.num_columns() != b.num_columns() || a.num_rows() < rows || b.num_rows() < rows) return -1;
  long differing = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    if (!same_bits(a.time(i), b.time(i))) ++differing;
    for (std::size_t j = 0; j < a.num_columns(); ++j) {
      if (!same_bits(a.value(i, j), b.value(i, j))) ++differing;
    }
  }
  return differing;
}

}  // namespace

TEST_CASE("rows wider than a chunk stream as write_csv writes them and read back bit for bit") {
  // 5000 columns of any bit pattern: about 100 KB of text per row, more than the 64 KiB the
  // writer hands to the file at a time, so every row is written on its own.
  std::vector<ColumnInfo> columns;
  for (int j = 0; j < 5000; ++j)
    columns.push_back({"c" + std::to_string(j), "", ColumnKind::kState});
  ResultTable table(columns);
  std::mt19937_64 rng(42);
  std::vector<double> row(columns.size());
  for (int i = 0; i < 7; ++i) {
    for (double& v : row) v = std::bit_cast<double>(rng());
    table.append(0.25 * i, row);
  }
  const test::TempDir dir;
  {
    CsvStreamWriter writer(dir.file("streamed.csv"), columns);
    for (std::size_t i = 0; i < table.num_rows(); ++i) writer.append(table.time(i), table.row(i));
    writer.close();
  }
  write_csv(table, dir.file("whole.csv"));
  const std::string streamed = dir.read("streamed.csv");
  CHECK(streamed.size() > 7 * (std::size_t{1} << 16));
  CHECK(streamed == dir.read("whole.csv"));
  CHECK(differing_values(read_csv(dir.file("streamed.csv")), table, table.num_rows()) == 0);
}

TEST_CASE("a run interrupted while streaming leaves a CSV of whole rows, the run's rows so far") {
  const test::TempDir dir;
  SimulationOptions o;
  o.stop_s = 10.0;
  o.output_interval_s = 0.01;  // 1000 grid rows
  o.log_level = LogLevel::kOff;
  models::Pendulum uninterrupted_model;
  const SimulationResult uninterrupted = simulate(uninterrupted_model, o);
  REQUIRE(uninterrupted.status.ok());

  // The same run, streamed, with the cancel flag raised by a sink once 300 rows are out.
  std::atomic<bool> cancel{false};
  o.cancel = &cancel;
  o.sinks = {SinkSpec::memory(), SinkSpec::csv(dir.file("run.csv"))};
  models::Pendulum model;
  Simulator sim(model, o);
  std::size_t rows = 0;
  FunctionSink counter([&](double, std::span<const double>) {
    if (++rows == 300) cancel = true;
  });
  sim.add_row_sink(counter);
  sim.advance_to(o.stop_s);
  const SimulationResult interrupted = sim.take_result();
  REQUIRE(interrupted.status.outcome == Outcome::kInterrupted);

  const std::string text = dir.read("run.csv");
  REQUIRE_FALSE(text.empty());
  CHECK(text.back() == '\n');  // ends at a complete row
  const ResultTable streamed = read_csv(dir.file("run.csv"));
  // Every row the run handed out is in the file, as the in-memory table holds it.
  REQUIRE(streamed.num_rows() == interrupted.table.num_rows());
  CHECK(streamed.num_rows() == rows);
  CHECK(differing_values(streamed, interrupted.table, streamed.num_rows()) == 0);
  // Up to the interruption these are the uninterrupted run's rows: a prefix of its result.
  CHECK(streamed.num_rows() >= 300);
  CHECK(differing_values(streamed, uninterrupted.table, 300) == 0);
}
