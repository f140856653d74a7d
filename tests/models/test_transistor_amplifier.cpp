// The transistor amplifier in its original form M der(U) = f(t, U), singular M
// (models/transistor_amplifier.hpp): the engine finds the hidden constraints of the three pairs
// of rows whose derivatives cancel, the consistent derivatives at t0 without being told them,
// and IDA integrates to the IVP test set's reference at t = 0.2 s.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include <doctest/doctest.h>

#include "hdae/models/transistor_amplifier.hpp"
#include "hdae/simulator.hpp"
#include "models/event_rows.hpp"

using namespace hdae;
using models::testing::value;

namespace {

/// The test set's reference solution y(0.2) (Mazzia and Magherini, "Test Set for IVP
/// Solvers", problem transamp, subroutine solut: PSIDE on a Cray C90 at rtol = atol = 1e-14).
constexpr std::array<double, 8> kReference = {-0.5562145012262709e-002, 0.3006522471903042e+001,
                                              0.2849958788608128e+001,  0.2926422536206241e+001,
                                              0.2704617865010554e+001,  0.2761837778393145e+001,
                                              0.4770927631616772e+001,  0.1236995868091548e+001};

/// y'(0) by hand, with the default parameters. At t = 0, Ue = 0 and U2 = U3, U5 = U6, so both
/// transistor currents are 0 with slope k = beta / UF. Rows 3 and 6 give
/// der(U3) = -U3 / (C2 R), der(U6) = -U6 / (C4 R). Rows 1, 4, 7 have right-hand side 0, so
/// der(U1) = der(U2) = a, der(U4) = der(U5) = p, der(U7) = der(U8) = q. The sums of the
/// pairs (1, 2), (4, 5), (7, 8) hold no derivative (f_1 + f_2 = 0 etc.); differentiated once:
///   (a - Ue')/R0 + 2 a/R + (1 - alpha) k (a - der(U3)) = 0
///   p/R + alpha k (a - der(U3)) + 2 p/R + (1 - alpha) k (p - der(U6)) = 0
///   q/R + alpha k (p - der(U6)) + q/R = 0
/// with Ue'(0) = 0.1 * 200 pi. The test set's subroutine init gives der(U3) and der(U6) in
/// this closed form and the other six "determined numerically" (51.338775, -24.9757667,
/// -10.00564453), which are within 6e-4 of these exact values.
std::array<double, 8> derivatives_at_start() {
  const double ub = 6.0, r0 = 1000.0, r = 9000.0, alpha = 0.99, k = 1e-6 / 0.026;
  const double c2 = 2e-6, c4 = 4e-6, due = 0.1 * 200.0 * std::numbers::pi;
  const double d3 = -(ub / 2) / (c2 * r), d6 = -(ub / 2) / (c4 * r);
  const double a = (due / r0 + (1 - alpha) * k * d3) / (1 / r0 + 2 / r + (1 - alpha) * k);
  const double p = (-alpha * k * (a - d3) + (1 - alpha) * k * d6) / (3 / r + (1 - alpha) * k);
  const double q = -alpha * k * (p - d6) * r / 2;
  return {a, a, d3, p, p, d6, q, q};
}

SimulationResult run(const models::TransistorAmplifierParameters& p, double rel_tol, double abs_tol,
                     double step_growth_threshold = 2.0) {
  models::TransistorAmplifier model(p);
  SimulationOptions options;
  options.stop_s = 0.2;
  options.rel_tol = rel_tol;
  options.abs_tol_factor = abs_tol / rel_tol;  // nominal 1 V: abs_tol in V
  options.step_growth_threshold = step_growth_threshold;
  return simulate(model, options);
}

/// Significant correct digits of the final row against the reference:
/// -log10(max_i |err_i| / |ref_i|), as the test set defines scd.
double significant_digits(const SimulationResult& r) {
  double worst = 0.0;
  for (std::size_t k = 0; k < 8; ++k) {
    const double y = r.table.final_value("U" + std::to_string(k + 1));
    worst = std::max(worst, std::abs(y - kReference[k]) / std::abs(kReference[k]));
  }
  return -std::log10(worst);
}

}  // namespace

