// The jump_rule option through simulate(): the midpoint rule (default) conserves an invariant
// of the f_d rows across an impulse that the end-point rule breaks
// (docs/design.md, "The jump solve").
#include <cmath>

#include <doctest/doctest.h>

#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// f_d row 2 x1 der(x1) + der(x2) = 0, i.e. d(x1^2 + x2)/dt = 0, and a second row that is
/// der(x1) = 0 until the time event "engage" at 0.5 switches it to the constraint x1 = x2.
/// From x1 = 2, x2 = 0 the constraint is violated at 0.5, so x jumps there.
class EngagedInvariant final : public Model {
 public:
  EngagedInvariant() : Model("engaged_invariant") {
    x1_ = declare_variable({.name = "x1", .start = 2.0});
    x2_ = declare_variable({.name = "x2"});
    invariant_ = declare_equation("2*x1*der(x1) + der(x2) = 0");
    second_ = declare_equation("der(x1) = 0 (before 0.5) or x1 - x2 = 0 (after)");
    engage_ = declare_time_event("engage");
  }
  void evaluate(Evaluation& e) override {
    e.set(invariant_, 2.0 * e.x(x1_) * e.der(x1_) + e.der(x2_));
    e.set(second_, engaged_ ? e.x(x1_) - e.x(x2_) : e.der(x1_));
  }
  void on_event(EventContext& event) override {
    if (event.is_initial() && event.pass() == 1) event.schedule(engage_, 0.5);
    if (event.fired(engage_)) {
      engaged_ = true;
      event.set_row_kind(second_, RowKind::kConstraint);
    }
  }
  void reset() override { engaged_ = false; }

 private:
  bool engaged_ = false;
  Var x1_, x2_;
  Eq invariant_, second_;
  TimeEvent engage_;
};

SimulationResult run(JumpRule rule) {
  EngagedInvariant model;
  SimulationOptions options;
  options.stop_s = 1.0;
  options.jump_rule = rule;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.ok());
  return result;
}

}  // namespace

TEST_CASE("through simulate, the midpoint jump keeps x1^2 + x2 and the end-point jump does not") {
  // Midpoint rule: M_d((x^- + x^+)/2) (x^+ - x^-) = 0 reads (x1^- + x1^+)(x1^+ - x1^-) +
  // (x2^+ - x2^-) = 0, i.e. x1^+^2 + x2^+ = x1^-^2 + x2^- = 4: the invariant is exact. With
  // x1^+ = x2^+ = a: a^2 + a - 4 = 0, a = (-1 + sqrt(17))/2 = 1.5616.
  // End-point rule: M_d(x^+) (x^+ - x^-) = 0 reads 2 a (a - 2) + (a - 0) = 0, i.e.
  // 2 a^2 - 3 a = 0; Newton from x^- = (2, 0) reaches a = 3/2 (the root 0 lies beyond it), so
  // x1^2 + x2 = 3.75 afterwards.
  const double midpoint = (-1.0 + std::sqrt(17.0)) / 2.0;
  const double end_point = 1.5;
  const SimulationResult mid = run(JumpRule::kMidpoint);
  const SimulationResult end = run(JumpRule::kEndPoint);
  const SimulationResult by_default = run(SimulationOptions{}.jump_rule);
  // Tolerance: the jump solve's Newton tolerance is jump_tol_factor * rel_tol = 1e-9 in
  // nominal units (1 here); after the jump both rows keep x constant (der(x1) (2 x1 + 1) = 0),
  // which IDA integrates exactly.
  for (const char* name : {"x1", "x2"}) {
    CHECK(mid.table.final_value(name) == doctest::Approx(midpoint).epsilon(1e-8));
    CHECK(end.table.final_value(name) == doctest::Approx(end_point).epsilon(1e-8));
    CHECK(by_default.table.final_value(name) == mid.table.final_value(name));
  }
  // The event log shows the jump at 0.5 from the left limit (2, 0).
  for (const SimulationResult* r : {&mid, &end}) {
    REQUIRE(r->events.size() == 2);
    const EventRecord& e = r->events[1];
    CHECK(e.t == 0.5);
    REQUIRE(e.jumps.size() == 2);
    CHECK(e.jumps[0].variable == "x1");
    CHECK(e.jumps[0].before == 2.0);
    CHECK(e.jumps[1].variable == "x2");
    CHECK(e.jumps[1].before == 0.0);
  }
  // The invariant x1^2 + x2 on every row: 4 throughout with the midpoint rule; with the end
  // point 4 before the jump and 3.75 after it.
  for (std::size_t i = 0; i < mid.table.num_rows(); ++i) {
    const double x1 = mid.table.value(i, 0), x2 = mid.table.value(i, 1);
    CHECK(x1 * x1 + x2 == doctest::Approx(4.0).epsilon(1e-8));
  }
  const double x1_end = end.table.final_value("x1"), x2_end = end.table.final_value("x2");
  CHECK(x1_end * x1_end + x2_end == doctest::Approx(3.75).epsilon(1e-8));
}
