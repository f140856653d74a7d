// The crossing helpers change() and edge() (model.hpp) on a sine: which crossings they
// report, at which times, and that edge() re-arms when the value falls back.
#include <cmath>
#include <numbers>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

constexpr double kPi = std::numbers::pi;

/// A clock s' = 1 and two crossings on the same signal c(t) = sin(2 pi t + pi/3), one read
/// through change(), the other through edge(). evaluate() notes what the helpers report in
/// an event pass; on_event() records the times.
class SineHelpers final : public Model {
 public:
  SineHelpers() : Model("sine_helpers") {
    s_ = declare_variable({.name = "s"});
    clock_ = declare_equation("der(s) = 1");
    changed_ = declare_crossing("change(sin)");
    rising_ = declare_crossing("edge(sin)");
  }
  void evaluate(Evaluation& e) override {
    const double c = std::sin(2 * kPi * e.t() + kPi / 3);
    e.set(clock_, e.der(s_) - 1.0);
    if (e.change(changed_, c)) change_seen_ = true;
    if (e.edge(rising_, c)) edge_seen_ = true;
  }
  void on_event(EventContext& event) override {
    if (change_seen_) change_times.push_back(event.t());
    if (edge_seen_) edge_times.push_back(event.t());
    change_seen_ = edge_seen_ = false;
  }
  void reset() override {
    change_times.clear();
    edge_times.clear();
    change_seen_ = edge_seen_ = false;
  }

  std::vector<double> change_times, edge_times;

 private:
  bool change_seen_ = false, edge_seen_ = false;
  Var s_;
  Eq clock_;
  Crossing changed_, rising_;
};

}  // namespace

TEST_CASE("change() reports every sign change of a sine, edge() only the rising ones") {
  SineHelpers model;
  SimulationOptions options;
  options.stop_s = 3.0;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  // sin(2 pi t + pi/3) = 0 at t = k/2 - 1/6: falling at 1/3, 4/3, 7/3 and rising at 5/6,
  // 11/6, 17/6. It starts positive (sin(pi/3) > 0), which is neither a change nor an edge.
  const std::vector<double> all = {1.0 / 3, 5.0 / 6, 4.0 / 3, 11.0 / 6, 7.0 / 3, 17.0 / 6};
  const std::vector<double> rising = {5.0 / 6, 11.0 / 6, 17.0 / 6};
  // IDA locates each zero of the crossing value to its time tolerance (~1e-14 s); the
  // trajectory's own error (rel_tol 1e-6 over the slope 2 pi) dominates: 1e-9 s.
  REQUIRE(model.change_times.size() == all.size());
  for (std::size_t k = 0; k < all.size(); ++k)
    CHECK(std::abs(model.change_times[k] - all[k]) < 1e-9);
  // edge() fires on every rising crossing, so it re-armed on each falling one in between.
  REQUIRE(model.edge_times.size() == rising.size());
  for (std::size_t k = 0; k < rising.size(); ++k) {
    CHECK(std::abs(model.edge_times[k] - rising[k]) < 1e-9);
  }
  // Both crossings stop the integration in either direction: six state events, each logged
  // with both crossings flipping the same way.
  CHECK(result.statistics.state_events == 6);
  std::size_t k = 0;
  for (const EventRecord& e : result.events) {
    if (e.kind != EventKind::kState) continue;
    REQUIRE(e.crossings.size() == 2);
    const CrossingDirection expected =
        k % 2 == 0 ? CrossingDirection::kFalling : CrossingDirection::kRising;
    CHECK(e.crossings[0].direction == expected);
    CHECK(e.crossings[1].direction == expected);
    ++k;
  }
}

TEST_CASE("change() and edge() report nothing at the start for a condition that starts true") {
  // Covered above by the absence of t = 0 in the lists; here stated on its own: the initial
  // event iteration runs, and neither helper fires in it.
  SineHelpers model;
  SimulationOptions options;
  options.stop_s = 0.25;  // before the first zero at t = 1/3
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.ok());
  REQUIRE(result.events.size() == 1);
  CHECK(result.events[0].kind == EventKind::kInitial);
  CHECK(result.events[0].crossings.empty());
  CHECK(model.change_times.empty());
  CHECK(model.edge_times.empty());
}