TEST_CASE("the transistor amplifier's consistent derivatives at t0 are found without der_start") {
  const std::array<double, 8> expected = derivatives_at_start();
  // The hand values and the test set's numerically determined ones agree to 3 or 4 digits.
  CHECK(expected[0] == doctest::Approx(51.338775).epsilon(2e-5));
  CHECK(expected[3] == doctest::Approx(-24.9757667).epsilon(1e-3));
  CHECK(expected[6] == doctest::Approx(-10.00564453).epsilon(1e-3));
  for (const bool published_start : {false, true}) {
    CAPTURE(published_start);
    models::TransistorAmplifierParameters p;
    // With the published values as der_start the answer must be the same: der_start is a
    // guess of der_x(t0^-), which the consistent derivatives replace.
    if (published_start) {
      p.der_start = std::array<double, 8>{51.338775,    51.338775,   -166.66666666666666,
                                          -24.9757667,  -24.9757667, -83.333333333333333,
                                          -10.00564453, -10.00564453};
    }
    models::TransistorAmplifier model(p);
    SimulationOptions options;
    options.stop_s = 1e-3;
    Simulator sim(model, options);
    sim.initialize();
    REQUIRE(sim.status().outcome == Outcome::kRunning);
    for (std::size_t k = 0; k < 8; ++k) {
      CAPTURE(k);
      // The start values are consistent: the initial jump leaves them alone.
      CHECK(sim.state()[k] == model.structure().variables.start(k));
      // Central differences of the hidden constraints: measured 1.5e-11 relative.
      CHECK(sim.derivatives()[k] == doctest::Approx(expected[k]).epsilon(1e-8));
    }
  }
}

TEST_CASE("the transistor amplifier reaches the test set's y(0.2) with 4 significant digits") {
  // The test set compares solvers at rtol = atol = 1e-6 by scd; ask for at least 4 there.
  const SimulationResult r = run({}, 1e-6, 1e-6);
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  const double scd = significant_digits(r);
  MESSAGE("scd at rtol = atol = 1e-6: ", scd, ", IDA steps: ", r.statistics.steps);
  CHECK(scd >= 4.0);
}

TEST_CASE("at tighter tolerances the amplifier gets closer and its hidden constraints hold") {
  const SimulationResult r = run({}, 1e-8, 1e-8);
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  MESSAGE("scd at rtol = atol = 1e-8: ", significant_digits(r),
          ", IDA steps: ", r.statistics.steps);
  CHECK(significant_digits(r) >= 6.0);
  // f_1 + f_2 = 0 (the node of U1 and U2 has no capacitor to ground): (U1 - Ue)/R0 +
  // (2 U2 - Ub)/R + (1 - alpha) g(U2 - U3) = 0 at every row, to the integration's accuracy.
  const ResultTable& t = r.table;
  double worst = 0.0;
  for (std::size_t i = 0; i < t.num_rows(); ++i) {
    const double u1 = value(t, i, "U1"), u2 = value(t, i, "U2"), u3 = value(t, i, "U3");
    const double ue = value(t, i, "Ue");
    const double sum =
        (u1 - ue) / 1000.0 + (2 * u2 - 6.0) / 9000.0 + 0.01 * 1e-6 * std::expm1((u2 - u3) / 0.026);
    worst = std::max(worst, std::abs(sum));
  }
  // Currents are of order Ub/R ~ 7e-4 A; 1e-8 rel_tol of U (1e-8 V) over R0 is 1e-11 A.
  CHECK(worst < 1e-9);
}

TEST_CASE("at rtol = atol = 1e-10 with IDA's own step control the amplifier stops before 0.2 s") {
  // What the example's step_growth_threshold of 6 remedies (docs/design.md, "Hidden
  // constraints"): with IDA's own threshold of 2 the steps stay at order 1, each doubling
  // fails its error test, and IDA gives up with too much work long before the stop time.
  const SimulationResult r = run({}, 1e-10, 1e-10, 2.0);
  CAPTURE(r.status.message);
  CHECK(r.status.outcome == Outcome::kSolverFailure);
  CHECK(r.status.message.find("IDA_TOO_MUCH_WORK") != std::string::npos);
  CHECK(r.status.t < 0.15);
}

TEST_CASE("at rtol = atol = 1e-10 the amplifier reaches the test set's y(0.2) to 8 digits") {
  // The example's step control (models/src/catalog_daes.cpp). With IDA's own, the run stays at
  // order 1 with an error test failure after nearly every step and ends with
  // IDA_TOO_MUCH_WORK near t = 0.09 s, as a plain IDA program on the same rows does.
  const SimulationResult r = run({}, 1e-10, 1e-10, 6.0);
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  MESSAGE("scd at rtol = atol = 1e-10: ", significant_digits(r),
          ", IDA steps: ", r.statistics.steps);
  // abs_tol 1e-10 V is 2e-8 of U1 (5.6 mV at t = 0.2 s), the smallest component.
  CHECK(significant_digits(r) >= 8.0);
}
