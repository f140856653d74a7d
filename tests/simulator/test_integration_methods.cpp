// SimulationOptions::method: explicit ODEs on CVODE (Adams, BDF) and ARKODE (explicit
// Runge-Kutta) with the same events, jumps and results as on IDA, checked against closed-form
// solutions; DAEs refused by those methods, naming the row, and taken to IDA under kAuto.
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/models/bouncing_ball.hpp"
#include "hdae/models/pendulum_dae.hpp"
#include "hdae/simulator.hpp"
#include "support/ball_impacts.hpp"

using namespace hdae;

namespace {

struct MethodCase {
  IntegrationMethod method;
  const char* integrator;
};

const std::vector<MethodCase> kOdeMethods = {
    {IntegrationMethod::kErk, "arkode-erk"},
    {IntegrationMethod::kAdams, "cvode-adams"},
    {IntegrationMethod::kBdf, "cvode-bdf"},
};

/// m x'' = -k x written as the physics reads, momentum row first: row 0 holds der(v) with
/// coefficient m, row 1 der(x) with coefficient 1 (a scaled permutation, not the identity).
/// From x = 1, v = 0: x = cos(w t), v = -w sin(w t), w = sqrt(k / m).
class MassOnSpring final : public Model {
 public:
  static constexpr double kMass = 4.0;
  static constexpr double kStiffness = 9.0;
  MassOnSpring() : Model("mass_on_spring") {
    x_ = declare_variable({.name = "x", .start = 1.0});
    v_ = declare_variable({.name = "v"});
    momentum_ = declare_equation("m der(v) = -k x");
    kinematics_ = declare_equation("der(x) = v");
  }
  void evaluate(Evaluation& e) override {
    e.set(momentum_, kMass * e.der(v_) + kStiffness * e.x(x_));
    e.set(kinematics_, e.der(x_) - e.x(v_));
  }

 private:
  Var x_, v_;
  Eq momentum_, kinematics_;
};

/// (1 + t) v' = 1, x' = v from rest at 0: v = ln(1 + t), x = (1 + t) ln(1 + t) - t. The
/// coefficient of der(v) changes with t, so f divides by the coefficient at each call.
class GrowingMass final : public Model {
 public:
  GrowingMass() : Model("growing_mass") {
    x_ = declare_variable({.name = "x"});
    v_ = declare_variable({.name = "v"});
    momentum_ = declare_equation("(1 + t) der(v) = 1");
    kinematics_ = declare_equation("der(x) = v");
  }
  void evaluate(Evaluation& e) override {
    e.set(momentum_, (1.0 + e.t()) * e.der(v_) - 1.0);
    e.set(kinematics_, e.der(x_) - e.x(v_));
  }

 private:
  Var x_, v_;
  Eq momentum_, kinematics_;
};

/// y' = -lambda (y - cos t) - sin t from y = 1: y = cos t exactly, with a transient of rate
/// lambda that any perturbation excites. Stiff for lambda = 1e4 over 10 s.
class StiffCosine final : public Model {
 public:
  static constexpr double kLambda = 1e4;
  StiffCosine() : Model("stiff_cosine") {
    y_ = declare_variable({.name = "y", .start = 1.0});
    row_ = declare_equation("der(y) = -lambda (y - cos t) - sin t");
  }
  void evaluate(Evaluation& e) override {
    e.set(row_, e.der(y_) + kLambda * (e.x(y_) - std::cos(e.t())) + std::sin(e.t()));
  }

 private:
  Var y_;
  Eq row_;
};

/// StiffCosine with a rate that rises from 1 to 1e4 around t = 5 and falls again:
/// lambda(t) = 1 + 1e4 exp(-(t - 5)^2). y = cos t still solves it exactly.
class PassingStiffness final : public Model {
 public:
  PassingStiffness() : Model("passing_stiffness") {
    y_ = declare_variable({.name = "y", .start = 1.0});
    row_ = declare_equation("der(y) = -lambda(t) (y - cos t) - sin t");
  }
  void evaluate(Evaluation& e) override {
    const double t = e.t();
    const double lambda = 1.0 + 1e4 * std::exp(-(t - 5.0) * (t - 5.0));
    e.set(row_, e.der(y_) + lambda * (e.x(y_) - std::cos(t)) + std::sin(t));
  }

