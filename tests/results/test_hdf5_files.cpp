// HDF5 result files (hdae/hdf5_result.hpp): what write_result_hdf5 and the streaming Hdf5Sink
// write reads back bit for bit, event log and parameters included, and read_result tells the
// formats apart by content.
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "hdae/hdf5_result.hpp"
#include "hdae/models/ideal_clutch.hpp"
#include "hdae/simulator.hpp"
#include "results/temp_dir.hpp"

using namespace hdae;

namespace {

SimulationResult clutch_run(SimulationOptions o = {}) {
  o.stop_s = 500.0;
  o.rel_tol = 1e-8;
  models::IdealClutch model;
  return simulate(model, o);
}

void check_same_table(const ResultTable& a, const ResultTable& b) {
  REQUIRE(a.num_columns() == b.num_columns());
  for (std::size_t c = 0; c < a.num_columns(); ++c) {
    CHECK(a.columns()[c].name == b.columns()[c].name);
    CHECK(a.columns()[c].unit == b.columns()[c].unit);
    CHECK(a.columns()[c].kind == b.columns()[c].kind);
  }
  REQUIRE(a.num_rows() == b.num_rows());
  CHECK(a.time() == b.time());
  for (std::size_t i = 0; i < a.num_rows(); ++i) {
    const auto ra = a.row(i);
    const auto rb = b.row(i);
    CHECK(std::vector<double>(ra.begin(), ra.end()) == std::vector<double>(rb.begin(), rb.end()));
  }
}

void check_same_events(const std::vector<EventRecord>& a, const std::vector<EventRecord>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t e = 0; e < a.size(); ++e) {
    CHECK(a[e].t == b[e].t);
    CHECK(a[e].kind == b[e].kind);
    CHECK(a[e].iterations == b[e].iterations);
    CHECK(a[e].note == b[e].note);
    CHECK(a[e].time_events == b[e].time_events);
    REQUIRE(a[e].crossings.size() == b[e].crossings.size());
    for (std::size_t k = 0; k < a[e].crossings.size(); ++k) {
      CHECK(a[e].crossings[k].crossing == b[e].crossings[k].crossing);
      CHECK(a[e].crossings[k].direction == b[e].crossings[k].direction);
    }
    REQUIRE(a[e].jumps.size() == b[e].jumps.size());
    for (std::size_t k = 0; k < a[e].jumps.size(); ++k) {
      CHECK(a[e].jumps[k].variable == b[e].jumps[k].variable);
      CHECK(a[e].jumps[k].before == b[e].jumps[k].before);
      CHECK(a[e].jumps[k].after == b[e].jumps[k].after);
    }
    REQUIRE(a[e].time_sensitivities.size() == b[e].time_sensitivities.size());
    for (std::size_t k = 0; k < a[e].time_sensitivities.size(); ++k) {
      CHECK(a[e].time_sensitivities[k].sensitivity == b[e].time_sensitivities[k].sensitivity);
      CHECK(a[e].time_sensitivities[k].value == b[e].time_sensitivities[k].value);
    }
  }
}

}  // namespace

TEST_CASE("an HDF5 result file reads back bit for bit: table, events, parameters, status") {
  const SimulationResult r = clutch_run();
  REQUIRE(r.status.ok());
  const test::TempDir dir;
  const auto file = dir.file("clutch.h5");
  write_result_hdf5(r, file, {{"J1", 0.1, "kg.m2"}, {"J2", 0.4, "kg.m2"}});
  CHECK(is_hdf5_file(file));
  const StoredResult back = read_result(file);
  check_same_table(back.table, r.table);
  check_same_events(back.events, r.events);
  REQUIRE(back.parameters.size() == 2);
  CHECK(back.parameters[1].name == "J2");
  CHECK(back.parameters[1].value == 0.4);
  CHECK(back.parameters[1].unit == "kg.m2");
  CHECK(back.status == std::string(to_string(r.status.outcome)));
  // The clutch locks at t0 with both shafts at 6.4 rad/s (docs/design.md, "The jump solve"),
  // and its time events at 100 s and 300 s are in the log read back.
  REQUIRE(!back.events.empty());
  REQUIRE(back.events[0].jumps.size() >= 2);
  CHECK(back.events[0].jumps[0].variable == "w1");
  CHECK(back.events[0].jumps[0].after == doctest::Approx(6.4).epsilon(1e-9));
  std::vector<double> time_events;
  for (const EventRecord& e : back.events) {
    if (e.kind == EventKind::kTime) time_events.push_back(e.t);
  }
  CHECK(time_events == std::vector<double>{100.0, 300.0});
  // No temporary file is left beside it.
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path()),
                      std::filesystem::directory_iterator()) == 1);
}

