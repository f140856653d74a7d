// Index reduction of models written for double only (hdae/difference_quotients.hpp; ITI
// paper, section 2.2): the equations' time derivatives by difference quotients.
#include <cmath>
#include <memory>
#include <string>

#include <doctest/doctest.h>

#include "hdae/difference_quotients.hpp"
#include "hdae/errors.hpp"
#include "hdae/index_reduction.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/models/cartesian_pendulum.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// The Cartesian pendulum of models/cartesian_pendulum.hpp (same parameters), written as a
/// plain hdae::Model for doubles, with a sine in it so that the difference quotients are not
/// exact: the rod is written as L sin(asin(...)) of itself, identical in value.
class DoublePendulum final : public Model {
 public:
  static constexpr double L = 0.5, m = 1.0, d = 0.1 / (L * L), g = 9.81;

  DoublePendulum() : Model("double_pendulum") {
    x_ = declare_variable({.name = "x", .unit = "m", .start = L, .nominal = L});
    y_ = declare_variable({.name = "y", .unit = "m", .nominal = L});
    vx_ = declare_variable({.name = "vx", .unit = "m/s"});
    vy_ = declare_variable({.name = "vy", .unit = "m/s"});
    F_ = declare_variable({.name = "F", .unit = "N", .nominal = 10.0});
    kx_ = declare_equation("der(x) = vx");
    ky_ = declare_equation("der(y) = vy");
    mx_ = declare_equation("m*der(vx) = -F*x/L - d*vx");
    my_ = declare_equation("m*der(vy) = -F*y/L - m*g - d*vy");
    rod_ = declare_equation("0 = x^2 + y^2 - L^2");
    p_ = declare_parameter({.name = "g", .unit = "m/s2", .value = g, .min = 0.0});
  }
  void evaluate(Evaluation& e) override {
    const double x = e.x(x_), y = e.x(y_), vx = e.x(vx_), vy = e.x(vy_), F = e.x(F_);
    e.set(kx_, e.der(x_) - vx);
    e.set(ky_, e.der(y_) - vy);
    e.set(mx_, m * e.der(vx_) + F * x / L + d * vx);
    e.set(my_, m * e.der(vy_) + F * y / L + m * value(p_) + d * vy);
    const double rod = (x * x + y * y - L * L) / (L * L);  // small: asin is near-identity
    e.set(rod_, L * L * std::sin(std::asin(rod)));
  }

 private:
  Var x_, y_, vx_, vy_, F_;
  Eq kx_, ky_, mx_, my_, rod_;
  Param p_;
};

SimulationOptions accurate() {
  SimulationOptions o;
  o.stop_s = 5.0;
  o.rel_tol = 1e-8;
  o.output_interval_s = 0.01;
  o.step_to_outputs = true;
  o.nonlinear_convergence_coef = 0.01;
  return o;
}

}  // namespace

TEST_CASE("a pendulum written for double is reduced by difference quotients like the jets do") {
  IndexReducedModel quotients(
      std::make_unique<DifferenceQuotientModel>(std::make_unique<DoublePendulum>()));
  auto jets = models::make_cartesian_pendulum();
  // Same structure as the jets find: index 3, 7 unknowns (11 slots, of which x', x'', y', y''
  // are vx, vx', vy, vy'), states y, vy at the horizontal.
  CHECK(quotients.analysis().index == 3);
  CHECK(quotients.structure().variables.size() == 7);
  CHECK(quotients.states() == jets->states());

  const SimulationResult q = simulate(quotients, accurate());
  const SimulationResult j = simulate(*jets, accurate());
  REQUIRE(q.status.ok());
  REQUIRE(j.status.ok());
  CHECK(quotients.selection_changes() >= 1);  // x takes over on the way down, as with jets
  // The rod (q = 0, the model's own row) holds to the Newton tolerance on every row, the
  // hidden velocity constraint (q = 1, a difference quotient, exact for the polynomial rod up
  // to rounding and the asin/sin round trip) to well within the 1e-8 L^2 of the jets' test.
  const double L = DoublePendulum::L;
  const auto x = q.table.column("x"), y = q.table.column("y");
  const auto vx = q.table.column("vx"), vy = q.table.column("vy");
  double rod = 0.0, velocity = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    rod = std::max(rod, std::abs(x[i] * x[i] + y[i] * y[i] - L * L));
    velocity = std::max(velocity, std::abs(x[i] * vx[i] + y[i] * vy[i]));
  }
  // Newton's test at 0.01 of the error test's bound leaves x and y within about
  // 0.01 (rel_tol |x| + abs_tol) <= 0.01 rel_tol (L + L) = 2e-10 L of the rows' solution, and
  // the rod (2 x dx + 2 y dy) within 2 L of that.
  CHECK(rod <= 4e-10 * L * L);
  CHECK(velocity <= 1e-8 * L * L);
  // The angle follows the jets' solution to the integration tolerance: both solve the same
  // index-1 system up to the quotients' error (~1e-10 in the acceleration rows).
  const double phi_q = std::atan2(q.table.final_value("x"), -q.table.final_value("y"));
  const double phi_j = std::atan2(j.table.final_value("x"), -j.table.final_value("y"));
  CHECK(std::abs(phi_q - phi_j) <= 1e-6);
}

TEST_CASE("difference quotients forward parameters and refuse bad steps by name") {
  auto wrapped = std::make_unique<DifferenceQuotientModel>(std::make_unique<DoublePendulum>());
  wrapped->set_parameter("g", 1.62);
  CHECK(wrapped->wrapped().parameter("g") == 1.62);
  CHECK_THROWS_WITH_AS(DifferenceQuotientModel(std::make_unique<DoublePendulum>(), 0.0),
                       doctest::Contains("step must be finite and > 0"), ModelError);
  CHECK_THROWS_WITH_AS(DifferenceQuotientModel(nullptr), doctest::Contains("no model given"),
                       ModelError);
}
