// Hostile models and options (second round): handles that do not belong to the model, a
// crossing used twice or never, nominal values no arithmetic survives, an output grid finer
// than time itself, and SUNDIALS' own error lines after a model exception. Each ends with a
// message naming the handle, crossing, variable or option, never a crash or a hang.
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"
#include "support/callback_failure.hpp"

using namespace hdae;

namespace {

/// x' = -x with one crossing; `misuse` picks what evaluate() does wrong.
enum class Misuse {
  kNone,
  kForeignEquation,
  kForeignCrossing,
  kCrossingTwice,
  kCrossingNever,
  kThrowDuringIntegration
};

class Decay final : public Model {
 public:
  explicit Decay(Misuse misuse) : Model("decay"), misuse_(misuse) {
    x_ = declare_variable({.name = "x", .start = 1.0});
    eq_ = declare_equation("der(x) = -x");
    low_ = declare_crossing("x < 0.5");
  }
  void evaluate(Evaluation& e) override {
    e.set(eq_, e.der(x_) + e.x(x_));
    switch (misuse_) {
      case Misuse::kForeignEquation:
        e.set(Eq{5}, 0.0);  // this model has one equation
        break;
      case Misuse::kForeignCrossing:
        e.negative(Crossing{7}, e.x(x_) - 0.5);  // and one crossing
        break;
      case Misuse::kCrossingTwice:
        e.negative(low_, e.x(x_) - 0.5);
        e.negative(low_, e.x(x_) - 0.25);
        break;
      case Misuse::kCrossingNever:
        break;
      case Misuse::kThrowDuringIntegration:
        e.negative(low_, e.x(x_) - 0.5);
        if (!e.is_event() && e.t() > 0.3) throw std::runtime_error("sensor lost");
        break;
      case Misuse::kNone:
        e.negative(low_, e.x(x_) - 0.5);
        break;
    }
  }
  void set_x_nominal(double nominal) { set_nominal(x_, nominal); }

 private:
  Misuse misuse_;
  Var x_;
  Eq eq_;
  Crossing low_;
};

std::string failure_of(Misuse misuse) {
  Decay model(misuse);
  return test::callback_failure(model);
}

}  // namespace

TEST_CASE("a handle that does not belong to the model is named instead of overflowing") {
  CHECK(failure_of(Misuse::kForeignEquation) ==
        "model 'decay' failed in event evaluation at t = 0: equation handle 5 is out of range: "
        "the model declares 1 equation (a handle of another model, or one made by hand?)");
  CHECK(failure_of(Misuse::kForeignCrossing) ==
        "model 'decay' failed in event evaluation at t = 0: crossing handle 7 is out of range: "
        "the model declares 1 crossing (a handle of another model, or one made by hand?)");
}

TEST_CASE("a crossing used twice or never in one evaluation is named at t0") {
  CHECK(failure_of(Misuse::kCrossingTwice) ==
        "model 'decay' failed in event evaluation at t = 0: crossing 'x < 0.5' was used 2 times "
        "in one evaluation; every declared crossing takes exactly one helper call (positive, "
        "negative, change or edge) per evaluation");
  CHECK(failure_of(Misuse::kCrossingNever) ==
        "model 'decay' failed in event evaluation at t = 0: crossing 'x < 0.5' was not used in "
        "the evaluation at t0; every declared crossing takes exactly one helper call (positive, "
        "negative, change or edge) per evaluation");
}

TEST_CASE("nominal values outside [1e-100, 1e100] are rejected naming the variable") {
  // 4.9e-324 is the smallest subnormal double: every scaled quantity of the run was infinite
  // and a singular verdict named no equation.
  for (const double nominal : {4.9e-324, 1e-101, 1e101}) {
    CAPTURE(nominal);
    Decay model(Misuse::kNone);
    model.set_x_nominal(nominal);
    CHECK_THROWS_AS((void)simulate(model, SimulationOptions{}), ModelError);
  }
  for (const double nominal : {1e-100, 1e100}) {  // the bounds themselves are accepted
    CAPTURE(nominal);
    Decay model(Misuse::kNone);
    model.set_x_nominal(nominal);
    SimulationOptions options;
    options.log_level = LogLevel::kOff;
    CHECK_NOTHROW((void)simulate(model, options));
  }
}

TEST_CASE("an output grid finer than the time resolution is rejected instead of spinning") {
  // output_interval_s = 1e-300 used to pass validation and loop forever skipping output points.
  Decay model(Misuse::kNone);
  SimulationOptions options;
  options.output_interval_s = 1e-300;
  CHECK_THROWS_WITH_AS((void)simulate(model, options),
                       "SimulationOptions::output_interval_s must be >= the time resolution of "
                       "the run (2.22e-13 s), got 1e-300",
                       OptionError);
  // 1e-10 s over 1 s is above the resolution but 1e10 output points: more than 1e9.
  options.output_interval_s = 1e-10;
  CHECK_THROWS_WITH_AS((void)simulate(model, options),
                       "SimulationOptions::output_interval_s must be >= (stop_s - start_s) / "
                       "1e+09 (at most 1e+09 output points), got 1e-10",
                       OptionError);
}

TEST_CASE("a model exception leaves no SUNDIALS error line in the log") {
  // IDA reports a callback that failed "in an unrecoverable manner"; the exception itself is
  // the news (ModelCallbackError), so IDA's echo of it must not reach the log.
  Decay model(Misuse::kThrowDuringIntegration);
  SimulationOptions options;
  options.log_level = LogLevel::kDebug;
  std::vector<std::string> lines;
  options.log_sink = [&lines](LogLevel, std::string_view line) { lines.emplace_back(line); };
  CHECK_THROWS_AS((void)simulate(model, options), ModelCallbackError);
  for (const std::string& line : lines) {
    CAPTURE(line);
    CHECK(line.find("[IDA") == std::string::npos);
  }
}
