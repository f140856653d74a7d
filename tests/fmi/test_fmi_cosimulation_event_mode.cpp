// Co-Simulation FMUs that declare hasEventMode (tests/fmi/fmus: stair_cs_events,
// bouncing_ball_cs_events): the run instantiates them with Event Mode, and after a step that
// ends with eventHandlingNeeded it calls fmi3EnterEventMode, fmi3UpdateDiscreteStates until the
// FMU asks for no more, and fmi3EnterStepMode. The results agree with the same models handling
// their events themselves (stair_cs, bouncing_ball_cs), and with the closed forms.
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/fmi.hpp"
#include "test_fmus.hpp"

using namespace hdae;

namespace {

SimulationResult co_simulate(const std::string& fmu, const SimulationOptions& options) {
  return fmi::load(test::test_fmu(fmu))->co_simulate(options);
}

}  // namespace

TEST_CASE("a Co-Simulation FMU with Event Mode has its time events handled by the run") {
  // A grid of 0.625 s puts each step of the stair inside a communication step; one of 0.5 s
  // puts each on a communication point, which the FMU reports with eventHandlingNeeded too.
  for (const double interval : {0.625, 0.5}) {
    CAPTURE(interval);
    const SimulationResult r = co_simulate("stair_cs_events", test::grid(4.5, interval));
    CHECK(r.status.outcome == Outcome::kReachedStopTime);
    // The stair steps at t = 1, 2, 3, 4 (stair/model.c), where the FMU ends its substep.
    REQUIRE(r.events.size() == 4);
    for (std::size_t j = 0; j < 4; ++j) {
      CHECK(r.events[j].t == static_cast<double>(j + 1));
      CHECK(r.events[j].note ==
            "an event of FMU 'stair_cs_events.fmu' at the end of fmi3DoStep, handled in Event "
            "Mode");
    }
    for (std::size_t row = 0; row < r.table.num_rows(); ++row) {
      const double t = r.table.time(row);
      CAPTURE(t);
      // RK4 integrates a constant derivative exactly: only rounding over some 4500 substeps.
      CHECK(std::abs(r.table.column("x")[row] - test::stair_x(t)) < 1e-10);
      // A row at an event instant comes after Event Mode: the step's new value.
      CHECK(r.table.column("u")[row] == std::floor(t));
    }
  }
}

TEST_CASE("a Co-Simulation ball with Event Mode bounces as the ball that handles its impacts") {
  const SimulationResult own = co_simulate("bouncing_ball_cs", test::grid(3.0, 0.1));
  const SimulationResult r = co_simulate("bouncing_ball_cs_events", test::grid(3.0, 0.1));
  // The same substeps and the same updates, called by the run instead of inside fmi3DoStep:
  // the same impacts and rows to the last bit.
  // The impact that ends the run is an event before the FMU's request to terminate from its
  // update; the ball that handles it inside fmi3DoStep reports only the request.
  REQUIRE(r.events.size() == own.events.size() + 1);
  for (std::size_t j = 0; j + 1 < own.events.size(); ++j) CHECK(r.events[j].t == own.events[j].t);
  CHECK(r.events[r.events.size() - 2].t == own.events.back().t);
  CHECK(r.events.back().t == own.events.back().t);
  REQUIRE(r.table.num_rows() == own.table.num_rows());
  for (std::size_t row = 0; row < r.table.num_rows(); ++row) {
    CHECK(r.table.time(row) == own.table.time(row));
    CHECK(r.table.column("h")[row] == own.table.column("h")[row]);
  }
  // Free fall from 1 m: the first impact at sqrt(2 h0 / g), found at the end of the substep
  // (at most 1e-3 s) in which the height changed sign.
  const double impact = std::sqrt(2.0 / 9.81);
  CHECK(r.events.front().t >= impact);
  CHECK(r.events.front().t < impact + 1e-3);
  // A rebound slower than v_stop = 1 m/s: the FMU asks to terminate in its update.
  CHECK(r.status.outcome == Outcome::kStoppedByModel);
  CHECK(r.status.message ==
        "FMU 'bouncing_ball_cs_events.fmu' asked to terminate the simulation "
        "(fmi3UpdateDiscreteStates)");
  CHECK(r.events.back().kind == EventKind::kTerminal);
  CHECK(r.status.t == own.status.t);
}
