// A model may supply d f_c/dt itself (SimulationModel::constraint_time_derivative); the
// consistent derivatives after every event then use it instead of a forward difference in t.
#include <cmath>
#include <numbers>
#include <span>

#include <doctest/doctest.h>

#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

constexpr double kOmega = 1e4;  // rad/s: a fast prescribed motion

/// x1' = -x1 and the prescribed motion 0 = x2 - sin(omega t) (f_c), whose only time
/// dependence is explicit: der(x2) = omega cos(omega t) comes from d f_c/dt alone.
class PrescribedMotion final : public Model {
 public:
  explicit PrescribedMotion(bool supply_dfc_dt) : Model("prescribed"), supply_(supply_dfc_dt) {
    x1_ = declare_variable({.name = "x1", .start = 1.0});
    x2_ = declare_variable({.name = "x2"});
    ode_ = declare_equation("der(x1) = -x1");
    motion_ = declare_equation("0 = x2 - sin(omega*t)", RowKind::kConstraint);
  }
  void evaluate(Evaluation& e) override {
    e.set(ode_, e.der(x1_) + e.x(x1_));
    e.set(motion_, e.x(x2_) - std::sin(kOmega * e.t()));
  }
  [[nodiscard]] bool provides_constraint_time_derivative() const override { return supply_; }
  void constraint_time_derivative(double t, std::span<const double> /*x*/,
                                  std::span<double> dfc_dt) override {
    ++calls;
    dfc_dt[motion_.index] = -kOmega * std::cos(kOmega * t);
  }
  long calls = 0;

 private:
  bool supply_;
  Var x1_, x2_;
  Eq ode_, motion_;
};

/// der(x2) in the first result row (t0, after the initial re-initialization).
double initial_der_x2(PrescribedMotion& model, double t0) {
  SimulationOptions options;
  options.start_s = t0;
  options.stop_s = t0 + 1e-6;
  options.output_interval_s = 1e-6;
  options.rel_tol = 1e-8;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.ok());
  // The right limit at t0 (a row x^-(t0) comes first when the initial jump moved x).
  std::size_t row = 0;
  while (row + 1 < result.table.num_rows() && result.table.time(row + 1) == t0) ++row;
  return result.table.column("der(x2)")[row];
}

}  // namespace

TEST_CASE("a model-supplied d f_c/dt gives consistent derivatives a forward difference cannot") {
  // omega t0 = pi/4 + 1000 pi: sin = cos = 1/sqrt(2), so der(x2) = omega / sqrt(2).
  const double t0 = (std::numbers::pi / 4.0 + 1000.0 * std::numbers::pi) / kOmega;
  const double exact = kOmega * std::cos(kOmega * t0);
  REQUIRE(exact == doctest::Approx(kOmega / std::sqrt(2.0)).epsilon(1e-9));

  PrescribedMotion supplied(true);
  const double with_model = initial_der_x2(supplied, t0);
  CHECK(supplied.calls > 0);
  // Left: rounding in d f_c/dx2 = 1, itself a difference quotient with a step of
  // sqrt(eps) |x2| ~ 1e-8 (relative error up to eps / sqrt(eps) ~ 1.5e-8); 1e-7 allows it.
  CHECK(std::abs(with_model - exact) / exact < 1e-7);

  // The forward difference in t with h = sqrt(eps) max(|t0|, 1) = 1.49e-8 s is off by
  // h/2 |d2 f_c/dt2| / |d f_c/dt| = h/2 omega tan(omega t0) = 7.45e-5 relative: the model's
  // own derivative is what makes the 1e-7 above reachable.
  PrescribedMotion differenced(false);
  const double with_difference = initial_der_x2(differenced, t0);
  CHECK(differenced.calls == 0);
  CHECK(std::abs(with_difference - exact) / exact > 1e-5);
  CHECK(std::abs(with_difference - exact) / exact < 2e-4);
}
