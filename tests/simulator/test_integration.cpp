// Continuous integration through IDA: analytic solutions, published values, dense vs KLU.
#include <cmath>

#include <doctest/doctest.h>

#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/simulator.hpp"
#include "support/test_models.hpp"

using namespace hdae;

TEST_CASE("a first-order lag follows 1.5 exp(-t/2) at every output point") {
  test::FirstOrderLag model(2.0, 1.5);
  SimulationOptions options;
  options.stop_s = 10.0;
  options.output_interval_s = 0.1;
  options.rel_tol = 1e-8;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  CHECK(result.status.t == 10.0);           // IDA's stop time is hit exactly
  REQUIRE(result.table.num_rows() == 101);  // t = 0, 0.1, ..., 10
  const auto x = result.table.column("x");
  for (std::size_t i = 0; i < result.table.num_rows(); ++i) {
    const double t = result.table.time(i);
    const double exact = 1.5 * std::exp(-t / 2.0);
    // IDA keeps each step's local error below rel_tol |x| + atol (atol = 0.01 rel_tol); for
    // this contractive problem the global error is a small multiple of that: allow 100x.
    CHECK(x[i] == doctest::Approx(exact).epsilon(100 * options.rel_tol).scale(1.0));
    CHECK(std::abs(x[i] - exact) <= 100 * options.rel_tol * 1.5);
  }
  CHECK(result.table.time(100) == 10.0);
}

TEST_CASE("the damped pendulum reaches the published state at t = 10") {
  // Published reference (ModiaMath's pendulum test, L = 0.5, m = 1, d = 0.1, phi0 = 60 deg):
  // phi(10) = 0.120289, w(10) = 0.273965; given to 6 digits, hence atol 1e-5.
  models::Pendulum model;
  SimulationOptions options;
  options.stop_s = 10.0;
  options.rel_tol = 1e-8;
  const SimulationResult result = simulate(model, options);
  REQUIRE(result.status.ok());
  CHECK(std::abs(result.table.final_value("phi") - 0.120289) < 1e-5);
  CHECK(std::abs(result.table.final_value("w") - 0.273965) < 1e-5);
  CHECK(result.table.num_rows() == 501);  // default grid (stop - start)/500
}

TEST_CASE(
    "a linear DAE with one constraint row gives the same answer and steps with dense and KLU") {
  auto run = [](LinearSolverKind solver) {
    test::LinearDae model;
    SimulationOptions options;
    options.stop_s = 5.0;
    options.output_interval_s = 0.05;
    options.rel_tol = 1e-8;
    options.linear_solver = solver;
    return simulate(model, options);
  };
  const SimulationResult dense = run(LinearSolverKind::kDense);
  const SimulationResult klu = run(LinearSolverKind::kKlu);
  REQUIRE(dense.status.ok());
  REQUIRE(klu.status.ok());
  for (const SimulationResult* r : {&dense, &klu}) {
    const auto x1 = r->table.column("x1");
    const auto x2 = r->table.column("x2");
    for (std::size_t i = 0; i < r->table.num_rows(); ++i) {
      const double t = r->table.time(i);
      // Global error bound as in the lag test: 100 rel_tol relative to the scale 1 of x1.
      CHECK(std::abs(x1[i] - std::exp(-t)) <= 100 * 1e-8);
      // x2 is algebraic: it is exact up to the Newton tolerance of the step (same bound).
      CHECK(std::abs(x2[i] - std::sin(t) * std::exp(-t)) <= 100 * 1e-8);
    }
  }
  // Both linear solvers see the same difference-quotient Jacobian entries, so IDA takes the
  // same steps; answers agree to round-off amplified by the step-size control (1e-12).
  CHECK(dense.statistics.steps == klu.statistics.steps);
  CHECK(dense.statistics.jacobian_evaluations == klu.statistics.jacobian_evaluations);
  CHECK(std::abs(dense.table.final_value("x2") - klu.table.final_value("x2")) < 1e-12);
  CHECK(klu.statistics.jacobian_colors == 2);  // columns x1, x2 share row 2
}

TEST_CASE("the mass-spring chain with KLU agrees with dense LU") {
  auto run = [](LinearSolverKind solver) {
    models::MassSpringChain model({.masses = 40});
    SimulationOptions options;
    options.stop_s = 5.0;
    options.output_interval_s = 0.5;
    options.rel_tol = 1e-8;
    options.linear_solver = solver;
    return simulate(model, options);
  };
  const SimulationResult dense = run(LinearSolverKind::kDense);
  const SimulationResult klu = run(LinearSolverKind::kKlu);
  REQUIRE(dense.status.ok());
  REQUIRE(klu.status.ok());
  // Both runs solve the same problem to rel_tol 1e-8; round-off of the two factorisations
  // changes IDA's step choices slightly, so each lies within its global error (~100 rel_tol
  // of the signal's scale, see the lag test) of the exact solution, and within twice that of
  // the other. Scales: s ~ 1 m, v ~ 1 m/s, f ~ k s0 / N = 2.5 N, energy 1.25 J.
  const std::pair<const char*, double> signals[] = {
      {"s[40]", 1.0}, {"v[20]", 1.0}, {"f[1]", 2.5}, {"energy", 1.25}};
  for (const auto& [name, scale] : signals) {
    CHECK(std::abs(dense.table.final_value(name) - klu.table.final_value(name)) <
          2 * 100 * 1e-8 * scale);
  }
  // The coloured Jacobian needs a handful of colours, independent of the 120 unknowns.
  CHECK(klu.statistics.jacobian_colors <= 5);
  // Energy only decreases (dampers); at t = 0 it is N k (s0/N)^2 / 2 = 100/(2*40) J.
  const auto energy = klu.table.column("energy");
  CHECK(energy.front() == doctest::Approx(100.0 / 80.0).epsilon(1e-12));
  for (std::size_t i = 1; i < energy.size(); ++i) CHECK(energy[i] <= energy[i - 1] * (1 + 1e-6));
}
