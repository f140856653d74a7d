// The row sinks a run makes from SimulationOptions::sinks (results/run_sinks.hpp): the table
// in memory, a CSV and an HDF5 file get the same rows, bit for bit, as a sink the user adds;
// the options name the sinks in a text form too (SinkSpec::parse), and validate() refuses a
// malformed list naming the entry and the rule.
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <utility>
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

/// The rows as a table of their own, for comparing what the sinks got.
class CopySink final : public RowSink {
 public:
  void begin(const std::vector<ColumnInfo>& columns) override { table_ = ResultTable(columns); }
  void append(double t, std::span<const double> values) override { table_.append(t, values); }
  [[nodiscard]] const ResultTable& table() const { return table_; }

 private:
  ResultTable table_;
};

/// The number of values that differ between the tables (0 when they are the same bit for bit,
/// names and times included).
std::size_t differences(const ResultTable& a, const ResultTable& b) {
  REQUIRE(a.num_rows() == b.num_rows());
  REQUIRE(a.num_columns() == b.num_columns());
  std::size_t differing = 0;
  for (std::size_t j = 0; j < a.num_columns(); ++j) {
    if (a.columns()[j].name != b.columns()[j].name) ++differing;
  }
  for (std::size_t i = 0; i < a.num_rows(); ++i) {
    if (a.time(i) != b.time(i)) ++differing;
    for (std::size_t j = 0; j < a.num_columns(); ++j) {
      if (a.value(i, j) != b.value(i, j)) ++differing;
    }
  }
  return differing;
}

/// The clutch's run: Dirac impulses at t0 and 300 s, time events at 100 s and 300 s, so the
/// rows include both limits of events.
SimulationOptions clutch_options(std::vector<SinkSpec> sinks) {
  SimulationOptions o;
  o.stop_s = 500.0;
  o.rel_tol = 1e-8;
  o.sinks = std::move(sinks);
  return o;
}

}  // namespace

TEST_CASE("the sinks of SimulationOptions::sinks get the rows an added sink gets, bit for bit") {
  const test::TempDir dir;
  models::IdealClutch model;
  Simulator sim(model, clutch_options({SinkSpec::memory(), SinkSpec::csv(dir.file("run.csv")),
                                       SinkSpec::hdf5(dir.file("run.h5"))}));
  CopySink added;
  sim.add_row_sink(added);
  sim.advance_to(500.0);
  const SimulationResult r = sim.take_result();
  REQUIRE(r.status.ok());
  REQUIRE(added.table().num_rows() > 500);  // the grid of 500 intervals and the event rows
  CHECK(differences(r.table, added.table()) == 0);
  CHECK(differences(read_csv(dir.file("run.csv")), added.table()) == 0);
  const StoredResult h5 = read_result_hdf5(dir.file("run.h5"));
  CHECK(differences(h5.table, added.table()) == 0);
  // The HDF5 file made by the run holds what write_result_hdf5 would: the event log, the
  // model's parameters and the status.
  CHECK(h5.events.size() == r.events.size());
  REQUIRE(h5.parameters.size() == model.structure().parameters.size());
  for (std::size_t k = 0; k < h5.parameters.size(); ++k) {
    CHECK(h5.parameters[k].name == model.structure().parameters[k].name);
    CHECK(h5.parameters[k].value == model.structure().parameters[k].value);
  }
  CHECK(h5.status == std::string(to_string(Outcome::kReachedStopTime)));
}

