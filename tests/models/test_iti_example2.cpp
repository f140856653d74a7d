// ITI paper, example 2 (models/iti_example2.hpp): 1 = if t < 0.5 then x else der(x). The
// closed form: x = 1 and der(x) = 0 (the constraint and its derivative) before t_s, then
// der(x) = 1 from x(t_s) = 1, so x(t) = 1 + (t - t_s), whatever x's start value.
#include <cmath>

#include <doctest/doctest.h>

#include "hdae/models/iti_example2.hpp"
#include "hdae/simulator.hpp"
#include "models/event_rows.hpp"

using namespace hdae;
using models::testing::initial_row;
using models::testing::value;

namespace {

SimulationResult run(models::ItiExample2& model) {
  SimulationOptions o;
  o.stop_s = 2.0;
  o.rel_tol = 1e-8;
  o.output_interval_s = 0.05;
  return simulate(model, o);
}

/// x(t) of the closed form; at t = t_s the left and right limits agree (x is continuous).
double exact_x(double t, double t_s) { return t < t_s ? 1.0 : 1.0 + (t - t_s); }

}  // namespace

TEST_CASE("ITI example 2: x = 1, der(x) = 0 before t = 0.5, then x = 1 + (t - 0.5)") {
  for (const double x_start : {3.0, 1.0, -2.0}) {
    CAPTURE(x_start);
    models::ItiExample2 model({.switch_s = 0.5, .x_start = x_start});
    const SimulationResult r = run(model);
    REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
    CHECK(model.differential());
    const std::size_t first = initial_row(r.table);
    // der(x)(0) = 0 comes from differentiating the constraint 1 = x (a hidden constraint).
    CHECK(value(r.table, first, "x") == doctest::Approx(1.0).epsilon(1e-10));
    CHECK(std::abs(value(r.table, first, "der(x)")) < 1e-8);
    double worst = 0.0;
    for (std::size_t i = first; i < r.table.num_rows(); ++i) {
      const double t = r.table.time(i);
      worst = std::max(worst, std::abs(value(r.table, i, "x") - exact_x(t, 0.5)));
    }
    // der(x) = 1 is integrated exactly by IDA's polynomials; the bound is the Newton
    // tolerance of the solves (rel_tol 1e-8 times the nominal 1).
    CHECK(worst < 1e-7);
    CHECK(r.table.final_value("x") == doctest::Approx(2.5).epsilon(1e-8));
    CHECK(r.table.final_value("der(x)") == doctest::Approx(1.0).epsilon(1e-8));
  }
}

TEST_CASE("ITI example 2 switches by its time event and starts over on a second run") {
  models::ItiExample2 model;
  const SimulationResult first = run(model);
  REQUIRE(first.status.ok());
  bool switched = false;
  for (const EventRecord& e : first.events) {
    if (e.kind == EventKind::kTime) switched = switched || e.t == 0.5;
  }
  CHECK(switched);
  // reset() returns to the algebraic mode: the second run is the same.
  const SimulationResult second = run(model);
  REQUIRE(second.status.ok());
  CHECK(second.table.final_value("x") == doctest::Approx(first.table.final_value("x")));
}

TEST_CASE("ITI example 2 started after t_s is the ODE from x's start value") {
  // At t0 >= t_s the row is der(x) = 1 from the start: x is a state and keeps its start value.
  models::ItiExample2 model({.switch_s = -1.0, .x_start = 3.0});
  const SimulationResult r = run(model);
  REQUIRE(r.status.ok());
  CHECK(r.table.final_value("x") == doctest::Approx(5.0).epsilon(1e-8));
}
