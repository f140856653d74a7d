// What a Co-Simulation run records (tests/fmi/fmus: decay_both, stair_cs, bouncing_ball_cs):
// the columns and rows SimulationOptions::record_* select, chosen as in a Model Exchange run of
// the same FMU, with the same error for a column the FMU lacks, from C++ and from `hdae run`;
// and the event log of the events the FMU reports by returning early from fmi3DoStep.
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "hdae/fmi.hpp"
#include "hdae/hdae_program.hpp"
#include "hdae/simulator.hpp"
#include "results/temp_dir.hpp"
#include "test_fmus.hpp"

using namespace hdae;

namespace {

/// The decay der(x) = -k x + u from x(0) = 1: x(t) = u/k + (1 - u/k) exp(-k t).
double decay(double t, double k, double u) { return u / k + (1.0 - u / k) * std::exp(-k * t); }

std::unique_ptr<fmi::Fmu> decay_both(fmi::Interface wanted) {
  std::unique_ptr<fmi::Fmu> fmu =
      fmi::load(test::test_fmu("decay_both"), {.fmi_interface = wanted});
  fmu->set_parameter("k", 2.0);
  fmu->set_parameter("u", 3.0);
  return fmu;
}

/// The FMU's run through the interface it was loaded with.
SimulationResult run(fmi::Fmu& fmu, const SimulationOptions& options) {
  if (fmu.info().fmi_interface == fmi::Interface::kCoSimulation) return fmu.co_simulate(options);
  return simulate(fmu, options);
}

SimulationOptions grid(double stop_s, double interval_s) {
  SimulationOptions o;
  o.stop_s = stop_s;
  o.output_interval_s = interval_s;
  o.rel_tol = 1e-10;
  return o;
}

std::vector<std::string> names(const ResultTable& table) {
  std::vector<std::string> out;
  for (const ColumnInfo& c : table.columns()) out.push_back(c.name);
  return out;
}

std::string record_error(fmi::Interface wanted, const SimulationOptions& options) {
  const std::unique_ptr<fmi::Fmu> fmu = decay_both(wanted);
  try {
    static_cast<void>(run(*fmu, options));
  } catch (const OptionError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a Co-Simulation run records the columns and kinds selected, as a Model Exchange run") {
  SimulationOptions options = grid(2.0, 0.1);
  options.record_columns = {"y"};
  options.record_kinds = {ColumnKind::kState};
  const SimulationResult cs = run(*decay_both(fmi::Interface::kCoSimulation), options);
  const SimulationResult me = run(*decay_both(fmi::Interface::kModelExchange), options);
  // Columns in the order of the full row (states, derivatives, outputs), as the engine's
  // recorder keeps them.
  CHECK(names(cs.table) == std::vector<std::string>{"x", "y"});
  CHECK(names(cs.table) == names(me.table));
  CHECK(cs.table.columns()[0].kind == ColumnKind::kState);
  CHECK(cs.table.columns()[1].kind == ColumnKind::kOutput);
  CHECK(cs.table.columns()[0].unit == "mol");
  REQUIRE(cs.table.num_rows() == 21);
  // The FMU's RK4 substeps of 1e-3 s err by about 1e-13 (test_fmi_cosimulation.cpp).
  CHECK(std::abs(cs.table.final_value("x") - decay(2.0, 2.0, 3.0)) < 1e-10);
  CHECK(std::abs(cs.table.final_value("y") - (decay(2.0, 2.0, 3.0) + 3.0)) < 1e-10);
}

TEST_CASE("a column the Co-Simulation FMU lacks is the Model Exchange run's error") {
  SimulationOptions options = grid(1.0, 0.5);
  options.record_columns = {"x", "z*"};
  const std::string cs = record_error(fmi::Interface::kCoSimulation, options);
  CHECK(cs ==
        "SimulationOptions::record_columns: \"z*\" matches no column of model 'decay_both' "
        "(columns: x, der(x), y)");
  CHECK(cs == record_error(fmi::Interface::kModelExchange, options));
}

TEST_CASE("a Co-Simulation run keeps every k-th output point, or t0 and the last row only") {
  SimulationOptions options = grid(2.0, 0.1);
  options.record_every = 4;
  const SimulationResult cs = run(*decay_both(fmi::Interface::kCoSimulation), options);
  const SimulationResult me = run(*decay_both(fmi::Interface::kModelExchange), options);
  // Output points k = 4, 8, ..., 20 of t = 0.1 k, and t0: 0, 0.4, 0.8, 1.2, 1.6, 2.
  REQUIRE(cs.table.num_rows() == 6);
  REQUIRE(me.table.num_rows() == 6);
  for (std::size_t row = 0; row < 6; ++row) {
    CHECK(cs.table.time(row) == doctest::Approx(0.4 * static_cast<double>(row)).epsilon(1e-14));
    CHECK(cs.table.time(row) == me.table.time(row));
    CHECK(std::abs(cs.table.column("x")[row] - decay(cs.table.time(row), 2.0, 3.0)) < 1e-10);
  }
  options.record_rows = RecordedRows::kEventsOnly;
  options.record_every = 1;  // kEventsOnly thins out no grid
  const SimulationResult ends = run(*decay_both(fmi::Interface::kCoSimulation), options);
  REQUIRE(ends.table.num_rows() == 2);  // no events: t0 and the stop time
  CHECK(ends.table.time(1) == 2.0);
  CHECK(std::abs(ends.table.final_value("x") - decay(2.0, 2.0, 3.0)) < 1e-10);
}

TEST_CASE("a Co-Simulation grid too large for max_result_bytes is refused as Model Exchange's") {
  // 10^4 output points: 10^4 + 2 rows of the recorded columns and time, at least 3 values of
  // 8 bytes each (x, der(x), time), 240 kB against a limit of 100 kB. The refusal comes before
  // the FMU steps, with the message a Model Exchange run of the same FMU gives.
  SimulationOptions options = grid(1.0, 1e-4);
  options.max_result_bytes = 1e5;
  const std::string cs = record_error(fmi::Interface::kCoSimulation, options);
  CHECK(cs.find("SimulationOptions::max_result_bytes") != std::string::npos);
  CHECK(cs.find("1e+04 rows") != std::string::npos);  // 10002, to 3 digits
  CHECK(cs == record_error(fmi::Interface::kModelExchange, options));
  // Streamed to a file instead of memory, the same grid is no table's, and the run goes on.
  const test::TempDir dir;
  options.sinks = {SinkSpec::csv(dir.path() / "decay.csv")};
  CHECK(record_error(fmi::Interface::kCoSimulation, options) == "no error");
  // Within the limit, the run records every point.
  options.sinks = {SinkSpec::memory()};
  options.max_result_bytes = 1e7;
  CHECK(run(*decay_both(fmi::Interface::kCoSimulation), options).table.num_rows() == 10001);
}

TEST_CASE("hdae run honours --columns, --kinds and --rows for a Co-Simulation FMU") {
  const test::TempDir dir;
  const std::string csv = (dir.path() / "decay.csv").string();
  const std::string fmu = test::test_fmu("decay_both").string();
  std::string err;
  REQUIRE(test::hdae_run({"run", fmu, "--fmi-interface", "cs", "--set", "k=2", "--set", "u=3",
                          "--output-interval", "0.25", "--columns", "y", "--kinds", "state",
                          "--rows", "every:2", csv},
                         err) == 0);
  CAPTURE(err);
  const ResultTable r = read_csv(csv);
  CHECK(names(r) == std::vector<std::string>{"x", "y"});
  // The stop time 2 s on a grid of 0.25 s, every second point: 0, 0.5, 1, 1.5, 2.
  REQUIRE(r.num_rows() == 5);
  CHECK(r.time(1) == 0.5);
  CHECK(std::abs(r.final_value("x") - decay(2.0, 2.0, 3.0)) < 1e-10);
  // The same unknown column gives the same message through either interface.
  std::string cs_err;
  std::string me_err;
  CHECK(test::hdae_run({"run", fmu, "--fmi-interface", "cs", "--columns", "nope", csv}, cs_err) ==
        2);
  CHECK(test::hdae_run({"run", fmu, "--fmi-interface", "me", "--columns", "nope", csv}, me_err) ==
        2);
  CHECK(cs_err == me_err);
  CHECK(cs_err.find("\"nope\" matches no column of model 'decay_both'") != std::string::npos);
}

TEST_CASE("the time events of a Co-Simulation stair are in the event log at their times") {
  const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::test_fmu("stair_cs"));
  // A grid of 0.625 s (exact in binary) puts every step of the stair inside a communication
  // step: the FMU returns early at each, and the run steps on from there.
  const SimulationResult r = fmu->co_simulate(grid(4.5, 0.625));
  CHECK(r.status.outcome == Outcome::kReachedStopTime);
  // The stair steps at t = 1, 2, 3, 4 (its definition, stair/model.c); the FMU ends its
  // substep at the announced time, so the times are exact.
  REQUIRE(r.events.size() == 4);
  for (std::size_t j = 0; j < 4; ++j) {
    CHECK(r.events[j].t == static_cast<double>(j + 1));
    CHECK(r.events[j].kind == EventKind::kState);
    CHECK(r.events[j].note == "an event of FMU 'stair_cs.fmu' inside fmi3DoStep (early return)");
  }
  CHECK(r.statistics.state_events == 4);
  // Rows at the communication points only: t0, 0.625 k for k = 1..7, and 4.5.
  REQUIRE(r.table.num_rows() == 9);
  for (std::size_t row = 0; row < r.table.num_rows(); ++row) {
    const double t = r.table.time(row);
    CAPTURE(t);
    // RK4 integrates a constant derivative exactly: only rounding over some 4500 substeps.
    CHECK(std::abs(r.table.column("x")[row] - test::stair_x(t)) < 1e-10);
    CHECK(r.table.column("u")[row] == std::floor(t));
  }
}

TEST_CASE("a Co-Simulation bouncing ball logs its first impact and its request to stop") {
  const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::test_fmu("bouncing_ball_cs"));
  const SimulationResult r = fmu->co_simulate(grid(3.0, 0.1));
  REQUIRE(r.events.size() >= 2);
  // Free fall from 1 m: the first impact at sqrt(2 h0 / g). The FMU finds it at the end of
  // the substep (at most 1e-3 s) in which the height changed sign: up to 1e-3 s late.
  const double impact = std::sqrt(2.0 / 9.81);
  CHECK(r.events.front().t >= impact);
  CHECK(r.events.front().t < impact + 1e-3);
  CHECK(r.events.front().kind == EventKind::kState);
  // A rebound slower than v_stop = 1 m/s ends the run, recorded as a Model Exchange run
  // records the FMU's request: a terminal event at the last row's time.
  CHECK(r.status.outcome == Outcome::kStoppedByModel);
  const EventRecord& last = r.events.back();
  CHECK(last.kind == EventKind::kTerminal);
  CHECK(last.note == "FMU 'bouncing_ball_cs.fmu' asked to terminate the simulation (fmi3DoStep)");
  CHECK(last.t == r.table.time(r.table.num_rows() - 1));
  CHECK(last.t < 3.0);
}

TEST_CASE("a failing Co-Simulation run keeps the last point reached although the grid skips it") {
  SimulationOptions options = grid(1.0, 0.1);
  options.record_every = 3;
  const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::test_fmu("function_error_cs"));
  try {
    static_cast<void>(fmu->co_simulate(options));
    FAIL("no error");
  } catch (const ModelCallbackError& e) {
    // The model fails from t = 0.5 on (test_fmi_cosimulation.cpp): t0 and point 3 (0.3) are
    // kept, and the last point reached (0.4, or 0.5 when the step to 0.5 ends on its last
    // evaluation just below it), which the grid skips, is the partial result's last row, as
    // a Simulator's run keeps it.
    const ResultTable& rows = e.partial_result()->table;
    REQUIRE(rows.num_rows() == 3);
    CHECK(rows.time(1) == doctest::Approx(0.3).epsilon(1e-14));
    CHECK(rows.time(2) >= 0.4 - 1e-14);
    CHECK(rows.time(2) <= 0.5 + 1e-14);
  }
}
