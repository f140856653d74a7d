// Model declarations are validated with messages naming the variable or equation.
#include <limits>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/simulator.hpp"
#include "support/test_models.hpp"

using namespace hdae;

namespace {

/// A model whose structure the test edits directly.
class Editable final : public SimulationModel {
 public:
  Editable() {
    s.name = "editable";
    s.variables = {{.name = "a", .start = 1.0}, {.name = "b", .start = 2.0}};
    s.equations = {{.name = "der(a) = -a"}, {.name = "der(b) = -b"}};
  }
  const ModelStructure& structure() const override { return s; }
  void evaluate(Evaluation& e) override {
    e.set(Eq{0}, e.der(Var{0}) + e.x(Var{0}));
    e.set(Eq{1}, e.der(Var{1}) + e.x(Var{1}));
  }
  ModelStructure s;
};

std::string error_of(Editable& m) {
  try {
    static_cast<void>(simulate(m, SimulationOptions{}));
  } catch (const ModelError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("inconsistent model declarations are rejected with the offending name") {
  Editable m;
  CHECK(error_of(m) == "no error");

  m = Editable();
  m.s.variables.set_start(1, std::numeric_limits<double>::quiet_NaN());
  CHECK(error_of(m) == "model 'editable': start value of variable 'b' is not finite (nan)");

  m = Editable();
  m.s.variables.declared(1).name = "a";
  CHECK(error_of(m) == "model 'editable': variable name 'a' is declared twice");

  m = Editable();
  m.s.variables.declared(0).nominal = 0.0;
  CHECK(error_of(m) ==
        "model 'editable': nominal value of variable 'a' must be in [1e-100, 1e+100], got 0");

  m = Editable();
  m.s.equations = {{.name = "der(a) = -a"}};
  CHECK(error_of(m) ==
        "model 'editable' declares 2 variables but 1 equations; the residual must be square");

  m = Editable();
  m.s.sparsity = {{.row = 0, .col = 2}};
  CHECK(error_of(m) ==
        "model 'editable': sparsity entry (row 0, column 2) is outside the 2x2 residual Jacobian");

  m = Editable();
  m.s.equations.set(0, {"", RowKind::kDifferential});
  CHECK(error_of(m) == "model 'editable': equation 0 has an empty name");
}

TEST_CASE("non-finite start values, bad nominal values and empty names are rejected by name") {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
  Editable m;
  m.s.variables.set_start(0, kInf);
  CHECK(error_of(m) == "model 'editable': start value of variable 'a' is not finite (inf)");
  m = Editable();
  m.s.variables.set_start(1, -kInf);
  CHECK(error_of(m) == "model 'editable': start value of variable 'b' is not finite (-inf)");

  m = Editable();
  m.s.variables.declared(1).nominal = kNan;
  CHECK(error_of(m) ==
        "model 'editable': nominal value of variable 'b' must be in [1e-100, 1e+100], got nan");
  m.s.variables.declared(1).nominal = kInf;
  CHECK(error_of(m) ==
        "model 'editable': nominal value of variable 'b' must be in [1e-100, 1e+100], got inf");
  m.s.variables.declared(1).nominal = -1.0;
  CHECK(error_of(m) ==
        "model 'editable': nominal value of variable 'b' must be in [1e-100, 1e+100], got -1");

  m = Editable();
  m.s.crossings = {{.name = "contact", .nominal = -2.0}};
  CHECK(
      error_of(m) ==
      "model 'editable': nominal value of crossing 'contact' must be in [1e-100, 1e+100], got -2");

  m = Editable();
  m.s.variables.declared(0).name = "";
  CHECK(error_of(m) == "model 'editable': variable 0 has an empty name");
  m = Editable();
  m.s.outputs = {{.name = "power"}, {.name = ""}};
  CHECK(error_of(m) == "model 'editable': output 1 has an empty name");
  m = Editable();
  m.s.time_events = {{.name = "release"}, {.name = "release"}};
  CHECK(error_of(m) == "model 'editable': time event name 'release' is declared twice");

  m = Editable();
  m.s.variables.clear();
  m.s.equations.clear();
  CHECK(error_of(m) == "model 'editable' declares no variables");
}

TEST_CASE("result columns that would share a name are rejected naming both declarations") {
  Editable m;
  m.s.outputs = {{.name = "a"}};
  CHECK(error_of(m) ==
        "model 'editable': result column 'a' would appear twice (variable 'a' and output 'a')");

  m = Editable();
  m.s.variables.declared(1).der_name = "der(a)";
  CHECK(error_of(m) ==
        "model 'editable': result column 'der(a)' would appear twice (the derivative of "
        "variable 'a' and the derivative of variable 'b')");

  m = Editable();
  m.s.variables.declared(0).name = "time";
  CHECK(error_of(m) ==
        "model 'editable': result column 'time' would appear twice (the time "
        "column and variable 'time')");

  // A derivative column may take a name of its own, e.g. "v" for der(s), when nothing else has it.
  m = Editable();
  m.s.variables.declared(0).der_name = "v";
  CHECK(error_of(m) == "no error");
}
