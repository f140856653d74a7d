// State events: root finding, left/right limits, explicit re-initialization, chattering.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/models/bouncing_ball.hpp"
#include "hdae/models/simple_state_events.hpp"
#include "hdae/simulator.hpp"
#include "support/ball_impacts.hpp"

using namespace hdae;

namespace {

/// The bouncing-ball runs: 3 s (beyond the accumulation time 2.56 s), rel_tol 1e-8.
SimulationOptions ball_options() {
  SimulationOptions options;
  options.stop_s = 3.0;
  options.rel_tol = 1e-8;
  return options;
}

}  // namespace

TEST_CASE("simple state events: four events at the published times, two rows each") {
  models::SimpleStateEvents model;
  SimulationOptions options;
  options.stop_s = 10.0;
  options.output_interval_s = 0.1;
  options.rel_tol = 1e-8;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  // Published event times (ModiaMath's SimpleStateEvents test), 6 significant digits.
  const double expected[] = {1.62283, 3.36771, 6.51321, 8.04188};
  std::vector<double> times;
  for (const EventRecord& e : result.events) {
    if (e.kind == EventKind::kState) times.push_back(e.t);
  }
  REQUIRE(times.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) CHECK(std::abs(times[i] - expected[i]) < 1e-3);
  CHECK(result.statistics.state_events == 4);
  // 101 grid rows (0, 0.1, ..., 10) plus a left and a right row per event.
  CHECK(result.table.num_rows() == 101 + 2 * 4);
  for (const double t : times) {
    std::size_t rows_at_t = 0;
    for (const double tr : result.table.time()) rows_at_t += tr == t ? 1 : 0;
    CHECK(rows_at_t == 2);
  }
  // The force switches exactly at the events: left row has the old force, right the new.
  const std::size_t f = result.table.column_index("f");
  for (std::size_t i = 1; i < result.table.num_rows(); ++i) {
    if (result.table.time(i) == result.table.time(i - 1)) {
      CHECK(result.table.value(i, f) != result.table.value(i - 1, f));
    }
  }
}

TEST_CASE("a bouncing ball hits the ground at the analytic impact times and comes to rest") {
  const models::BouncingBallParameters p;  // h0 = 1, e = 0.7, g = 9.81, rest below 0.01 m/s
  models::BouncingBall model(p);
  const SimulationOptions options = ball_options();
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);

  const double e = p.restitution;
  const double t1 = std::sqrt(2 * p.h0_m / p.gravity_mps2);
  const double v1 = std::sqrt(2 * p.gravity_mps2 * p.h0_m);  // first impact speed
  // Rebound speed after impact n is e^n v1; the ball rests at the first n with e^n v1 < 0.01:
  // n = ceil(ln(0.01 / v1) / ln(e)) = 18.
  const int impacts_until_rest =
      static_cast<int>(std::ceil(std::log(p.rest_speed_mps / v1) / std::log(e)));
  REQUIRE(impacts_until_rest == 18);

  std::vector<const EventRecord*> impacts;
  for (const EventRecord& ev : result.events) {
    if (ev.kind == EventKind::kState) impacts.push_back(&ev);
  }
  REQUIRE(static_cast<int>(impacts.size()) == impacts_until_rest);
  CHECK_FALSE(model.flying());
  for (std::size_t k = 0; k < impacts.size(); ++k) {
    const int n = static_cast<int>(k) + 1;
    const double t_n = t1 * (1 + 2 * e * (1 - std::pow(e, n - 1)) / (1 - e));
    const double v_impact = v1 * std::pow(e, n - 1);
    // h carries a global error of at most ~100 rel_tol (see the lag test); at impact speed
    // v_n that shifts the root by 100 rel_tol / v_n, plus IDA's root location tolerance.
    const double tol = 100 * options.rel_tol * (1.0 + 1.0 / v_impact) + 1e-9;
    CHECK(std::abs(impacts[k]->t - t_n) < tol);
    // The event log holds the jump of v: -e^(n-1) v1 -> e^n v1 (or 0 at rest). Momentum ratio
    // to the first impact's rebound is e^(n-1); energy ratio e^(2(n-1)).
    const JumpRecord* jump = nullptr;
    for (const JumpRecord& j : impacts[k]->jumps) {
      if (j.variable == "v") jump = &j;
    }
    REQUIRE(jump != nullptr);
    CHECK(jump->before == doctest::Approx(-v_impact).epsilon(1e-5));
    if (n < impacts_until_rest) {
      // Relative 1e-5: velocity error ~100 rel_tol relative, compounded over n impacts.
      CHECK(jump->after == doctest::Approx(e * v_impact).epsilon(1e-5));
      CHECK(jump->after / (e * v1) == doctest::Approx(std::pow(e, n - 1)).epsilon(1e-5));
      CHECK(std::pow(jump->after / (e * v1), 2) ==
            doctest::Approx(std::pow(e, 2 * (n - 1))).epsilon(2e-5));
    } else {
      CHECK(jump->after == 0.0);
    }
  }
  CHECK(std::abs(result.table.final_value("v")) == 0.0);
}

