// The explicit form of a mode (simulator/explicit_form.hpp): M of F = M der_x + F(t, x, 0) read
// from the residual's columns. A row written der(x) - f has the coefficient 1 exactly, even where
// the probe's difference (s - f) - (-f) rounds away from s, so that f is -F(t, x, 0) itself.
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "events/crossing_table.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/options.hpp"
#include "model/model_calls.hpp"
#include "simulator/explicit_form.hpp"

using namespace hdae;
using namespace hdae::detail;

namespace {

/// x' = c, y' = -c and 2 z' = c with c = 0.4: in binary, (1 + 0.4) - 0.4 is 1 - 2^-53 and
/// (1 - 0.4) + 0.4 is 1, so a probe step of 1 on der(x) measures a coefficient that is not 1
/// unless the round-off is recognised. The row of y is written -(der(y) + c): coefficient -1.
class Rates final : public Model {
 public:
  Rates() : Model("rates") {
    x_ = declare_variable({.name = "x"});
    y_ = declare_variable({.name = "y"});
    z_ = declare_variable({.name = "z"});
    ex_ = declare_equation("der(x) = c");
    ey_ = declare_equation("der(y) = -c");
    ez_ = declare_equation("2 der(z) = c");
  }
  void evaluate(Evaluation& e) override {
    e.set(ex_, e.der(x_) - kRate);
    e.set(ey_, -(e.der(y_) + kRate));
    e.set(ez_, 2.0 * e.der(z_) - kRate);
  }

  static constexpr double kRate = -0.4;

 private:
  Var x_, y_, z_;
  Eq ex_, ey_, ez_;
};

}  // namespace

TEST_CASE("rows der(x) - f have the coefficient 1 exactly, and other coefficients as written") {
  // The premise: the probe's difference rounds (the binary expansion of 0.4).
  CHECK((1.0 - Rates::kRate) + Rates::kRate != 1.0);

  Rates model;
  CrossingTable crossings(model.structure(), 1e-10);
  ModelCalls calls(model, &crossings);
  const std::vector<double> x(3, 0.0);
  const std::vector<double> der_x = {Rates::kRate, -Rates::kRate, Rates::kRate / 2.0};
  const std::vector<RowKind> kinds(3, RowKind::kDifferential);
  std::string why;
  const std::optional<ExplicitForm> form =
      find_explicit_form(calls, crossings, 0.0, x, der_x, kinds, nullptr, &why);
  REQUIRE_MESSAGE(form.has_value(), why);
  CHECK(form->variable_of_row == std::vector<std::size_t>{0, 1, 2});
  CHECK(form->coefficient[0] == 1.0);
  CHECK(form->coefficient[1] == -1.0);
  // 2 is measured as (2 s + 0.4) - 0.4 over s = 1: exact up to the rounding of that difference,
  // a few units of 1e-16, far inside 1e-12; it is kept as measured, not rounded to 2.
  CHECK(form->coefficient[2] == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(form->constant_coefficients);
}
