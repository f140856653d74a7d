// Chattering detection (events/chattering.hpp): a relay in sliding mode is stopped, whatever
// the spacing of its switchings; a legitimate model with many evenly spaced events is not.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "hdae/model_builder.hpp"
#include "hdae/models/bouncing_ball.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// A relay with a switching band: x' = -u + drift, u = +1 while pushing down, -1 while
/// pushing up; it switches to pushing up when x falls below -band and back when x rises
/// above +band. With band = 0 this is x' = -sign(x) + drift, whose solution slides along
/// x = 0 (Filippov): the relay switches back and forth forever, every 2 band / |x'| seconds,
/// or, with band = 0, as fast as IDA can resolve time.
class Relay final : public Model {
 public:
  Relay(double band, double drift) : Model("relay"), band_(band), drift_(drift) {
    x_ = declare_variable({.name = "x", .start = 1.0});
    eq_ = declare_equation("der(x) = -u + drift");
    switch_ = declare_crossing("relay switch");
  }
  void evaluate(Evaluation& e) override {
    e.positive(switch_, e.x(x_) + (pushing_down_ ? band_ : -band_));
    e.set(eq_, e.der(x_) + (pushing_down_ ? 1.0 : -1.0) - drift_);
  }
  void on_event(EventContext& event) override { pushing_down_ = event.is_true(switch_); }
  void reset() override { pushing_down_ = true; }

 private:
  double band_, drift_;
  bool pushing_down_ = true;
  Var x_;
  Eq eq_;
  Crossing switch_;
};

/// "at t = <number> s" from a chattering message.
double time_in(const std::string& message) {
  const std::size_t at = message.find("at t = ");
  REQUIRE(at != std::string::npos);
  return std::stod(message.substr(at + 7));
}

}  // namespace

TEST_CASE("a relay in sliding mode switching every few microseconds is stopped as chattering") {
  // band 1e-6: x travels 2 band between switchings, at |x'| = 1 - 0.1 going down and
  // 1 + 0.1 going up: spacings 2.22e-6 s and 1.82e-6 s, mean 2.02e-6 s.
  constexpr double kBand = 1e-6;
  constexpr double kDrift = 0.1;
  Relay model(kBand, kDrift);
  SimulationOptions options;
  options.stop_s = 10.0;  // would take ~5e6 switchings: a crawl
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.outcome == Outcome::kChattering);

  // The first switching: x falls from 1 to -band at rate 0.9 (IDA locates the unshifted
  // crossing value's zero).
  const double t_first = (1.0 + kBand) / (1.0 - kDrift);
  // Dense-events rule: 1000 further switchings (500 up, 500 down; each travel 2 band) lie
  // within 2.02e-3 s, less than 5e-4 of the 10 s interval.
  const double travel = 2 * kBand;
  const double up = travel / (1.0 + kDrift);
  const double down = travel / (1.0 - kDrift);
  const double t_stop = t_first + 500 * (up + down);
  // Each root is located to IDA's time tolerance (~1e-14 s here) and x is integrated
  // exactly (a linear function of t): 1e-9 s covers 1000 switchings comfortably.
  CHECK(std::abs(result.status.t - t_stop) < 1e-9);
  CHECK(result.statistics.state_events == 1001);
  const std::string& m = result.status.message;
  CHECK(std::abs(time_in(m) - t_stop) < 1e-8);  // printed with 9 significant digits
  // 1000 spacings between the last 1001 events, all of them (state_events above).
  CHECK(m.find("1001 consecutive events of crossing 'relay switch'") != std::string::npos);
  // Mean spacing 500 (up + down) / 1000 = 2.0204e-6 s; the interval would take 10 s / that.
  CHECK(m.find("mean spacing 2.02e-06 s") != std::string::npos);
  CHECK(m.find("less than chattering_dense_span_fraction = 0.0005 of the simulation interval "
               "of 10 s") != std::string::npos);
  CHECK(m.find("about 4.9e+06 events") != std::string::npos);
  // The rows so far are kept, ending with a row at the stopping time.
  CHECK(result.table.time().back() == result.status.t);
}

