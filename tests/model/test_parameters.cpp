// Run-time parameters of the modelling layer: declaration rules, set_parameter's checks and
// messages, derived start values, and the refusal while a Simulator holds the model.
#include <cmath>
#include <limits>
#include <string>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// x' = -x/T, x(0) = x0, with T and x0 parameters: x(t) = x0 exp(-t/T). A rule between them
/// (x0 <= 10 T, arbitrary) exercises parameters_changed() rejecting a value.
class Decay final : public Model {
 public:
  Decay() : Model("decay") {
    T_ = declare_parameter({.name = "T",
                            .unit = "s",
                            .value = 2.0,
                            .min = 1e-3,
                            .max = 100.0,
                            .description = "time constant"});
    x0_ = declare_parameter({.name = "x0", .unit = "m", .value = 1.5, .description = "start"});
    x_ = declare_variable({.name = "x", .unit = "m"});
    eq_ = declare_equation("T*der(x) = -x");
    parameters_changed();
  }
  void evaluate(Evaluation& e) override { e.set(eq_, value(T_) * e.der(x_) + e.x(x_)); }
  void parameters_changed() override {
    if (value(x0_) > 10.0 * value(T_)) {
      throw ModelError("x0 must not exceed 10 T");
    }
    set_start(x_, value(x0_));
    ++changes;
  }
  int changes = 0;

 private:
  Param T_, x0_;
  Var x_;
  Eq eq_;
};

std::string set_error(SimulationModel& m, const char* name, double value) {
  try {
    m.set_parameter(name, value);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "no error";
}

/// Declares one parameter in its constructor (for the declaration rules).
class OneParameter final : public Model {
 public:
  explicit OneParameter(const ParameterInfo& info, bool twice = false) : Model("one") {
    declare_parameter(info);
    if (twice) declare_parameter(info);
  }
  void evaluate(Evaluation& /*e*/) override {}
};

std::string declare_error(const ParameterInfo& info, bool twice = false) {
  try {
    OneParameter m(info, twice);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a parameter set by name changes the solution as the analytic one says") {
  Decay m;
  m.set_parameter("T", 0.5);
  m.set_parameter("x0", 3.0);
  CHECK(m.parameter("T") == 0.5);
  CHECK(m.structure().variables.start(0) == 3.0);  // the start value follows x0
  SimulationOptions o;
  o.stop_s = 1.0;
  o.rel_tol = 1e-10;
  const SimulationResult r = simulate(m, o);
  // x(1) = x0 exp(-1/T) = 3 exp(-2), the solution of x' = -x/T.
  CHECK(r.table.final_value("x") == doctest::Approx(3.0 * std::exp(-2.0)).epsilon(1e-7));
}

TEST_CASE("set_parameter names the parameter, the value and the range") {
  Decay m;
  CHECK(set_error(m, "T", 0.0) ==
        "model 'decay': parameter 'T' (time constant) must be a finite number in [0.001, 100] s, "
        "got 0");
  CHECK(set_error(m, "T", std::numeric_limits<double>::quiet_NaN()) ==
        "model 'decay': parameter 'T' (time constant) must be a finite number in [0.001, 100] s, "
        "got nan");
  CHECK(set_error(m, "x0", std::numeric_limits<double>::infinity()) ==
        "model 'decay': parameter 'x0' (start) must be a finite number in [-inf, inf] m, got inf");
  CHECK(m.parameter("T") == 2.0);  // unchanged by the rejected values
  CHECK(set_error(m, "tau", 1.0) ==
        "model 'decay' has no parameter 'tau'; its parameters are: T, x0");
  CHECK_THROWS_AS(static_cast<void>(m.parameter("tau")), ModelError);
}

TEST_CASE("a value parameters_changed() rejects leaves the model as it was") {
  Decay m;
  m.set_parameter("x0", 4.0);
  const int before = m.changes;
  CHECK(set_error(m, "x0", 25.0) == "x0 must not exceed 10 T");  // 25 > 10 * 2
  CHECK(m.parameter("x0") == 4.0);
  CHECK(m.structure().variables.start(0) == 4.0);
  CHECK(m.changes == before + 1);  // the old value was applied again
}

TEST_CASE("parameters cannot change while a Simulator holds the model") {
  Decay m;
  {
    Simulator sim(m, SimulationOptions{});
    CHECK(m.in_simulation());
    CHECK(set_error(m, "T", 1.0) ==
          "model 'decay': parameter 'T' cannot be set while a Simulator runs the model; set "
          "parameters before constructing the Simulator");
  }
  CHECK_FALSE(m.in_simulation());
  m.set_parameter("T", 1.0);
  CHECK(m.parameter("T") == 1.0);
}

TEST_CASE("declare_parameter rejects bad declarations by name") {
  CHECK(declare_error({.name = ""}) == "model 'one': a parameter has an empty name");
  CHECK(declare_error({.name = "a", .value = 2.0, .min = 3.0}) ==
        "model 'one': parameter 'a' must be a finite number in [3, inf], got 2");
  CHECK(declare_error({.name = "a", .min = 1.0, .max = 0.0}) ==
        "model 'one': parameter 'a' has an empty range [1, 0]");
  CHECK(declare_error({.name = "a"}, true) == "model 'one': parameter name 'a' is declared twice");
  CHECK(declare_error({.name = "a"}) == "no error");
}

TEST_CASE("a model without parameters rejects every name, and validate() checks parameters") {
  class Plain final : public SimulationModel {
   public:
    Plain() {
      s.name = "plain";
      s.variables = {{.name = "a", .start = 1.0}};
      s.equations = {{.name = "der(a) = -a"}};
    }
    const ModelStructure& structure() const override { return s; }
    void evaluate(Evaluation& e) override { e.set(Eq{0}, e.der(Var{0}) + e.x(Var{0})); }
    ModelStructure s;
  } m;
  CHECK(set_error(m, "k", 1.0) == "model 'plain' has no parameter 'k' (it declares none)");
  m.s.parameters = {{.name = "k", .value = 1.0}};
  CHECK(set_error(m, "k", 2.0) == "model 'plain' declares parameter 'k' but cannot change it");
  CHECK(m.parameter("k") == 1.0);
  m.s.parameters = {{.name = "k", .value = 1.0}, {.name = "k", .value = 1.0}};
  CHECK_THROWS_WITH_AS(m.s.validate(), "model 'plain': parameter name 'k' is declared twice",
                       ModelError);
  m.s.parameters = {{.name = "k", .value = 5.0, .max = 1.0}};
  CHECK_THROWS_WITH_AS(m.s.validate(),
                       "model 'plain': parameter 'k' must be a finite number in [-inf, 1], got 5",
                       ModelError);
}