TEST_CASE("an HDF5 result file keeps how the event times move with the sensitivities") {
  models::IdealClutchParameters p;
  p.release_s = 20.0;
  p.engage_s = 300.0;
  models::IdealClutch clutch(p);
  SimulationOptions o;
  o.stop_s = 40.0;
  o.sensitivities = {"release"};
  const SimulationResult r = simulate(clutch, o);
  REQUIRE(r.status.ok());
  const test::TempDir dir;
  const auto file = dir.file("release.h5");
  write_result_hdf5(r, file, {});
  const StoredResult back = read_result(file);
  check_same_events(back.events, r.events);
  // The clutch opens at the time event it schedules at t = release: d(t_event)/d(release) = 1,
  // a difference quotient of a linear schedule, exact to the rounding of its step.
  std::size_t releases = 0;
  for (const EventRecord& e : back.events) {
    if (e.kind != EventKind::kTime) continue;
    ++releases;
    CHECK(e.t == 20.0);
    REQUIRE(e.time_sensitivities.size() == 1);
    CHECK(e.time_sensitivities[0].sensitivity == "release");
    CHECK(e.time_sensitivities[0].value == doctest::Approx(1.0).epsilon(1e-9));
  }
  CHECK(releases == 1);
}

TEST_CASE("the streaming HDF5 sink records the selected columns of a run as it goes") {
  const test::TempDir dir;
  const auto file = dir.file("streamed.h5");
  SimulationOptions o;
  o.stop_s = 500.0;
  o.rel_tol = 1e-8;
  o.record_columns = {"w*", "der(*)"};
  o.output_interval_s = 0.01;  // 50000 grid rows: many chunks of /values
  models::IdealClutch model;
  Hdf5Sink sink(file);
  Simulator sim(model, o);
  sim.add_row_sink(sink);
  sim.add_event_observer(sink);
  sim.advance_to(o.stop_s);
  const SimulationResult r = sim.take_result();
  REQUIRE(r.status.ok());
  const StoredResult back = read_result_hdf5(file);
  check_same_table(back.table, r.table);
  check_same_events(back.events, r.events);
  CHECK(back.table.columns().size() == 4);  // w1, w2, der(w1), der(w2)
  CHECK_FALSE(back.status.has_value());     // the sink was not told the status
}

TEST_CASE("read_result reads a CSV as read_csv does, whatever the file is called") {
  const SimulationResult r = clutch_run();
  const test::TempDir dir;
  const auto csv = dir.file("clutch.h5");  // a CSV with a misleading name
  write_csv(r.table, csv);
  CHECK_FALSE(is_hdf5_file(csv));
  const StoredResult back = read_result(csv);
  CHECK(back.table.time() == read_csv(csv).time());
  CHECK(back.events.empty());
}

TEST_CASE("an HDF5 file that is not a result is an error naming the file and what is missing") {
  const test::TempDir dir;
  // A result table file holds no 'columns' group: any HDF5 file of another program.
  const auto file = dir.file("other.h5");
  const ResultTable empty({{"x", "m", ColumnKind::kState}});
  SimulationResult r;
  r.table = empty;
  write_result_hdf5(r, file);
  CHECK(read_result(file).table.num_rows() == 0);
  // Truncated after the signature: HDF5 cannot open it.
  const std::string head = dir.read("other.h5").substr(0, 64);
  const auto broken = dir.write("broken.h5", head);
  CHECK(is_hdf5_file(broken));
  CHECK_THROWS_AS((void)read_result(broken), IoError);
  try {
    (void)read_result(broken);
  } catch (const IoError& e) {
    CHECK(std::string(e.what()).starts_with(broken.string() + ": cannot open it as an HDF5 file"));
  }
  CHECK_THROWS_WITH_AS((void)read_result(dir.file("missing.h5")),
                       (dir.file("missing.h5").string() + ": no such file").c_str(), IoError);
}

