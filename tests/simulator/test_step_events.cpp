// Step events (SimulationModel::completed_step): a model hears of every completed integrator
// step and may ask for an event at its end, as an FMU's fmi3CompletedIntegratorStep does.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"

namespace {

using hdae::EventKind;

// x' = -k x, x(0) = 1, with k = 1 until the first completed step that ends at or after
// t_switch, whose step event sets k = 2: x = exp(-t1) exp(-2 (t - t1)) after that step end t1.
class SteppedDecay final : public hdae::Model {
 public:
  explicit SteppedDecay(bool ask) : Model("stepped_decay"), ask_(ask) {
    x_ = declare_variable({.name = "x", .start = 1.0});
    eq_ = declare_equation("der(x) = -k*x");
  }
  void evaluate(hdae::Evaluation& e) override { e.set(eq_, e.der(x_) + k_ * e.x(x_)); }
  [[nodiscard]] bool wants_completed_steps() const override { return ask_; }
  bool completed_step(double t, std::span<const double> x,
                      std::span<const double> /*der_x*/) override {
    steps.push_back({t, x[0]});
    return k_ == 1.0 && t >= kSwitch;
  }
  void on_event(hdae::EventContext& event) override {
    if (event.kind() != EventKind::kStep) return;
    k_ = 2.0;
    t1 = event.t();
  }
  void reset() override { k_ = 1.0, t1 = -1.0, steps.clear(); }

  static constexpr double kSwitch = 1.0;
  struct Step {
    double t, x;
  };
  std::vector<Step> steps;
  double t1 = -1.0;

 private:
  bool ask_;
  double k_ = 1.0;
  hdae::Var x_;
  hdae::Eq eq_;
};

hdae::SimulationOptions options() {
  hdae::SimulationOptions o;
  o.stop_s = 3.0;
  o.rel_tol = 1e-8;
  o.output_interval_s = 0.5;
  return o;
}

}  // namespace

TEST_CASE("a model that asks at a completed step gets an event of kind step at its end") {
  SteppedDecay m(true);
  const hdae::SimulationResult r = hdae::simulate(m, options());
  REQUIRE(r.status.ok());
  // The event came at the first step end at or after t_switch, which the model heard of.
  REQUIRE(m.t1 >= SteppedDecay::kSwitch);
  std::size_t first_after = 0;
  while (m.steps[first_after].t < SteppedDecay::kSwitch) ++first_after;
  CHECK(m.steps[first_after].t == m.t1);
  CHECK(r.statistics.step_events == 1);
  std::size_t step_records = 0;
  for (const hdae::EventRecord& e : r.events) {
    if (e.kind != EventKind::kStep) continue;
    ++step_records;
    CHECK(e.t == m.t1);
  }
  CHECK(step_records == 1);
  CHECK(hdae::to_string(EventKind::kStep) == "step");
  // Every step end the model heard of holds the closed form; rel_tol 1e-8 over a contractive
  // problem keeps the global error well below 1e-6.
  for (const SteppedDecay::Step& s : m.steps) {
    const double want =
        s.t <= m.t1 ? std::exp(-s.t) : std::exp(-m.t1) * std::exp(-2.0 * (s.t - m.t1));
    CHECK(std::abs(s.x - want) <= 1e-6);
  }
  const double x3 = std::exp(-m.t1) * std::exp(-2.0 * (3.0 - m.t1));
  CHECK(std::abs(r.table.final_value("x") - x3) <= 1e-6);
}

TEST_CASE("a model that does not want completed steps hears of none") {
  SteppedDecay m(false);
  const hdae::SimulationResult r = hdae::simulate(m, options());
  REQUIRE(r.status.ok());
  CHECK(m.steps.empty());
  CHECK(r.statistics.step_events == 0);
  CHECK(std::abs(r.table.final_value("x") - std::exp(-3.0)) <= 1e-6);
}