TEST_CASE("x' = -sign(x) + drift switching at round-off scale is stopped by the spacing rule") {
  // No band: after the first switching x sits on zero, and the relay switches again as soon
  // as x has moved past the offset that keeps IDA's root function off zero at the restart (a
  // few ulps, crossing_table.hpp) and IDA has bracketed that root (100 u (|t| + |h|)): well
  // below 1e-12 s, and far below chattering_min_relative_spacing * max(|t|, 10 s) = 1e-9 s.
  // The dense-events rule is switched off to show this rule alone stops the run after 25
  // such spacings.
  Relay model(0.0, 0.1);
  SimulationOptions options;
  options.stop_s = 10.0;
  options.chattering_dense_span_fraction = 0.0;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.outcome == Outcome::kChattering);
  const double t_first = 1.0 / 0.9;  // x falls from 1 to 0 at rate 0.9
  // 25 spacings after the first switching, each below 1e-12 s.
  CHECK(result.status.t > t_first);
  CHECK(result.status.t - t_first < 25 * 1e-12);
  CHECK(result.statistics.state_events == 26);
  const std::string& m = result.status.message;
  CHECK(std::abs(time_in(m) - result.status.t) < 1e-8);
  CHECK(m.find("(chattering): 26 consecutive events of crossing 'relay switch', the 25 spacings "
               "between them less than 1e-09 s (chattering_min_relative_spacing = 1e-10 times "
               "max(|t|, stop_s - start_s))") != std::string::npos);
}

TEST_CASE("the tiny-spacing threshold scales with the time: the same switchings at t = 1e3") {
  // Started at t0 = 1000 with a 1 s interval, the threshold is 1e-10 * 1000 = 1e-7 s: the
  // switchings at IDA's time resolution are caught there too, and the message says so.
  Relay model(0.0, 0.1);
  SimulationOptions options;
  options.start_s = 1000.0;
  options.stop_s = 1001.5;
  options.chattering_dense_span_fraction = 0.0;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.outcome == Outcome::kChattering);
  CHECK(result.status.t == doctest::Approx(1000.0 + 1.0 / 0.9).epsilon(1e-9));
  CHECK(result.status.message.find("spacings between them less than 1e-07 s") != std::string::npos);
}

TEST_CASE("an elastic ball with 2000 evenly spaced impacts is not flagged as chattering") {
  // e = 1, no rest rule: impacts at t1 (2n - 1), t1 = sqrt(2 h0 / g), 0.903 s apart forever.
  // This is the event benchmark's model (bench/events_main.cpp runs 10^5 impacts); 2000 keep
  // the test short. 1000 impacts span 903 s, half the 1806 s interval, far above the
  // dense-events fraction 5e-4.
  models::BouncingBall model(
      {.h0_m = 1.0, .restitution = 1.0, .gravity_mps2 = 9.81, .rest_speed_mps = 0.0});
  const double t1 = std::sqrt(2.0 / 9.81);
  constexpr int kImpacts = 2000;
  SimulationOptions options;
  options.stop_s = t1 * (2 * kImpacts - 1) + t1;  // half a flight after the last impact
  options.rel_tol = 1e-8;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  CHECK(result.statistics.state_events == kImpacts);
  // The impacts stay on the analytic grid: each flight's time error is ~1e-9 s (polynomial
  // trajectory, root location); after 2000 flights 1e-5 s is a generous bound that still
  // rules out a lost or extra impact (0.9 s).
  int n = 0;
  for (const EventRecord& e : result.events) {
    if (e.kind != EventKind::kState) continue;
    ++n;
    CHECK(std::abs(e.t - t1 * (2 * n - 1)) < 1e-5);
  }
}
