// A row declared RowKind::kConstraint is f_c(x) = 0: the jump solve and the consistent
// derivatives evaluate it with der_x = 0. One that depends on der_x would silently lose that
// dependence (der(y) = -y as a constraint gives y = 0), so the run refuses it, naming the row
// and the derivative, at t0 and after an event that makes such a row a constraint.
#include <cmath>
#include <memory>
#include <string>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// y' = -y, y(0) = 1, in a row declared with `kind`; with switch_at_half, a time event at
/// t = 0.5 makes that row a constraint.
class Decay final : public Model {
 public:
  Decay(RowKind kind, bool switch_at_half) : Model("decay"), switch_at_half_(switch_at_half) {
    y_ = declare_variable({.name = "y", .start = 1.0});
    ode_ = declare_equation("der(y) = -y", kind);
    half_ = declare_time_event("half");
  }
  void evaluate(Evaluation& e) override { e.set(ode_, e.der(y_) + e.x(y_)); }
  void on_event(EventContext& event) override {
    if (event.is_initial() && switch_at_half_) event.schedule(half_, 0.5);
    if (event.fired(half_)) event.set_row_kind(ode_, RowKind::kConstraint);
  }

 private:
  bool switch_at_half_;
  Var y_;
  Eq ode_;
  TimeEvent half_;
};

SimulationOptions decay_options() {
  SimulationOptions o;
  o.stop_s = 1.0;
  o.rel_tol = 1e-8;
  o.log_level = LogLevel::kOff;
  return o;
}

struct Caught {
  std::string message = "simulate did not throw ModelCallbackError";
  std::shared_ptr<const SimulationResult> partial;
};

Caught run_to_failure(Decay& model) {
  Caught c;
  try {
    static_cast<void>(simulate(model, decay_options()));
  } catch (const ModelCallbackError& e) {
    c.message = e.what();
    c.partial = e.partial_result();
  }
  return c;
}

}  // namespace

TEST_CASE("a constraint row that depends on a derivative is refused at t0, naming row and der") {
  Decay model(RowKind::kConstraint, false);
  const Caught c = run_to_failure(model);
  CHECK(c.message ==
        "model 'decay' failed in jump solve at t = 0: row 'der(y) = -y' is declared a "
        "constraint but depends on der(y); a constraint row must not contain derivatives "
        "(declare it RowKind::kDifferential)");
  REQUIRE(c.partial != nullptr);
  CHECK(c.partial->status.outcome == Outcome::kModelFailure);
}

TEST_CASE("a row made a constraint at an event while it depends on a derivative is refused") {
  Decay model(RowKind::kDifferential, true);
  const Caught c = run_to_failure(model);
  CHECK(c.message ==
        "model 'decay' failed in jump solve at t = 0.5: row 'der(y) = -y' is declared a "
        "constraint but depends on der(y); a constraint row must not contain derivatives "
        "(declare it RowKind::kDifferential)");
  REQUIRE(c.partial != nullptr);
  CHECK(c.partial->status.t == 0.5);
}

TEST_CASE("the same row declared differential decays as exp(-t)") {
  // The check refuses only the constraint: declared differential, y(1) = exp(-1) to the
  // integration tolerance (100 rel_tol, as in the other integration tests).
  Decay model(RowKind::kDifferential, false);
  const SimulationResult result = simulate(model, decay_options());
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  CHECK(std::abs(result.table.final_value("y") - std::exp(-1.0)) < 100 * 1e-8);
}
