// The round trip: every bundled model exported as a Co-Simulation FMU (`hdae fmu export`) and
// run back through the importer (hdae::fmi::load, Fmu::co_simulate) agrees with the model's
// direct run, its events included.
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "exported_fmu.hpp"
#include "hdae/compare.hpp"
#include "hdae/fmi.hpp"
#include "hdae/models/catalog.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// The rows of full at the given times, put at those times. The Simulator leaves out a grid
/// row that an event's rows stand for, at the same time up to round-off: a row counts when its
/// time is within a billionth of the run's span of the one given. At an event the limit on
/// the side of the given time is taken (the right limit of an event at or just before it, the
/// left limit of one just after it), as the FMU stands there after the step that ends there.
ResultTable at_times(const ResultTable& full, const std::vector<double>& times) {
  ResultTable rows(full.columns());
  const double close = 1e-9 * (full.time(full.num_rows() - 1) - full.time(0));
  std::size_t after = 0;  // the first row later than t
  for (const double t : times) {
    while (after < full.num_rows() && full.time(after) <= t) ++after;
    if (after > 0 && t - full.time(after - 1) <= close) {
      rows.append(t, full.row(after - 1));
    } else if (after < full.num_rows() && full.time(after) - t <= close) {
      rows.append(t, full.row(after));
    }
  }
  return rows;
}

}  // namespace

TEST_CASE("every bundled model exported as a Co-Simulation FMU runs back like its direct run") {
  for (const models::CatalogEntry& entry : models::catalog()) {
    CAPTURE(entry.name);
    const SimulationOptions& options = entry.example.options;
    const SimulationResult direct = simulate(*entry.make(), options);
    REQUIRE(direct.status.ok());
    const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::exported_fmu(entry.name));
    REQUIRE(fmu->info().fmi_interface == fmi::Interface::kCoSimulation);
    const SimulationResult stepped = fmu->co_simulate(options);
    CHECK(stepped.status.outcome == direct.status.outcome);
    // Inside the FMU the same Simulator runs the same model with the same tolerances; the
    // communication points only end its steps on the output grid, so the two runs differ by
    // the integration error, far below the default tube (a thousandth of each signal's range,
    // and of the time range for a shifted event). The FMU has rows at the grid's times only,
    // none at events: the direct run is compared at the same times, since a straight line
    // between two grid rows cuts the corner of a kink or jump between them, which is no
    // disagreement. One tube then reaches over the whole run (kIgnore). The FMU leaves out
    // the derivatives, which are no variables of its description: the common signals are
    // compared.
    const ResultTable grid = at_times(direct.table, stepped.table.time());
    REQUIRE(grid.num_rows() == stepped.table.num_rows());
    CompareOptions tube;
    tube.events = EventMatching::kIgnore;
    tube.missing_signals_fail = false;
    const CompareReport report = compare_results(grid, stepped.table, tube);
    INFO(report.brief_report());
    CHECK(report.agree);
    CHECK(report.signals.size() >= 1);
  }
}

TEST_CASE("the importer logs the exported ball's impacts at the direct run's event times") {
  const models::CatalogEntry* entry = models::find_model("bouncing_ball");
  REQUIRE(entry != nullptr);
  const SimulationOptions& options = entry->example.options;
  const SimulationResult direct = simulate(*entry->make(), options);
  REQUIRE(direct.status.ok());
  const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::exported_fmu("bouncing_ball"));
  const SimulationResult stepped = fmu->co_simulate(options);
  // The FMU returns early from each step at its first event (the importer allows it), and
  // the importer records each return. The direct run's initial event happens in the FMU's
  // initialization, which reports none: the others are the impacts.
  std::vector<double> impacts;
  for (const EventRecord& e : direct.events) {
    if (e.kind != EventKind::kInitial) impacts.push_back(e.t);
  }
  REQUIRE(impacts.size() >= 5);
  REQUIRE(stepped.events.size() == impacts.size());
  for (std::size_t j = 0; j < impacts.size(); ++j) {
    CAPTURE(j);
    // Inside the FMU the same Simulator runs the same model with the same options, and its
    // advances to each communication point or event, in any sequence, give the run of one
    // advance (hdae/simulator.hpp): the same event times up to round-off.
    CHECK(std::abs(stepped.events[j].t - impacts[j]) <= 1e-12 * options.stop_s);
    CHECK(stepped.events[j].kind == EventKind::kState);
  }
}
