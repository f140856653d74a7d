// consistent_derivatives: J der_x = rhs with J = [M_d; df_c/dx], including d f_c/dt
// (docs/design.md, "The jump solve").
#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/simulator.hpp"
#include "reinit/consistent_derivatives.hpp"
#include "reinit/jump_solver.hpp"
#include "reinit_test_models.hpp"

namespace hdae::reinit {
namespace {

using testing::make_model;

// d f_c/dx and d f_c/dt are forward differences with increments sqrt(eps) * max(|v|, 1)
// ~ 1.5e-8: truncation (h/2 |f''|) and rounding (eps |f| / h) are both ~1e-8, so 1e-6
// relative leaves a factor of 100 of margin. M_d is exact (F_d is linear in der_x).
constexpr double kDifferenceTol = 1e-6;

TEST_CASE("consistent derivatives include the explicit time dependence of a constraint") {
  // der(x1) = -x1 (f_d) and 0 = x2 - sin(t) x1 (f_c) at t = 1, x = (2, 2 sin 1).
  const testing::TestModel model = make_model(
      {"x1", "x2"},
      {{"der(x1) = -x1", RowKind::kDifferential}, {"0 = x2 - sin(t)*x1", RowKind::kConstraint}},
      [](double t, std::span<const double> x, std::span<const double> dx, std::span<double> r) {
        r[0] = dx[0] + x[0];
        r[1] = x[1] - std::sin(t) * x[0];
      });
  const double t = 1.0;
  const std::vector<double> x{2.0, 2.0 * std::sin(t)};

  const DerivativeOutcome out = consistent_derivatives(model.problem(t), x);
  REQUIRE(out.status == SolveStatus::kOk);
  // der(x1) = -2 exactly (an f_d row with a constant M_d).
  CHECK(out.der_x[0] == doctest::Approx(-2.0).epsilon(1e-14));
  // Differentiating the constraint: der(x2) = cos(t) x1 + sin(t) der(x1) = 2 cos 1 - 2 sin 1
  // = -0.60233; dropping d f_c/dt (as ModiaMath does) would give -2 sin 1 = -1.68294.
  const double expected = 2.0 * std::cos(t) - 2.0 * std::sin(t);
  CHECK(out.der_x[1] == doctest::Approx(expected).epsilon(kDifferenceTol));
}

TEST_CASE("after the clutch engages both shafts accelerate together at 0.336 rad/s^2") {
  const testing::ClutchParameters p;
  const testing::TestModel clutch = testing::make_clutch(p);
  const std::vector<double> x{6.4, 6.4, -1.44};

  const DerivativeOutcome out = consistent_derivatives(clutch.problem(), x);
  REQUIRE(out.status == SolveStatus::kOk);
  // Locked shafts: (J1 + k^2 C + J2) a = k (V0 - k w)/R = 0.25 * 8.4 / 10 = 0.21, so
  // a = 0.21 / 0.625 = 0.336 rad/s^2 and tau = J2 a = 0.1344 N m.
  const double a = p.k * (p.V0 - p.k * 6.4) / p.R / (p.J1 + p.k * p.k * p.C + p.J2);
  CHECK(a == doctest::Approx(0.336).epsilon(1e-12));
  CHECK(out.der_x[0] == doctest::Approx(a).epsilon(kDifferenceTol));
  CHECK(out.der_x[1] == doctest::Approx(a).epsilon(kDifferenceTol));
  CHECK(out.der_x[2] == doctest::Approx(p.J2 * a).epsilon(kDifferenceTol));
}

TEST_CASE("a GGL pendulum hanging at rest needs a rod force equal to its weight") {
  const testing::TestModel pendulum = testing::make_pendulum_ggl();
  const std::vector<double> x{0.0, -1.0, 0.0, 0.0, 0.0, 0.0};

  const DerivativeOutcome out = consistent_derivatives(pendulum.problem(), x);
  REQUIRE(out.status == SolveStatus::kOk);
  // Statics: the differentiated velocity constraint gives y der(vy) = 0, so der(vy) = 0 and
  // row 4 gives lambda = m g / (-y) = 9.81; the differentiated position constraint gives
  // der(y) = 0, so mue = 0. Everything else is zero.
  const std::vector<double> expected{0.0, 0.0, 0.0, 0.0, 9.81, 0.0};
  for (std::size_t j = 0; j < expected.size(); ++j) {
    CAPTURE(j);
    CHECK(out.der_x[j] == doctest::Approx(expected[j]).epsilon(kDifferenceTol));
  }
}

TEST_CASE("a clutch model without the clutch torque reports J singular with names") {
  // The modeller forgot tau in both shaft equations: nothing determines tau = der(tau_int),
  // and the two shaft equations together with w2 = w1 say one thing twice.
  const testing::ClutchParameters p;
  const testing::TestModel model = make_model(
      {"w1", "w2", "tau_int"},
      {{"J1*der(w1) = tau_emf", RowKind::kDifferential},
       {"J2*der(w2) = 0", RowKind::kDifferential},
       {"w2 - w1 = 0", RowKind::kConstraint}},
      [p](double, std::span<const double> x, std::span<const double> dx, std::span<double> r) {
        const double tau_emf = p.k * ((p.V0 - p.k * x[0]) / p.R - p.C * p.k * dx[0]);
        r[0] = p.J1 * dx[0] - tau_emf;
        r[1] = p.J2 * dx[1];
        r[2] = x[1] - x[0];
      });
  const std::vector<double> x{6.4, 6.4, 0.0};

  const DerivativeOutcome out = consistent_derivatives(model.problem(), x);
  CHECK(out.status == SolveStatus::kSingular);
  // Left null space: y = (1/(J1 + k^2 C), -1/J2, 1) touches all three rows; right null
  // space: the tau_int column is zero.
  CHECK(out.message ==
        "J = [M_d; df_c/dx] is singular at t = 0: equations {J1*der(w1) = tau_emf, "
        "J2*der(w2) = 0, w2 - w1 = 0} are dependent; variables {tau_int} are not determined");
}

}  // namespace
}  // namespace hdae::reinit

TEST_CASE("a chain of 1e-12 kg masses gets its consistent derivatives at t0 despite rounding") {
  // 20 masses of 1e-12 kg on springs of 100 N/m stretched evenly to s_end = 1 m: every spring
  // holds k s_end / N = 5 N, so der(v) = (f[i+1] - f[i] - d v[i]) / m is 0 for the inner
  // masses and -5 N / 1e-12 kg = -5e12 m/s^2 for the last one, whose far side is free. Beside
  // forces of 5 N the mass terms' differences carry rounding of about 5e-6 relative, which
  // the first solve leaves in der(v[20]) and refinement removes (the tolerance is 1e-3 of
  // rel_tol, relative). The inner masses' 0 is exact: every f starts at the same k s_end / N,
  // which the start keeps, as it meets the springs' equations to the tolerance.
  using namespace hdae;
  models::MassSpringChainParameters p;
  p.masses = 20;
  p.mass_kg = 1e-12;
  models::MassSpringChain model(p);
  SimulationOptions options;
  options.stop_s = 0.01;
  options.rel_tol = 1e-8;
  options.record_kinds = {ColumnKind::kState, ColumnKind::kDerivative};
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  CHECK(result.table.column("der(v[20])").front() ==
        doctest::Approx(-5e12).epsilon(1e-3 * options.rel_tol));
  CHECK(result.table.column("der(v[19])").front() == 0.0);
  CHECK(result.table.column("der(v[1])").front() == 0.0);
}
