// A crossing value that is NaN or Inf is treated like a non-finite residual: IDA retries
// with a smaller step, and when that persists the run ends with a solver failure whose
// message names the crossing, keeping the rows computed so far.
#include <cmath>
#include <limits>
#include <string>

#include <doctest/doctest.h>

#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// x' = -x with x(0) = 1 and one crossing whose value the test chooses:
///   kLog   log(x - 0.5) + 10, with a real root at x = 0.5 + exp(-10), -Inf at x = 0.5 and NaN
///          once x drops below 0.5 (at t = ln 2)
///   kSqrt  sqrt(x - 0.5) + 1 > 0 without a root, NaN once x < 0.5
/// The residual stays finite throughout, so only the crossing can stop the run.
enum class Level { kLog, kSqrt };

class LevelCrossing final : public Model {
 public:
  explicit LevelCrossing(Level level) : Model("level_crossing"), level_(level) {
    x_ = declare_variable({.name = "x", .start = 1.0});
    ode_ = declare_equation("der(x) = -x");
    crossing_ =
        declare_crossing(level == Level::kLog ? "log(x - 0.5) > -10" : "sqrt(x - 0.5) + 1 > 0");
  }
  void evaluate(Evaluation& e) override {
    const double c = e.x(x_) - 0.5;
    static_cast<void>(
        e.positive(crossing_, level_ == Level::kLog ? std::log(c) + 10.0 : std::sqrt(c) + 1.0));
    e.set(ode_, e.der(x_) + e.x(x_));
  }

 private:
  Level level_;
  Var x_;
  Eq ode_;
  Crossing crossing_;
};

SimulationOptions options_to(double stop_s) {
  SimulationOptions o;
  o.stop_s = stop_s;
  o.output_interval_s = 0.1;
  o.rel_tol = 1e-8;
  o.log_level = LogLevel::kOff;
  return o;
}

}  // namespace

TEST_CASE("a crossing value that turns NaN stops the run with solver failure naming the crossing") {
  LevelCrossing model(Level::kSqrt);
  const SimulationResult result = simulate(model, options_to(2.0));
  REQUIRE(result.status.outcome == Outcome::kSolverFailure);
  // x = exp(-t) reaches 0.5 at t = ln 2 = 0.6931...; IDA cannot step past it because every
  // step that ends beyond gives a NaN crossing value, and it shrinks its step towards ln 2.
  // 1e-3 s: IDA gives up after its error-test/convergence failures with a step far from
  // its minimum, so the stopping time is near ln 2 but not at machine precision.
  CHECK(std::abs(result.status.t - std::log(2.0)) < 1e-3);
  CHECK(result.status.message.find("IDA failed at t = ") == 0);
  CHECK(result.status.message.find("last crossing value not finite at t = 0.69") !=
        std::string::npos);
  CHECK(result.status.message.find(": crossings {'sqrt(x - 0.5) + 1 > 0'}") != std::string::npos);
  // The residual stayed finite: no equation is named.
  CHECK(result.status.message.find("equations {") == std::string::npos);
  // Grid rows 0, 0.1, ..., 0.6 (7 rows, the next grid point 0.7 lies beyond ln 2) and a last
  // row at the failure time; x there is exp(-t) to the integration tolerance (100 rel_tol).
  CHECK(result.table.num_rows() == 8);
  CHECK(result.table.time().back() == result.status.t);
  CHECK(std::abs(result.table.final_value("x") - std::exp(-result.status.t)) < 100 * 1e-8);
}

TEST_CASE("a finite crossing root before the values turn NaN is found as an ordinary event") {
  // log(x - 0.5) + 10 = 0 at x = 0.5 + exp(-10), i.e. t = -ln(0.5 + exp(-10)), before the
  // crossing value becomes -Inf / NaN at t = ln 2: the event is found there and the run stops
  // later at ln 2, naming the crossing.
  LevelCrossing model(Level::kLog);
  const SimulationResult result = simulate(model, options_to(2.0));
  const double t_root = -std::log(0.5 + std::exp(-10.0));
  REQUIRE(result.events.size() >= 2);  // the initial event and the crossing
  // IDA locates the zero of the crossing value to its time tolerance; with the value's
  // error of order rel_tol and |d(log(x - 0.5))/dt| = x / (x - 0.5) ~ 1e4 there, 1e-6 s is
  // generous.
  CHECK(std::abs(result.events[1].t - t_root) < 1e-6);
  CHECK(result.status.outcome == Outcome::kSolverFailure);
  CHECK(result.status.message.find(": crossings {'log(x - 0.5) > -10'}") != std::string::npos);
  CHECK(result.status.t < std::log(2.0) + 1e-3);
}
