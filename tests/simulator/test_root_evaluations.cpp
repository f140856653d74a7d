// IDA's root functions read only the crossing values: their evaluations say
// Evaluation::wants_residuals() == false, every other evaluation of a run wants them, and a
// model that leaves the residuals alone there (the index reduction skips its jets) runs as
// one that writes them.
#include <cmath>
#include <limits>

#include <doctest/doctest.h>

#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// x' = -x, x(0) = 1, with the crossing x - 0.5 (a falling root at t = ln 2). Where residuals
/// are not wanted it writes NaN, which a caller that read them would see.
class SkipsResiduals final : public Model {
 public:
  SkipsResiduals() : Model("skips_residuals") {
    x_ = declare_variable({.name = "x", .start = 1.0});
    ode_ = declare_equation("der(x) = -x");
    half_ = declare_crossing("x > 0.5");
  }
  void evaluate(Evaluation& e) override {
    static_cast<void>(e.positive(half_, e.x(x_) - 0.5));
    if (!e.wants_residuals()) {
      ++skipped;
      if (!e.wants_crossings()) ++skipped_without_crossings;
      e.set(ode_, std::numeric_limits<double>::quiet_NaN());
      return;
    }
    e.set(ode_, e.der(x_) + e.x(x_));
  }

  int skipped = 0;
  int skipped_without_crossings = 0;

 private:
  Var x_;
  Eq ode_;
  Crossing half_;
};

}  // namespace

TEST_CASE("root-function evaluations want no residuals, and a model may skip them there") {
  SkipsResiduals model;
  SimulationOptions o;
  o.stop_s = 1.0;
  o.output_interval_s = 0.1;
  o.rel_tol = 1e-10;
  o.log_level = LogLevel::kOff;
  const SimulationResult result = simulate(model, o);
  REQUIRE(result.status.ok());
  // IDA evaluates its root functions at every step end.
  CHECK(model.skipped >= static_cast<int>(result.statistics.steps));
  // They always want the crossing values.
  CHECK(model.skipped_without_crossings == 0);
  // One state event, where x = exp(-t) reaches 0.5: t = ln 2, located as IDA locates roots
  // (the log also holds the initial event at t = 0). 1e-8: a hundred times rel_tol, the
  // global error of x near 0.5 after a second of decay, divided by |x'| = 0.5, bounds the
  // root's error; x(1) = exp(-1) is held to the same bound.
  int state_events = 0;
  for (const EventRecord& event : result.events) {
    if (event.kind != EventKind::kState) continue;
    ++state_events;
    CHECK(std::abs(event.t - std::log(2.0)) < 1e-8);
  }
  CHECK(state_events == 1);
  CHECK(std::abs(result.table.final_value("x") - std::exp(-1.0)) < 1e-8);
}
