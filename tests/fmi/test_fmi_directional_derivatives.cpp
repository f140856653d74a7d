// FMUs that provide directional derivatives (tests/fmi/fmus/van_der_pol with its FMI 3.0 and
// 2.0 descriptions): IDA's Newton matrix comes from fmi3GetDirectionalDerivative and
// fmi2GetDirectionalDerivative instead of difference quotients, the run follows the same
// equations written as an hdae model with an analytic Jacobian, and LoadOptions can switch
// them off.
#include <cmath>

#include <doctest/doctest.h>

#include "hdae/fmi.hpp"
#include "hdae/simulator.hpp"
#include "test_fmus.hpp"

using namespace hdae;

namespace {

/// IDA (the non-stiff integrators take no Jacobian) at a tight tolerance.
SimulationOptions on_ida() {
  SimulationOptions o;
  o.stop_s = 20.0;
  o.rel_tol = 1e-10;
  o.output_interval_s = 0.1;
  o.method = IntegrationMethod::kIda;
  return o;
}

/// The two runs make the same calls with the same Jacobians up to round-off, so they agree far
/// below the tolerance's global error on the limit cycle (about 1e-8).
void check_same_run(const SimulationResult& a, const SimulationResult& b) {
  REQUIRE(a.status.outcome == Outcome::kReachedStopTime);
  REQUIRE(b.status.outcome == Outcome::kReachedStopTime);
  REQUIRE(a.table.num_rows() == b.table.num_rows());
  for (const char* name : {"x0", "x1"}) {
    const std::vector<double> va = a.table.column(name);
    const std::vector<double> vb = b.table.column(name);
    for (std::size_t i = 0; i < va.size(); ++i) {
      CAPTURE(a.table.time(i));
      CHECK(std::abs(va[i] - vb[i]) < 1e-9);
    }
  }
}

}  // namespace

TEST_CASE("an FMU's directional derivatives are IDA's Jacobian, in FMI 3.0 and 2.0") {
  test::VanDerPol own(1.0);  // the FMU's start value of mu
  const SimulationResult reference = simulate(own, on_ida());
  for (const char* name : {"van_der_pol", "van_der_pol_fmi2"}) {
    CAPTURE(name);
    const std::unique_ptr<fmi::Fmu> vdp = fmi::load(test::test_fmu(name));
    CHECK(vdp->info().provides_directional_derivatives);
    CHECK(vdp->provides_jacobian());
    const SimulationResult r = simulate(*vdp, on_ida());
    // No residual call went into a Jacobian: every one came from the FMU's partials.
    CHECK(r.statistics.jacobian_evaluations > 0);
    CHECK(r.statistics.jacobian_residual_evaluations == 0);
    CHECK(r.statistics.steps == reference.statistics.steps);
    check_same_run(r, reference);
  }
}

TEST_CASE("LoadOptions::directional_derivatives = false makes IDA difference the derivatives") {
  fmi::LoadOptions options;
  options.directional_derivatives = false;
  const std::unique_ptr<fmi::Fmu> vdp = fmi::load(test::test_fmu("van_der_pol"), options);
  CHECK(vdp->info().provides_directional_derivatives);
  CHECK_FALSE(vdp->provides_jacobian());
  const SimulationResult r = simulate(*vdp, on_ida());
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  CHECK(r.statistics.jacobian_residual_evaluations > 0);
}