TEST_CASE("bouncing ball impacts are located to 1e-12 s of the analytic times at rel_tol 1e-10") {
  const models::BouncingBallParameters p;  // h0 = 1, e = 0.7, g = 9.81, rest below 0.01 m/s
  models::BouncingBall model(p);
  SimulationOptions options = ball_options();
  options.rel_tol = 1e-10;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  // The analytic impact times (support/ball_impacts.hpp): h(t) is a parabola that IDA
  // follows to its tolerance, and IDA's root finder brackets the zero of h (handed to it
  // unshifted) to 100 u (|t| + |step|), about 1e-13 s here.
  const std::vector<double> impacts = test::state_event_times(result);
  REQUIRE(impacts.size() == 18);
  const std::vector<double> exact = test::ball_impact_times(p, impacts.size());
  for (std::size_t k = 0; k < impacts.size(); ++k) {
    CAPTURE(k);
    CHECK(std::abs(impacts[k] - exact[k]) < 1e-12 * std::max(1.0, exact[k]));
  }
}

TEST_CASE("the bouncing ball's mechanical energy after impact n is e^(2n) of the initial one") {
  const models::BouncingBallParameters p;  // h0 = 1, e = 0.7, g = 9.81, rest below 0.01 m/s
  models::BouncingBall model(p);
  const SimulationOptions options = ball_options();
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  const ResultTable& table = result.table;
  const std::size_t h = table.column_index("h");
  const std::size_t v = table.column_index("v");
  const double g = p.gravity_mps2;
  auto energy = [&](std::size_t row) {  // per unit mass: g h + v^2 / 2
    return g * table.value(row, h) + 0.5 * table.value(row, v) * table.value(row, v);
  };
  // Energy is conserved in flight and the impact multiplies the kinetic energy by e^2 (the
  // rebound speed is e times the impact speed). IDA locates the zero of h itself, so right
  // after impact n the energy is e^(2n) g h0.
  const double e0 = energy(0);
  CHECK(e0 == doctest::Approx(g * p.h0_m).epsilon(1e-15));
  std::vector<double> after;  // the right-limit rows: the second row at an event time
  for (std::size_t i = 1; i < table.num_rows(); ++i) {
    if (table.time(i) == table.time(i - 1)) after.push_back(energy(i));
  }
  REQUIRE(after.size() == 18);  // 17 rebounds, then the ball comes to rest (see above)
  for (std::size_t k = 0; k + 1 < after.size(); ++k) {
    const int n = static_cast<int>(k) + 1;
    // v carries a global relative error of at most ~100 rel_tol (the lag test's bound), so
    // v^2 one of 2e-6.
    const double expected = std::pow(p.restitution, 2 * n) * e0;
    CHECK(after[k] == doctest::Approx(expected).epsilon(2e-6));
  }
  // At rest v = 0 and h = 0 up to the root location: h is a parabola IDA follows to its
  // tolerance (|h| error ~100 rel_tol, see the lag test) and the root is bracketed to ~1e-14 s
  // at |v| < 0.01 m/s, so g |h| < 1e-5 J/kg is generous.
  CHECK(std::abs(after.back()) < 1e-5);
}

TEST_CASE("a bouncing ball without the rest rule is stopped as chattering before it accumulates") {
  models::BouncingBallParameters p;
  p.rest_speed_mps = 0.0;
  models::BouncingBall model(p);
  const SimulationOptions options = ball_options();
  const SimulationResult result = simulate(model, options);
  CHECK(result.status.outcome == Outcome::kChattering);
  // Accumulation time of the impacts: t1 (1 + e)/(1 - e) = 2.5586 s (geometric series).
  const double t1 = std::sqrt(2 * p.h0_m / p.gravity_mps2);
  const double t_acc = t1 * (1 + p.restitution) / (1 - p.restitution);
  CHECK(result.status.t < t_acc);
  CHECK(result.status.t > 2.0);
  CHECK(result.status.message.find("crossing 'h < 0'") != std::string::npos);
  CHECK(result.status.message.find("factor 0.7 per event") != std::string::npos);
  // The estimate extrapolates t + d r / (1 - r) from the last spacing d and ratio r. The
  // impacts are analytic apart from the trajectory's error and IDA's root location; the
  // remaining time it extrapolates is 2.8e-4 s. A tolerance of 1e-5 s sits above those errors and
  // well below the 2.8e-4 s that t itself misses the accumulation point by.
  const std::string& m = result.status.message;
  const std::size_t at = m.find("estimated accumulation time ");
  REQUIRE(at != std::string::npos);
  const double estimate = std::stod(m.substr(at + 28));
  CHECK(std::abs(estimate - t_acc) < 1e-5);
  CHECK(t_acc - result.status.t > 1e-4);
  // The rows computed so far are kept, ending with a row at the stopping time.
  CHECK(result.table.time().back() == result.status.t);
}
