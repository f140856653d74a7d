// Where the rows and events of a Co-Simulation run go (tests/fmi/fmus: stair_cs): the sinks of
// SimulationOptions::sinks (the table, CSV and HDF5 files streamed as the run goes) and the
// caller's sinks and observers, as in a Simulator's run; the run's ends from outside (cancel,
// wall-clock limit); and `hdae run` of such an FMU with an HDF5 result, its event log and its
// progress lines.
#include <atomic>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/csv.hpp"
#include "hdae/fmi.hpp"
#include "hdae/hdae_program.hpp"
#include "hdae/hdf5_result.hpp"
#include "results/temp_dir.hpp"
#include "test_fmus.hpp"

using namespace hdae;

namespace {

/// The stair's run to 4.5 s on a grid of 0.625 s, which puts each of its four steps inside a
/// communication step (test_fmi_cosimulation_recording.cpp): rows at t0, 0.625 k and 4.5.
SimulationOptions stair_grid() {
  SimulationOptions o;
  o.stop_s = 4.5;
  o.output_interval_s = 0.625;
  return o;
}

/// Keeps the events it is told of.
class EventList final : public EventObserver {
 public:
  void on_event(const EventRecord& event) override { times.push_back(event.t); }
  std::vector<double> times;
};

void check_stair_rows(const ResultTable& table) {
  REQUIRE(table.num_rows() == 9);
  for (std::size_t row = 0; row < table.num_rows(); ++row) {
    const double t = table.time(row);
    CAPTURE(t);
    // RK4 integrates a constant derivative exactly: only rounding over some 4500 substeps.
    CHECK(std::abs(table.column("x")[row] - test::stair_x(t)) < 1e-10);
  }
}

}  // namespace

TEST_CASE("a Co-Simulation run streams its rows to the CSV and HDF5 files of its sinks") {
  const test::TempDir dir;
  SimulationOptions o = stair_grid();
  o.sinks = {SinkSpec::memory(), SinkSpec::csv(dir.path() / "stair.csv"),
             SinkSpec::hdf5(dir.path() / "stair.h5")};
  const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::test_fmu("stair_cs"));
  const SimulationResult r = fmu->co_simulate(o);
  CHECK(r.status.outcome == Outcome::kReachedStopTime);
  check_stair_rows(r.table);
  check_stair_rows(read_csv(dir.path() / "stair.csv"));
  const StoredResult h5 = read_result_hdf5(dir.path() / "stair.h5");
  check_stair_rows(h5.table);
  // The HDF5 file keeps the event log (the stair's steps at t = 1, 2, 3, 4), the status and
  // the parameters, as a Simulator's run writes them.
  REQUIRE(h5.events.size() == 4);
  for (std::size_t j = 0; j < 4; ++j) CHECK(h5.events[j].t == static_cast<double>(j + 1));
  CHECK(h5.status == "reached stop time");
  // Without the memory sink the rows are in the file only.
  o.sinks = {SinkSpec::csv(dir.path() / "only.csv")};
  const SimulationResult files_only = fmu->co_simulate(o);
  CHECK(files_only.table.num_rows() == 0);
  check_stair_rows(read_csv(dir.path() / "only.csv"));
}

TEST_CASE("a Co-Simulation run hands its rows and events to the caller's sinks and observers") {
  std::vector<double> times;
  FunctionSink rows([&times](double t, std::span<const double> /*values*/) { times.push_back(t); });
  EventList events;
  const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::test_fmu("stair_cs"));
  const SimulationResult r =
      fmu->co_simulate(stair_grid(), {.sinks = {&rows}, .observers = {&events}});
  // The same rows and columns as the table, and the four events of its log.
  REQUIRE(times.size() == r.table.num_rows());
  for (std::size_t row = 0; row < times.size(); ++row) CHECK(times[row] == r.table.time(row));
  CHECK(rows.columns().size() == r.table.columns().size());
  CHECK(events.times == std::vector<double>{1.0, 2.0, 3.0, 4.0});
}

TEST_CASE("a Co-Simulation run ends at its last communication point when cancelled or late") {
  const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::test_fmu("stair_cs"));
  SimulationOptions o = stair_grid();
  const std::atomic<bool> cancel{true};
  o.cancel = &cancel;
  const SimulationResult cancelled = fmu->co_simulate(o);
  // Cancelled before the first step: the row at t0 only.
  CHECK(cancelled.status.outcome == Outcome::kInterrupted);
  CHECK(cancelled.status.message == "interrupted at t = 0");
  CHECK(cancelled.table.num_rows() == 1);
  o.cancel = nullptr;
  // A nanosecond is over before the first step: initialization alone takes longer.
  o.max_wall_time_s = 1e-9;
  const SimulationResult late = fmu->co_simulate(o);
  CHECK(late.status.outcome == Outcome::kWallClockLimit);
  CHECK(late.status.message.find("wall-clock limit of 1e-09 s reached at t = 0") !=
        std::string::npos);
  CHECK(late.table.num_rows() == 1);
}

TEST_CASE("hdae run of a Co-Simulation FMU writes an HDF5 result and the CSV event log") {
  const test::TempDir dir;
  const std::string fmu = test::test_fmu("stair_cs").string();
  const std::string h5 = (dir.path() / "stair.h5").string();
  std::string err;
  REQUIRE(test::hdae_run({"run", fmu, "--output-interval", "0.625", h5}, err) == 0);
  CAPTURE(err);
  const StoredResult r = read_result_hdf5(h5);
  check_stair_rows(r.table);
  CHECK(r.events.size() == 4);
  CHECK(r.status == "reached stop time");
  const std::string csv = (dir.path() / "stair.csv").string();
  REQUIRE(test::hdae_run({"run", fmu, "--output-interval", "0.625", csv}, err) == 0);
  check_stair_rows(read_csv(csv));
  CHECK(std::filesystem::exists(dir.path() / "stair.events.csv"));
}

TEST_CASE("hdae run of a Co-Simulation FMU shows its progress on a terminal") {
  std::ostringstream out;
  std::ostringstream err;
  const examples::ProgramEnvironment terminal{out, err, nullptr, true};
  const test::TempDir dir;
  REQUIRE(cli::run_hdae({"run", test::test_fmu("stair_cs").string(), "--output-interval", "0.625",
                         (dir.path() / "stair.csv").string()},
                        terminal) == 0);
  // The last line says where the run ended: the stop time 4.5 s (the FMU's DefaultExperiment)
  // after the stair's four steps.
  CHECK(err.str().find("t = 4.5 / 4.5 s (100%), 4 events\n") != std::string::npos);
}