 private:
  Var y_;
  Eq row_;
};

/// StiffCosine n times over, with its (diagonal) pattern declared: from 50 unknowns a run takes
/// the sparse path.
class StiffCosines final : public Model {
 public:
  explicit StiffCosines(std::size_t n) : Model("stiff_cosines") {
    y_ = declare_variables(n, {.name = "y", .start = 1.0});
    rows_ = declare_equations(n, "der(y[{i}]) = -lambda (y[{i}] - cos t) - sin t");
    declare_dependency(rows_, y_);
  }
  void evaluate(Evaluation& e) override {
    for (std::size_t i = 0; i < y_.size(); ++i) {
      e.set(rows_[i],
            e.der(y_[i]) + StiffCosine::kLambda * (e.x(y_[i]) - std::cos(e.t())) + std::sin(e.t()));
    }
  }

 private:
  Vars y_;
  Eqs rows_;
};

/// The largest |column - exact(t)| over the rows.
template <typename Exact>
double largest_error(const SimulationResult& r, std::string_view column, Exact exact) {
  const std::vector<double> values = r.table.column(column);
  double error = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    error = std::max(error, std::abs(values[i] - exact(r.table.time(i))));
  }
  return error;
}

/// A run of model to stop_s at rel_tol with method, which must reach its stop time on the
/// integrator c names.
SimulationResult run_on(SimulationModel& model, const MethodCase& c, double stop_s,
                        double rel_tol) {
  SimulationOptions options;
  options.stop_s = stop_s;
  options.rel_tol = rel_tol;
  options.method = c.method;
  SimulationResult r = simulate(model, options);
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  CHECK(r.statistics.integrator == c.integrator);
  return r;
}

}  // namespace

TEST_CASE("a mass on a spring on each ODE method follows its closed form") {
  const double w = std::sqrt(MassOnSpring::kStiffness / MassOnSpring::kMass);
  for (const MethodCase& c : kOdeMethods) {
    CAPTURE(c.integrator);
    MassOnSpring model;
    const SimulationResult r = run_on(model, c, 10.0, 1e-8);
    // The global error of a tolerance-controlled method over 2.4 periods: within 1000 rel_tol
    // of the unit amplitude.
    CHECK(largest_error(r, "x", [&](double t) { return std::cos(w * t); }) < 1e-5);
    CHECK(largest_error(r, "v", [&](double t) { return -w * std::sin(w * t); }) < 1e-5);
    // The derivative columns come from the integrator's interpolant: der(x) = v.
    CHECK(largest_error(r, "der(x)", [&](double t) { return -w * std::sin(w * t); }) < 1e-4);
  }
}

TEST_CASE("a coefficient that changes with t is read at every call of f") {
  for (const MethodCase& c : kOdeMethods) {
    CAPTURE(c.integrator);
    GrowingMass model;
    const SimulationResult r = run_on(model, c, 5.0, 1e-8);
    // Dividing by the coefficient at t = 0 instead would give v = t, 3.2 off at t = 5.
    CHECK(largest_error(r, "v", [](double t) { return std::log1p(t); }) < 1e-5);
    CHECK(largest_error(r, "x", [](double t) { return (1 + t) * std::log1p(t) - t; }) < 1e-5);
  }
}

TEST_CASE("the bouncing ball on each ODE method hits the ground at the analytic impact times") {
  const models::BouncingBallParameters p;  // h0 = 1, e = 0.7, rest below 0.01 m/s: 18 impacts
  const std::vector<double> exact = test::ball_impact_times(p, 18);
  for (const MethodCase& c : kOdeMethods) {
    CAPTURE(c.integrator);
    models::BouncingBall model(p);
    constexpr double kRelTol = 1e-8;
    const SimulationResult r = run_on(model, c, 3.0, kRelTol);
    const std::vector<double> times = test::state_event_times(r);
    REQUIRE(times.size() == exact.size());
    CHECK_FALSE(model.flying());
    for (std::size_t k = 0; k < times.size(); ++k) {
      // As on IDA (tests/events/test_state_events.cpp): a height error of ~100 rel_tol moves
      // the root by 100 rel_tol / v_n at impact speed v_n = e^(n-1) v1.
      const double v_n = std::sqrt(2 * p.gravity_mps2 * p.h0_m) * std::pow(p.restitution, k);
      CHECK(std::abs(times[k] - exact[k]) < 100 * kRelTol * (1 + 1 / v_n) + 1e-9);
    }
  }
}

