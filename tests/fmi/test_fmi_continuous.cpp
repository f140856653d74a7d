// FMUs without events (tests/fmi/fmus): van der Pol's oscillator against its closed form at
// mu = 0 and against the same equations written as an hdae model at mu = 1, and a decay whose
// parameter and input are set like any model's parameters, against its closed form.
#include <cmath>

#include <doctest/doctest.h>

#include "hdae/fmi.hpp"
#include "hdae/simulator.hpp"
#include "test_fmus.hpp"

using namespace hdae;

namespace {

SimulationOptions tight(double stop_s) {
  SimulationOptions o;
  o.stop_s = stop_s;
  o.rel_tol = 1e-10;
  o.output_interval_s = 0.1;
  return o;
}

}  // namespace

TEST_CASE("the van der Pol FMU at mu = 0 is the harmonic oscillator x0 = 2 cos t") {
  const std::unique_ptr<fmi::Fmu> vdp = fmi::load(test::test_fmu("van_der_pol"));
  vdp->set_parameter("mu", 0.0);
  const SimulationResult r = simulate(*vdp, tight(10.0));
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  const std::size_t x0 = r.table.column_index("x0");
  const std::size_t x1 = r.table.column_index("x1");
  for (std::size_t i = 0; i < r.table.num_rows(); ++i) {
    const double t = r.table.time(i);
    CAPTURE(t);
    // rel_tol 1e-10 over 1.6 periods: the global error stays near 1e-9, below 1e-7.
    CHECK(std::abs(r.table.value(i, x0) - 2.0 * std::cos(t)) < 1e-7);
    CHECK(std::abs(r.table.value(i, x1) + 2.0 * std::sin(t)) < 1e-7);
  }
}

TEST_CASE("the van der Pol FMU at mu = 1 follows the same equations written as an hdae model") {
  const std::unique_ptr<fmi::Fmu> vdp = fmi::load(test::test_fmu("van_der_pol"));
  const SimulationResult from_fmu = simulate(*vdp, tight(20.0));
  test::VanDerPol own(1.0);
  const SimulationResult from_model = simulate(own, tight(20.0));
  REQUIRE(from_fmu.status.outcome == Outcome::kReachedStopTime);
  REQUIRE(from_fmu.table.num_rows() == from_model.table.num_rows());
  for (const char* name : {"x0", "x1"}) {
    const std::vector<double> a = from_fmu.table.column(name);
    const std::vector<double> b = from_model.table.column(name);
    for (std::size_t i = 0; i < a.size(); ++i) {
      CAPTURE(from_fmu.table.time(i));
      // Both runs at rel_tol 1e-10 on the attracting limit cycle, whose errors do not grow:
      // each is within about 1e-8 of the exact solution, so 1e-6 of each other is loose.
      CHECK(std::abs(a[i] - b[i]) < 1e-6);
    }
  }
}

TEST_CASE(
    "the decay FMU's parameter k and input u are set as parameters and act as the "
    "closed form says") {
  const std::unique_ptr<fmi::Fmu> decay = fmi::load(test::test_fmu("decay"));
  const ModelStructure& s = decay->structure();
  REQUIRE(s.parameters.size() == 2);
  CHECK(s.parameters[0].name == "k");
  CHECK(s.parameters[0].unit == "1/s");
  CHECK(s.parameters[1].name == "u");
  CHECK(s.parameters[1].description == "inflow; input, constant through a run");
  decay->set_parameter("k", 2.0);
  decay->set_parameter("u", 3.0);
  const SimulationResult r = simulate(*decay, tight(2.0));
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  const std::size_t x = r.table.column_index("x");
  const std::size_t y = r.table.column_index("y");
  CHECK(r.table.columns()[y].unit == "mol");
  for (std::size_t i = 0; i < r.table.num_rows(); ++i) {
    const double t = r.table.time(i);
    // der(x) = -k x + u, x(0) = 1: x = u/k + (1 - u/k) exp(-k t); y = x + u.
    const double exact = 1.5 - 0.5 * std::exp(-2.0 * t);
    CAPTURE(t);
    // rel_tol 1e-10 on a decaying exponential: global errors near 1e-10, below 1e-8.
    CHECK(std::abs(r.table.value(i, x) - exact) < 1e-8);
    CHECK(std::abs(r.table.value(i, y) - (exact + 3.0)) < 1e-8);
  }
  // A second run with the defaults back (k = 1, u = 0): x = exp(-t).
  decay->set_parameter("k", 1.0);
  decay->set_parameter("u", 0.0);
  const SimulationResult again = simulate(*decay, tight(2.0));
  CHECK(std::abs(again.table.final_value("x") - std::exp(-2.0)) < 1e-8);
}
