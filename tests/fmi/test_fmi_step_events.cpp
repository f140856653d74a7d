// An FMU that asks for Event Mode from fmi3CompletedIntegratorStep (tests/fmi/fmus/step_event):
// the event happens at the end of that step, with the FMU's jump, as a step event; and its
// request to terminate from there stops the run cleanly at the end of that step.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "hdae/fmi.hpp"
#include "hdae/simulator.hpp"
#include "test_fmus.hpp"

using namespace hdae;

TEST_CASE("an FMU's request for Event Mode after an integrator step is a step event there") {
  const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::test_fmu("step_event"));
  REQUIRE(fmu->info().needs_completed_integrator_step);
  SimulationOptions o;
  o.stop_s = 2.0;
  o.rel_tol = 1e-8;
  const SimulationResult r = simulate(*fmu, o);
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  std::vector<EventRecord> steps;
  for (const EventRecord& e : r.events) {
    if (e.kind == EventKind::kStep) steps.push_back(e);
  }
  // x = exp(-t) falls below 1/2 at ln 2; the first step that ends past it asks for the event,
  // once (the FMU's mode), so the event lies after ln 2 by at most one step.
  REQUIRE(steps.size() == 1);
  const double te = steps[0].t;
  CHECK(te > std::log(2.0));
  CHECK(te < std::log(2.0) + 0.5);
  REQUIRE(steps[0].jumps.size() == 1);
  CHECK(steps[0].jumps[0].variable == "x");
  // rel_tol 1e-8 keeps x = exp(-t) to about 1e-7 over two seconds.
  CHECK(std::abs(steps[0].jumps[0].before - std::exp(-te)) < 1e-6);
  CHECK(steps[0].jumps[0].after == 1.0);
  // From the event on, x = exp(-(t - te)).
  const std::size_t x = r.table.column_index("x");
  const std::size_t last = r.table.num_rows() - 1;
  CHECK(std::abs(r.table.value(last, x) - std::exp(-(2.0 - te))) < 1e-6);
}

TEST_CASE("an FMU's request to terminate after an integrator step stops the run at that step") {
  const std::unique_ptr<fmi::Fmu> fmu = fmi::load(test::test_fmu("step_event"));
  fmu->set_parameter("t_terminate", 0.5);
  SimulationOptions o;
  o.stop_s = 2.0;
  o.rel_tol = 1e-8;
  o.max_step_s = 0.01;
  const SimulationResult r = simulate(*fmu, o);
  // A clean stop, as a request from fmi3UpdateDiscreteStates (test_fmi_events.cpp), no error.
  CHECK(r.status.outcome == Outcome::kStoppedByModel);
  CHECK(r.status.ok());
  CHECK(r.status.message ==
        "FMU 'step_event.fmu' asked to terminate the simulation (fmi3CompletedIntegratorStep)");
  // The first step that ends at or after t_terminate = 0.5 asks, and IDA's steps are at most
  // max_step_s = 0.01 long: the run ends in [0.5, 0.51].
  const double te = r.status.t;
  CHECK(te >= 0.5);
  CHECK(te <= 0.51);
  // The rows go up to there and no farther, the last one at the stop.
  const std::size_t last = r.table.num_rows() - 1;
  CHECK(r.table.time(last) == te);
  // x = exp(-t) throughout: it stays above 1/2 before ln 2 > 0.51, so the FMU's jump never
  // comes; rel_tol 1e-8 keeps x to about 1e-7 (the first test case).
  CHECK(std::abs(r.table.value(last, r.table.column_index("x")) - std::exp(-te)) < 1e-6);
  for (const EventRecord& e : r.events) CHECK(e.jumps.empty());
  CHECK(r.events.back().t == te);
}