namespace {

/// A table of `rows` rows and `columns` columns of arbitrary bit patterns (NaN excluded, so
/// that equality means the same bits).
ResultTable random_table(std::size_t rows, std::size_t columns, std::uint64_t seed) {
  std::vector<ColumnInfo> names;
  for (std::size_t j = 0; j < columns; ++j) {
    names.push_back({"c" + std::to_string(j), "", ColumnKind::kState});
  }
  ResultTable table(names);
  std::mt19937_64 rng(seed);
  std::vector<double> row(columns);
  for (std::size_t i = 0; i < rows; ++i) {
    for (double& v : row) {
      v = std::bit_cast<double>(rng());
      if (std::isnan(v)) v = 0.5;
    }
    table.append(static_cast<double>(i), row);
  }
  return table;
}

void stream(const ResultTable& table, const std::filesystem::path& file,
            std::chrono::milliseconds flush_interval) {
  Hdf5Sink sink(file, flush_interval);
  sink.begin(table.columns());
  for (std::size_t i = 0; i < table.num_rows(); ++i) sink.append(table.time(i), table.row(i));
  sink.end();
}

}  // namespace

TEST_CASE("rows streamed to HDF5 read back bit for bit, whole chunks, partial ones and wide") {
  const test::TempDir dir;
  // 3 columns: chunks of 2730 rows (64 KiB). 6000 rows end in a partial chunk; flushing
  // after every row writes every chunk a row at a time.
  const ResultTable narrow = random_table(6000, 3, 1);
  // 10^4 columns: 80 KB a row, so a row is a chunk, written from the caller's memory.
  const ResultTable wide = random_table(12, 10000, 2);
  for (const auto interval : {std::chrono::milliseconds(0), std::chrono::milliseconds(60000)}) {
    CAPTURE(interval.count());
    stream(narrow, dir.file("narrow.h5"), interval);
    check_same_table(read_result_hdf5(dir.file("narrow.h5")).table, narrow);
    stream(wide, dir.file("wide.h5"), interval);
    check_same_table(read_result_hdf5(dir.file("wide.h5")).table, wide);
  }
}

TEST_CASE("rows streamed faster than the HDF5 writer keeps up all reach the file, in order") {
  const test::TempDir dir;
  // 80 KB rows, 14 to a chunk of the writer's queue (a chunk is handed over once it holds
  // 2^17 values): 120 rows are nine chunks, more than the two the queue holds, so appending
  // waits for the writer (results/background_rows.hpp).
  const ResultTable wide = random_table(120, 10000, 3);
  stream(wide, dir.file("queued.h5"), std::chrono::milliseconds(0));
  check_same_table(read_result_hdf5(dir.file("queued.h5")).table, wide);
}

TEST_CASE("an HDF5 sink destroyed before end() leaves the previous file as it was") {
  const test::TempDir dir;
  const auto file = dir.write("kept.h5", "previous");
  const ResultTable wide = random_table(40, 10000, 4);
  {
    Hdf5Sink sink(file, std::chrono::milliseconds(0));
    sink.begin(wide.columns());
    for (std::size_t i = 0; i < wide.num_rows(); ++i) sink.append(wide.time(i), wide.row(i));
  }  // the writer still has rows queued: they are dropped with the temporary file
  CHECK(dir.read("kept.h5") == "previous");
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path()),
                      std::filesystem::directory_iterator()) == 1);
}

TEST_CASE("a negative flush interval of the HDF5 sink is an error naming it") {
  CHECK_THROWS_WITH_AS(Hdf5Sink("x.h5", std::chrono::milliseconds(-1)),
                       "Hdf5Sink: flush_interval must not be negative (got -1 ms)", OptionError);
}