TEST_CASE("a stiff ODE: BDF takes a few hundred steps where the explicit pair needs thousands") {
  auto run = [](IntegrationMethod method) {
    StiffCosine model;
    SimulationOptions options;
    options.stop_s = 10.0;
    options.rel_tol = 1e-6;
    options.method = method;
    SimulationResult r = simulate(model, options);
    REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
    // y = cos t; the tolerance allows 1e-6 relative on values of size 1.
    CHECK(largest_error(r, "y", [](double t) { return std::cos(t); }) < 1e-4);
    return r.statistics.steps;
  };
  const auto bdf = run(IntegrationMethod::kBdf);
  const auto erk = run(IntegrationMethod::kErk);
  // The explicit pair's steps are held at h lambda within its stability region (|h lambda|
  // below about 3.3 for Dormand-Prince): at least 10 s * 1e4 / 3.3 = 3e4 steps.
  CHECK(erk > 30000);
  CHECK(bdf < 1000);
}

TEST_CASE("auto keeps a non-stiff ODE on the explicit pair and moves a stiff one to BDF") {
  SimulationOptions options;
  options.stop_s = 10.0;
  options.rel_tol = 1e-6;
  options.method = IntegrationMethod::kAuto;
  MassOnSpring spring;
  const SimulationResult smooth = simulate(spring, options);
  CHECK(smooth.statistics.integrator == "arkode-erk");
  CHECK(smooth.statistics.method_switches == 0);

  StiffCosine stiff;
  const SimulationResult r = simulate(stiff, options);
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  CHECK(r.statistics.integrator == "cvode-bdf");
  CHECK(r.statistics.method_switches == 1);
  CHECK(largest_error(r, "y", [](double t) { return std::cos(t); }) < 1e-4);
  // The pair's first kCheckEvery steps, then BDF's: far below the pair's 3e4 (the test above).
  CHECK(r.statistics.steps < 2000);
}

TEST_CASE("auto moves a stiff ODE on the sparse path to IDA with KLU, not to a dense BDF") {
  StiffCosines model(60);
  SimulationOptions options;
  options.stop_s = 10.0;
  options.rel_tol = 1e-6;
  options.method = IntegrationMethod::kAuto;
  const SimulationResult r = simulate(model, options);
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  CHECK(r.statistics.integrator == "ida");
  CHECK(r.statistics.method_switches == 1);
  CHECK(r.statistics.jacobian_colors == 1);  // a diagonal pattern: one colour, KLU
  CHECK(largest_error(r, "y[60]", [](double t) { return std::cos(t); }) < 1e-4);
}

TEST_CASE("auto follows stiffness that comes and goes: to BDF and back to the explicit pair") {
  PassingStiffness model;
  SimulationOptions options;
  options.stop_s = 10.0;
  options.rel_tol = 1e-6;
  options.method = IntegrationMethod::kAuto;
  const SimulationResult r = simulate(model, options);
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  // lambda is near 1 before t = 2 and after t = 8 and above 1e3 on [3.5, 6.5].
  CHECK(r.statistics.method_switches >= 2);
  CHECK(r.statistics.integrator == "arkode-erk");
  CHECK(largest_error(r, "y", [](double t) { return std::cos(t); }) < 1e-4);
}

TEST_CASE("an explicit method refuses a DAE naming the constraint row, and auto takes IDA") {
  models::PendulumDae model;
  SimulationOptions options;
  options.stop_s = 1.0;
  options.method = IntegrationMethod::kErk;
  CHECK_THROWS_WITH_AS(simulate(model, options),
                       doctest::Contains("method erk integrates explicit ODEs only, and this mode "
                                         "is not one: equation '0 = (x^2 + y^2 - L^2)/2' is a "
                                         "constraint at t = 0"),
                       ModelCallbackError);

  options.method = IntegrationMethod::kAuto;
  const SimulationResult on_ida = simulate(model, options);
  CHECK(on_ida.status.outcome == Outcome::kReachedStopTime);
  CHECK(on_ida.statistics.integrator == "ida");
}

TEST_CASE("method: names, and the combinations only IDA can do") {
  CHECK(parse_integration_method("adams") == IntegrationMethod::kAdams);
  CHECK(std::string(to_string(IntegrationMethod::kErk)) == "erk");
  CHECK_THROWS_WITH_AS((void)parse_integration_method("rk45"),
                       doctest::Contains("SimulationOptions::method must be one of"), OptionError);
  SimulationOptions options;
  options.method = IntegrationMethod::kErk;
  options.sensitivities = {"e"};
  CHECK_THROWS_WITH_AS(options.validate(), doctest::Contains("method erk cannot integrate"),
                       OptionError);
  options.sensitivities.clear();
  options.method = IntegrationMethod::kBdf;
  options.linear_solver = LinearSolverKind::kKlu;
  CHECK_THROWS_WITH_AS(options.validate(), doctest::Contains("does not take linear_solver kKlu"),
                       OptionError);
}
