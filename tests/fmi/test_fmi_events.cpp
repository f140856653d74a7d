// FMUs with events (tests/fmi/fmus): the bouncing ball's impacts, as FMI 3.0 and 2.0, against
// the closed form, its request to terminate as a clean stop, and the stair of time events the
// FMU announces with nextEventTime.
#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/fmi.hpp"
#include "hdae/simulator.hpp"
#include "test_fmus.hpp"

using namespace hdae;

namespace {

/// The times of the impacts that bounce (v jumps from falling to rising).
std::vector<double> bounce_times(const SimulationResult& r) {
  std::vector<double> times;
  for (const EventRecord& e : r.events) {
    for (const JumpRecord& j : e.jumps) {
      if (j.variable == "v" && j.before < 0.0 && j.after > 0.0) times.push_back(e.t);
    }
  }
  return times;
}

/// Impact times of a ball dropped from h0 with restitution e: t1 = sqrt(2 h0 / g), and each
/// flight after impact n lasts 2 v_n / g with v_n = e^n v1, v1 = sqrt(2 g h0) (free fall).
std::vector<double> closed_form_impacts(double h0, double g, double e, int count) {
  const double v1 = std::sqrt(2.0 * g * h0);
  std::vector<double> t{std::sqrt(2.0 * h0 / g)};
  for (int n = 1; n < count; ++n) t.push_back(t.back() + 2.0 * std::pow(e, n) * v1 / g);
  return t;
}

void check_ball(const std::string& fmu) {
  const std::unique_ptr<fmi::Fmu> ball = fmi::load(test::test_fmu(fmu));
  SimulationOptions o;
  o.stop_s = 3.0;
  o.rel_tol = 1e-10;
  const SimulationResult r = simulate(*ball, o);
  // v_stop = 1 m/s: the rebound speeds e^n v1 = 3.10, 2.17, 1.52, 1.06 m/s bounce, the fifth,
  // 0.74 m/s, is slower, and the FMU asks to terminate at that impact.
  const std::vector<double> expected = closed_form_impacts(1.0, 9.81, 0.7, 5);
  const std::vector<double> bounces = bounce_times(r);
  REQUIRE(bounces.size() == 4);
  // Between impacts h is a parabola; rel_tol 1e-10 bounds IDA's local errors (the first steps
  // after each restart are of order 1, not exact for it), and an error of the height moves an
  // impact by that error over the speed (above 1 m/s): far below 1e-7 s after five flights.
  for (std::size_t n = 0; n < bounces.size(); ++n) {
    CAPTURE(n);
    CHECK(std::abs(bounces[n] - expected[n]) < 1e-7);
  }
  CHECK(r.status.outcome == Outcome::kStoppedByModel);
  CHECK(std::abs(r.status.t - expected[4]) < 1e-7);
  CHECK(r.status.message.find("asked to terminate the simulation") != std::string::npos);
  // The speed after the first impact: e v1 = 0.7 sqrt(2 g h0); the same relative error.
  for (const EventRecord& e : r.events) {
    for (const JumpRecord& j : e.jumps) {
      if (j.variable == "v" && e.t == bounces[0]) {
        CHECK(j.after == doctest::Approx(0.7 * std::sqrt(2.0 * 9.81)).epsilon(1e-7));
      }
    }
  }
}

}  // namespace

TEST_CASE("an FMI 3.0 bouncing ball bounces at the closed-form impact times and stops cleanly") {
  check_ball("bouncing_ball");
}

TEST_CASE("an FMI 2.0 bouncing ball bounces at the same closed-form impact times") {
  check_ball("bouncing_ball_fmi2");
}

TEST_CASE("the bouncing ball FMU's units and parameters come from its model description") {
  const std::unique_ptr<fmi::Fmu> ball = fmi::load(test::test_fmu("bouncing_ball"));
  CHECK(ball->info().fmi_version == "3.0");
  CHECK(ball->info().stop_s == 3.0);
  const ModelStructure& s = ball->structure();
  REQUIRE(s.variables.size() == 2);
  CHECK(s.variables.info(0).name == "h");
  CHECK(s.variables.info(0).unit == "m");  // from its declared type Height
  CHECK(s.variables.der_name(1) == "der(v)");
  CHECK(s.variables.info(1).der_unit == "m/s2");
  REQUIRE(s.crossings.size() == 1);
  CHECK(s.crossings[0].name == "h > 0");
  REQUIRE(s.parameters.size() == 3);
  CHECK(s.parameters[1].name == "e");
  CHECK(s.parameters[1].max == 1.0);
  CHECK(s.outputs.empty());  // the output h is a state, recorded already
  CHECK_THROWS_WITH_AS(ball->set_parameter("e", 1.5),
                       "model 'bouncing_ball': parameter 'e' (coefficient of restitution) must "
                       "be a finite number in [0, 1], got 1.5",
                       ModelError);
}

TEST_CASE("a changed restitution of the bouncing ball FMU changes its flights as e says") {
  const std::unique_ptr<fmi::Fmu> ball = fmi::load(test::test_fmu("bouncing_ball"));
  ball->set_parameter("e", 0.8);
  SimulationOptions o;
  o.stop_s = 3.0;
  o.rel_tol = 1e-10;
  const SimulationResult r = simulate(*ball, o);
  const std::vector<double> bounces = bounce_times(r);
  const std::vector<double> expected = closed_form_impacts(1.0, 9.81, 0.8, 3);
  REQUIRE(bounces.size() >= 3);
  // The tolerance of the first test case.
  for (std::size_t n = 0; n < 3; ++n) CHECK(std::abs(bounces[n] - expected[n]) < 1e-7);
}

TEST_CASE("a stair of FMU time events steps its output at t = 1, 2, 3, 4 and x integrates it") {
  const std::unique_ptr<fmi::Fmu> stair = fmi::load(test::test_fmu("stair"));
  SimulationOptions o;
  o.stop_s = 4.5;
  o.rel_tol = 1e-8;
  o.output_interval_s = 0.25;
  const SimulationResult r = simulate(*stair, o);
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  CHECK(r.statistics.time_events == 4);
  const std::size_t x = r.table.column_index("x");
  const std::size_t u = r.table.column_index("u");
  CHECK(r.table.columns()[u].unit == "m/s");
  for (std::size_t i = 0; i < r.table.num_rows(); ++i) {
    const double t = r.table.time(i);
    const double k = std::floor(t);
    if (t == k) continue;  // an event instant holds either limit
    CAPTURE(t);
    // u = floor(t); x = integral of u = k (k - 1) / 2 + k (t - k). x is piecewise linear,
    // which IDA's polynomials reproduce to the Newton tolerance, far below 1e-9.
    CHECK(r.table.value(i, u) == k);
    CHECK(std::abs(r.table.value(i, x) - (k * (k - 1.0) / 2.0 + k * (t - k))) < 1e-9);
  }
  CHECK(r.table.final_value("x") == doctest::Approx(8.0).epsilon(1e-10));
}