TEST_CASE("without a memory sink the table stays empty and the files hold every row") {
  const test::TempDir dir;
  models::IdealClutch in_memory_model;
  const SimulationResult in_memory = simulate(in_memory_model, clutch_options({SinkSpec{}}));
  models::IdealClutch model;
  const SimulationResult r = simulate(
      model, clutch_options({SinkSpec::hdf5(dir.file("run.h5")), SinkSpec::csv(dir.file("c"))}));
  REQUIRE(r.status.ok());
  CHECK(r.table.num_rows() == 0);
  CHECK(differences(read_result_hdf5(dir.file("run.h5")).table, in_memory.table) == 0);
  CHECK(differences(read_csv(dir.file("c")), in_memory.table) == 0);
  // A Simulator that never starts its run opens no file.
  {
    models::IdealClutch idle;
    const Simulator never_run(idle, clutch_options({SinkSpec::hdf5(dir.file("idle.h5")),
                                                    SinkSpec::csv(dir.file("idle.csv"))}));
  }
  CHECK_FALSE(std::filesystem::exists(dir.file("idle.h5")));
  CHECK_FALSE(std::filesystem::exists(dir.file("idle.csv")));
  // No sink at all: the run goes on; its rows go nowhere (the user adds sinks of their own).
  const SimulationResult none = simulate(model, clutch_options({}));
  CHECK(none.status.ok());
  CHECK(none.table.num_rows() == 0);
}

TEST_CASE("a sink is written as text memory, csv:<file> or hdf5:<file>") {
  CHECK(SinkSpec::parse("memory") == SinkSpec::memory());
  CHECK(SinkSpec::parse("csv:out/run.csv") == SinkSpec::csv("out/run.csv"));
  CHECK(SinkSpec::parse("hdf5:a:b.h5") == SinkSpec::hdf5("a:b.h5"));  // the first ':' only
  CHECK(to_string(SinkSpec::hdf5("run.h5")) == "hdf5:run.h5");
  CHECK(to_string(SinkSpec::parse("csv:run.csv")) == "csv:run.csv");
  CHECK(to_string(SinkSpec::memory()) == "memory");
  for (const char* bad : {"", "Memory", "csv", "csv:", "h5:run.h5", "run.csv"}) {
    CAPTURE(bad);
    const std::string expected =
        "SimulationOptions::sinks entry must be 'memory', 'csv:<file>' or 'hdf5:<file>', got '" +
        std::string(bad) + "'";
    CHECK_THROWS_WITH_AS(static_cast<void>(SinkSpec::parse(bad)), expected.c_str(), OptionError);
  }
}

TEST_CASE("a malformed list of sinks is refused naming the entry and the rule") {
  SimulationOptions o;
  o.sinks = {SinkSpec{.kind = SinkKind::kMemory, .file = "run.csv"}};
  CHECK_THROWS_WITH_AS(o.validate(),
                       "SimulationOptions::sinks[0] is kMemory, which writes no file, but names "
                       "the file 'run.csv'",
                       OptionError);
  o.sinks = {SinkSpec::memory(), SinkSpec{.kind = SinkKind::kHdf5}};
  CHECK_THROWS_WITH_AS(o.validate(),
                       "SimulationOptions::sinks[1] is kHdf5 and must name a file, got an empty "
                       "path",
                       OptionError);
  o.sinks = {SinkSpec::csv(std::string("a\0b.csv", 7))};
  CHECK_THROWS_WITH_AS(o.validate(),
                       "SimulationOptions::sinks[0] names a file with a NUL character, which no "
                       "file system accepts",
                       OptionError);
  o.sinks = {SinkSpec::memory(), SinkSpec::csv("run.csv"), SinkSpec::memory()};
  CHECK_THROWS_WITH_AS(
      o.validate(),
      "SimulationOptions::sinks[2] repeats sinks[0]: the rows are kept in memory once",
      OptionError);
  // One file written by two sinks, also under two spellings of its path.
  o.sinks = {SinkSpec::csv("out/run.csv"), SinkSpec::hdf5("out/./run.csv")};
  CHECK_THROWS_WITH_AS(o.validate(),
                       "SimulationOptions::sinks[1] writes the file 'out/./run.csv' of sinks[0]; "
                       "a file holds the rows of one sink",
                       OptionError);
  o.sinks = {SinkSpec::csv("run.csv"), SinkSpec::hdf5("run.h5"), SinkSpec::memory()};
  CHECK_NOTHROW(o.validate());
}
