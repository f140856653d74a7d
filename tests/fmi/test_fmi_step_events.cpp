// An FMU that asks for Event Mode from fmi3CompletedIntegratorStep (tests/fmi/fmus/step_event):
// the event happens at the end of that step, with the FMU's jump, as a step event.
#include <cmath>

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
