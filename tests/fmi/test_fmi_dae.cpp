// A DAE FMU of the layered standard fmi-ls-dae (tests/fmi/fmus/robertson): Robertson's kinetics
// with y3 algebraic, run in DAE mode against the output of SUNDIALS' example idaRoberts_dns
// (libsundials-dev, examples/ida/serial/idaRoberts_dns.out), roots included; and a manifest
// whose residual names no variable.
#include <array>
#include <cmath>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/fmi.hpp"
#include "hdae/simulator.hpp"
#include "test_fmus.hpp"

using namespace hdae;

namespace {

/// One line of idaRoberts_dns.out: t, y1, y2, y3, printed to five significant digits.
struct Printed {
  double t, y1, y2, y3;
};

/// The example's output times 0.4, 4, ..., 4e10.
constexpr std::array<Printed, 12> kOutputs{{{4.0e-01, 9.8517e-01, 3.3864e-05, 1.4794e-02},
                                            {4.0e+00, 9.0553e-01, 2.2406e-05, 9.4452e-02},
                                            {4.0e+01, 7.1579e-01, 9.1838e-06, 2.8420e-01},
                                            {4.0e+02, 4.5044e-01, 3.2218e-06, 5.4956e-01},
                                            {4.0e+03, 1.8320e-01, 8.9444e-07, 8.1680e-01},
                                            {4.0e+04, 3.8992e-02, 1.6221e-07, 9.6101e-01},
                                            {4.0e+05, 4.9369e-03, 1.9842e-08, 9.9506e-01},
                                            {4.0e+06, 5.1674e-04, 2.0684e-09, 9.9948e-01},
                                            {4.0e+07, 5.2009e-05, 2.0805e-10, 9.9995e-01},
                                            {4.0e+08, 5.2012e-06, 2.0805e-11, 9.9999e-01},
                                            {4.0e+09, 5.1850e-07, 2.0740e-12, 1.0000e+00},
                                            {4.0e+10, 4.8641e-08, 1.9456e-13, 1.0000e+00}}};
/// Its two roots: y3 reaches 0.01 (rootsfound[1]) and y1 falls to 1e-4 (rootsfound[0]).
constexpr Printed kY3Root{2.6402e-01, 9.8997e-01, 3.4706e-05, 1.0000e-02};
constexpr Printed kY1Root{2.0788e+07, 1.0000e-04, 4.0004e-10, 9.9990e-01};

// The example's tolerances (its header): rtol 1e-4, atol 1e-8 for y1 and 1e-6 for y2 and y3;
// the FMU's nominals map them onto hdae's (robertson/modelDescription.xml).
constexpr double kRelTol = 1e-4;
constexpr std::array<double, 3> kAbsTol{1e-8, 1e-6, 1e-6};

/// Two runs that each keep their local errors within rtol |y| + atol agree to a few times that
/// over the run: BDF's global error is a small multiple of its local tolerance on this problem,
/// and the two integrators take different steps (hdae's restarts at the two events
/// included). Ten times the tolerance bounds both runs' errors, and it is far above the
/// example's rounding to five digits.
bool agrees(double hdae_value, double printed, std::size_t component) {
  return std::abs(hdae_value - printed) <=
         10.0 * (kRelTol * std::abs(printed) + kAbsTol[component]);
}

/// The example's tolerances over its whole run. The FMU provides directional derivatives,
/// which give IDA's Newton matrix as the example's analytic Jacobian gives it (a difference
/// quotient of the derivatives, whose error the loose absolute tolerance of y2 does not bound,
/// takes y1 off its slow decay beyond 4e7 s).
SimulationOptions example_options() {
  SimulationOptions o;
  o.stop_s = 4.0e10;
  o.rel_tol = kRelTol;
  for (const Printed& p : kOutputs) o.output_times.push_back(p.t);
  return o;
}

std::string load_error(const std::string& fmu) {
  try {
    static_cast<void>(fmi::load(test::test_fmu(fmu)));
  } catch (const IoError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a DAE FMU of fmi-ls-dae loads with its algebraic variable and residual row") {
  const std::unique_ptr<fmi::Fmu> robertson = fmi::load(test::test_fmu("robertson"));
  CHECK(robertson->info().dae_mode);
  const ModelStructure& s = robertson->structure();
  REQUIRE(s.num_unknowns() == 3);
  CHECK(s.variables.name(2) == "y3");
  REQUIRE(s.equations.size() == 3);
  CHECK(s.equations.kind(2) == RowKind::kConstraint);
  CHECK(s.equations.name(2) == "0 = r from the FMU");
}

TEST_CASE("Robertson's kinetics as a DAE FMU matches SUNDIALS' idaRoberts_dns output") {
  const std::unique_ptr<fmi::Fmu> robertson = fmi::load(test::test_fmu("robertson"));
  const SimulationResult r = simulate(*robertson, example_options());
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  const std::array<std::size_t, 3> columns{r.table.column_index("y1"), r.table.column_index("y2"),
                                           r.table.column_index("y3")};
  std::size_t matched = 0;
  for (std::size_t i = 0; i < r.table.num_rows(); ++i) {
    for (const Printed& p : kOutputs) {
      if (r.table.time(i) != p.t) continue;
      CAPTURE(p.t);
      const std::array<double, 3> printed{p.y1, p.y2, p.y3};
      for (std::size_t c = 0; c < 3; ++c) {
        CAPTURE(c);
        CHECK(agrees(r.table.value(i, columns[c]), printed[c], c));
      }
      ++matched;
    }
  }
  CHECK(matched == kOutputs.size());

  // The event indicators are the example's root functions, at its root times. A root moves by
  // the error of the crossing variable over its rate: y3 rises at about 0.04 /s near 0.26 s,
  // so 10 (rtol y3 + atol) = 1.1e-5 moves it by 3e-4 s, 1e-3 relative; y1 falls as about
  // 2e-12 /s near 2e7 s, and 10 (rtol y1 + atol) = 1e-7 moves that root by 5e-2 relative.
  std::vector<double> y3_roots, y1_roots;
  for (const EventRecord& e : r.events) {
    for (const CrossingRecord& c : e.crossings) {
      if (c.crossing == "y3 - 0.01 > 0") y3_roots.push_back(e.t);
      if (c.crossing == "y1 - 1e-4 > 0") y1_roots.push_back(e.t);
    }
  }
  REQUIRE(y3_roots.size() == 1);
  REQUIRE(y1_roots.size() == 1);
  CHECK(std::abs(y3_roots[0] - kY3Root.t) <= 1e-3 * kY3Root.t);
  CHECK(std::abs(y1_roots[0] - kY1Root.t) <= 5e-2 * kY1Root.t);
}

TEST_CASE(
    "a manifest whose residual refers to no variable names the FMU, file, line and reference") {
  CHECK(load_error("broken_manifest") ==
        "FMU 'broken_manifest.fmu': extra/org.fmi-standard.fmi-ls-dae/fmi-ls-manifest.xml "
        "line 11: <Residual> refers to valueReference 17, which no variable of "
        "modelDescription.xml has");
}
