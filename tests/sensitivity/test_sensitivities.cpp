// Forward sensitivities (SimulationOptions::sensitivities) against closed forms, against
// differences of perturbed runs, and against the published output of IDAS's Robertson example.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hdae/errors.hpp"
#include "hdae/index_reduction.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/models/bouncing_ball.hpp"
#include "hdae/models/cartesian_pendulum.hpp"
#include "hdae/models/ideal_clutch.hpp"
#include "hdae/models/iti_example2.hpp"
#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/models/pid_controller.hpp"
#include "hdae/models/slider_crank.hpp"
#include "hdae/simulator.hpp"
#include "sensitivity_runs.hpp"

namespace hdae {
namespace {

/// x' = -k x from x(0) = x0, an algebraic y = c x and an output z = x^2. Closed forms:
/// x = x0 exp(-k t), dx/dk = -t x, dx/dx0 = exp(-k t), dy/dc = x, dy/dk = c dx/dk,
/// dz/dk = 2 x dx/dk.
class GainedDecay final : public Model {
 public:
  GainedDecay() : Model("gained_decay") {
    k_ = declare_parameter({.name = "k", .unit = "1/s", .value = 0.7, .min = 0.0});
    c_ = declare_parameter({.name = "c", .value = 3.0});
    x0_ = declare_parameter({.name = "x0", .value = 2.0});
    x_ = declare_variable({.name = "x", .unit = "m", .start = 2.0});
    y_ = declare_variable({.name = "y", .unit = "m", .start = 6.0});
    decay_ = declare_equation("der(x) = -k*x");
    gain_ = declare_equation("0 = y - c*x", RowKind::kConstraint);
    z_ = declare_output("z", "m2");
  }
  void evaluate(Evaluation& e) override {
    e.set(decay_, e.der(x_) + value(k_) * e.x(x_));
    e.set(gain_, e.x(y_) - value(c_) * e.x(x_));
    if (e.wants_outputs()) e.set(z_, e.x(x_) * e.x(x_));
  }
  void parameters_changed() override {
    set_start(x_, value(x0_));
    set_start(y_, value(c_) * value(x0_));
  }

 private:
  Param k_, c_, x0_;
  Var x_, y_;
  Eq decay_, gain_;
  Out z_;
};

/// Robertson's chemical kinetics as IDAS's example idasRoberts_FSA_dns writes it, rates as
/// parameters p1, p2, p3.
class Robertson final : public Model {
 public:
  Robertson() : Model("robertson") {
    p1_ = declare_parameter({.name = "p1", .value = 0.04});
    p2_ = declare_parameter({.name = "p2", .value = 1.0e4});
    p3_ = declare_parameter({.name = "p3", .value = 3.0e7});
    y1_ = declare_variable({.name = "y1", .start = 1.0});
    y2_ = declare_variable({.name = "y2", .start = 0.0, .nominal = 1e-5});
    y3_ = declare_variable({.name = "y3", .start = 0.0});
    r1_ = declare_equation("der(y1) = -p1*y1 + p2*y2*y3");
    r2_ = declare_equation("der(y2) = p1*y1 - p2*y2*y3 - p3*y2^2");
    r3_ = declare_equation("0 = y1 + y2 + y3 - 1", RowKind::kConstraint);
  }
  void evaluate(Evaluation& e) override {
    const double y1 = e.x(y1_), y2 = e.x(y2_), y3 = e.x(y3_);
    const double p1 = value(p1_), p2 = value(p2_), p3 = value(p3_);
    e.set(r1_, e.der(y1_) + p1 * y1 - p2 * y2 * y3);
    e.set(r2_, e.der(y2_) - p1 * y1 + p2 * y2 * y3 + p3 * y2 * y2);
    e.set(r3_, y1 + y2 + y3 - 1.0);
  }

 private:
  Param p1_, p2_, p3_;
  Var y1_, y2_, y3_;
  Eq r1_, r2_, r3_;
};

using test::at;
using test::kSensitivityRelTol;
using test::tight;

/// A run at kSensitivityRelTol with the sensitivities `names`, which must reach its stop time.
SimulationResult sensitivity_run(SimulationModel& model, double stop_s, double interval_s,
                                 std::vector<std::string> names) {
  SimulationOptions o = tight(stop_s, interval_s);
  o.sensitivities = std::move(names);
  SimulationResult r = simulate(model, o);
  REQUIRE_MESSAGE(r.status.outcome == Outcome::kReachedStopTime, r.status.message);
  return r;
}

/// A fresh Cartesian pendulum, reduced from index 3, with its default parameters.
const auto kCartesianPendulum = [] { return models::make_cartesian_pendulum(); };

/// d(column)/d(parameter) at t by the central difference of two runs of fresh models (make())
/// at rel_tol 1e-10, the parameter moved by delta either way from value.
template <class Make>
double central_difference(Make make, const std::string& parameter, double value, double delta,
                          const std::string& column, double t, double stop_s, double interval_s) {
  double side[2] = {0.0, 0.0};
  for (int k = 0; k < 2; ++k) {
    const auto m = make();
    m->set_parameter(parameter, value + (k == 0 ? delta : -delta));
    side[k] = at(simulate(*m, tight(stop_s, interval_s, 1e-10)), column, t);
  }
  return (side[0] - side[1]) / (2.0 * delta);
}

/// d(column)/d(name) of r at each time and column against reference(column, t), to epsilon
/// relative with the given scale.
template <class Reference>
void check_against(const SimulationResult& r, const std::string& name,
                   std::initializer_list<double> times, std::initializer_list<const char*> columns,
                   Reference reference, double epsilon, double scale) {
  for (const double t : times) {
    CAPTURE(t);
    for (const std::string column : columns) {
      CAPTURE(column);
      CHECK(at(r, "d(" + column + ")/d(" + name + ")", t) ==
            doctest::Approx(reference(column, t)).epsilon(epsilon).scale(scale));
    }
  }
}

}  // namespace

TEST_CASE("sensitivities of a decay with an algebraic gain follow their closed forms") {
  GainedDecay model;
  const SimulationResult r = sensitivity_run(model, 2.0, 0.5, {"k", "c", "x0", "start(x)"});
  for (const double t : {0.5, 1.0, 2.0}) {
    CAPTURE(t);
    const double x = 2.0 * std::exp(-0.7 * t);
    // Closed forms in the model's comment; the tolerance is a few rel_tol over the solution's
    // size, which IDA's error test on the sensitivities holds them to.
    const double tol = 1e-8;
    CHECK(at(r, "d(x)/d(k)", t) == doctest::Approx(-t * x).epsilon(tol));
    CHECK(at(r, "d(y)/d(k)", t) == doctest::Approx(-3.0 * t * x).epsilon(tol));
    CHECK(at(r, "d(y)/d(c)", t) == doctest::Approx(x).epsilon(tol));
    CHECK(at(r, "d(x)/d(c)", t) == doctest::Approx(0.0).epsilon(tol).scale(1.0));
    CHECK(at(r, "d(x)/d(x0)", t) == doctest::Approx(x / 2.0).epsilon(tol));
    CHECK(at(r, "d(y)/d(x0)", t) == doctest::Approx(3.0 * x / 2.0).epsilon(tol));
    CHECK(at(r, "d(x)/d(start(x))", t) == doctest::Approx(x / 2.0).epsilon(tol));
    // y is algebraic: its sensitivity to x's start comes from the consistent start alone.
    CHECK(at(r, "d(y)/d(start(x))", t) == doctest::Approx(3.0 * x / 2.0).epsilon(tol));
    CHECK(at(r, "d(z)/d(k)", t) == doctest::Approx(2.0 * x * (-t * x)).epsilon(tol));
  }
}

TEST_CASE("Robertson's sensitivities agree with the output of IDAS's example") {
  Robertson model;
  SimulationOptions o;
  o.stop_s = 400.0;
  o.output_times = {0.4, 4.0, 40.0, 400.0};
  o.rel_tol = 1e-8;
  o.log_level = LogLevel::kOff;
  o.sensitivities = {"p1", "p2", "p3"};
  const SimulationResult r = simulate(model, o);
  REQUIRE_MESSAGE(r.status.outcome == Outcome::kReachedStopTime, r.status.message);
  // idasRoberts_FSA_dns, as libsundials-dev ships its output: five digits, computed by IDAS at
  // rel_tol 1e-6 (abs_tol 1e-8, 1e-14, 1e-6) with full error control on the sensitivities.
  struct Row {
    double t, s1y1, s1y3, s2y1, s3y1;
  };
  const Row published[] = {{0.4, -3.5595e-01, 3.5556e-01, 9.5424e-08, -1.5832e-11},
                           {4.0, -1.8761e+00, 1.8759e+00, 2.9614e-06, -4.9334e-10},
                           {40.0, -4.2476e+00, 4.2475e+00, 1.3731e-05, -2.2884e-09},
                           {400.0, -5.9584e+00, 5.9584e+00, 2.2738e-05, -3.7897e-09}};
  for (const Row& row : published) {
    CAPTURE(row.t);
    // Five printed digits: agreement to 2e-4 relative (the last digit's half unit and IDAS's
    // own error at its tolerance).
    const double tol = 2e-4;
    CHECK(at(r, "d(y1)/d(p1)", row.t) == doctest::Approx(row.s1y1).epsilon(tol));
    CHECK(at(r, "d(y3)/d(p1)", row.t) == doctest::Approx(row.s1y3).epsilon(tol));
    CHECK(at(r, "d(y1)/d(p2)", row.t) == doctest::Approx(row.s2y1).epsilon(tol));
    CHECK(at(r, "d(y1)/d(p3)", row.t) == doctest::Approx(row.s3y1).epsilon(tol));
  }
}

TEST_CASE("the pendulum's sensitivities agree with differences of perturbed runs") {
  models::PendulumParameters p;
  p.phi0_rad = 1.0;
  models::Pendulum model(p);
  const SimulationResult r = sensitivity_run(model, 3.0, 0.5, {"L", "d", "phi_start", "start(w)"});
  // Central differences of runs at rel_tol 1e-10 with the parameter moved by 1e-4 of itself
  // (or by 1e-4 where it is 0): their truncation and the runs' errors leave about 1e-6 of
  // the derivative; the sensitivities, at rel_tol 1e-9, are held to 1e-5 relative.
  const auto perturbed = [&](const std::string& name, double delta, double t) {
    models::Pendulum m(p);
    const double v = m.parameter(name);
    const SimulationOptions q = tight(3.0, 0.5, 1e-10);
    m.set_parameter(name, v + delta);
    const double up = at(simulate(m, q), "phi", t);
    m.set_parameter(name, v - delta);
    const double down = at(simulate(m, q), "phi", t);
    return (up - down) / (2.0 * delta);
  };
  for (const double t : {1.0, 2.0, 3.0}) {
    CAPTURE(t);
    const double tol = 1e-5;
    CHECK(at(r, "d(phi)/d(L)", t) ==
          doctest::Approx(perturbed("L", 1e-4 * p.length_m, t)).epsilon(tol));
    CHECK(at(r, "d(phi)/d(d)", t) == doctest::Approx(perturbed("d", 1e-4, t)).epsilon(tol));
    CHECK(at(r, "d(phi)/d(phi_start)", t) ==
          doctest::Approx(perturbed("phi_start", 1e-4, t)).epsilon(tol));
    CHECK(at(r, "d(phi)/d(start(w))", t) ==
          doctest::Approx(perturbed("w_start", 1e-4, t)).epsilon(tol));
  }
}

TEST_CASE("the clutch's speed after engaging has the sensitivity momentum conservation gives") {
  models::IdealClutch clutch;
  const SimulationResult r = sensitivity_run(clutch, 0.5, 0.25, {"J2", "w2_start"});
  // Engaged at t0, (J1 + k^2 C) w1 + J2 w2 is conserved through the jump (the motor's
  // electrical inertia k^2 C adds to J1): w(0+) = J2 w2(0-) / (J1 + k^2 C + J2) with
  // w1(0-) = 0, so dw1(0+)/dJ2 = w2(0-) (J1 + k^2 C) / (J1 + k^2 C + J2)^2 and
  // dw1(0+)/dw2(0-) = J2 / (J1 + k^2 C + J2); J1 = 0.1, k = 0.25, C = 2, J2 = 0.4, w2 = 10.
  const double inner = 0.1 + 0.25 * 0.25 * 2.0;
  const double all = inner + 0.4;
  const ResultTable& t = r.table;
  std::size_t after = 0;  // the t0+ row: the last row at t = 0
  while (after + 1 < t.num_rows() && t.time(after + 1) == 0.0) ++after;
  REQUIRE(after >= 1);
  // The jump solve holds the jump's rows to a thousandth of rel_tol.
  CHECK(t.value(after, t.column_index("d(w1)/d(J2)")) ==
        doctest::Approx(10.0 * inner / (all * all)).epsilon(1e-7));
  CHECK(t.value(after, t.column_index("d(w2)/d(J2)")) ==
        doctest::Approx(10.0 * inner / (all * all)).epsilon(1e-7));
  CHECK(t.value(after, t.column_index("d(w1)/d(w2_start)")) ==
        doctest::Approx(0.4 / all).epsilon(1e-7));
}

TEST_CASE("a sensitivity to an event's time agrees with differences of perturbed runs") {
  // The clutch opens at t = release (a time event scheduled from the parameter): what
  // follows shifts with it. Runs of 200 s at rel_tol 1e-10 with release moved by 1e-3 s
  // either way give the reference; their central difference is exact for the linear motion
  // after the release and leaves the runs' errors over 1e-3, about 1e-6 of the derivative.
  models::IdealClutchParameters p;
  p.release_s = 20.0;
  p.engage_s = 300.0;
  models::IdealClutch clutch(p);
  const SimulationResult r = sensitivity_run(clutch, 40.0, 10.0, {"release"});
  const auto perturbed = [&](const std::string& column, double t) {
    const auto make = [&p] { return std::make_unique<models::IdealClutch>(p); };
    return central_difference(make, "release", p.release_s, 1e-3, column, t, 40.0, 10.0);
  };
  check_against(r, "release", {30.0, 40.0}, {"w1", "w2"}, perturbed, 1e-5, 1e-6);
}

TEST_CASE("the ball's sensitivities through its first impact follow the closed forms") {
  models::BouncingBall ball;
  const SimulationResult r = sensitivity_run(ball, 0.9, 0.1, {"e", "h_start"});
  // Falling from h0 under g it hits at t1 = sqrt(2 h0 / g) with speed u = sqrt(2 g h0) and
  // leaves with e u: v = e u - g (t - t1), h = e u (t - t1) - g (t - t1)^2 / 2. With
  // dt1/dh0 = 1/u and du/dh0 = g/u: dv/de = u, dh/de = u (t - t1),
  // dv/dh0 = (1 + e) g / u, dh/dh0 = e g (t - t1) / u - (e u - g (t - t1)) / u.
  const double g = 9.81, h0 = 1.0, e = 0.7;
  const double u = std::sqrt(2.0 * g * h0), t1 = std::sqrt(2.0 * h0 / g);
  // The event log says how the impact time moves: dt1/dh0 = 1/u, and e does not move it.
  // The time itself is the run's root, accurate to the fall's integration (1e-8 of t1 at
  // this rel_tol); its derivative to 1e-6, as the columns below.
  const auto impact = std::find_if(r.events.begin(), r.events.end(), [](const EventRecord& ev) {
    return ev.kind == EventKind::kState;
  });
  REQUIRE(impact != r.events.end());
  CHECK(impact->t == doctest::Approx(t1).epsilon(1e-8));
  REQUIRE(impact->time_sensitivities.size() == 2);
  CHECK(impact->time_sensitivities[0].sensitivity == "e");
  CHECK(impact->time_sensitivities[0].value == doctest::Approx(0.0).scale(1e-6));
  CHECK(impact->time_sensitivities[1].sensitivity == "h_start");
  CHECK(impact->time_sensitivities[1].value == doctest::Approx(1.0 / u).epsilon(1e-6));
  for (const double t : {0.5, 0.7, 0.9}) {
    CAPTURE(t);
    const double d = t - t1;
    // Each closed form to 1e-6 relative: the event time is located to IDA's root tolerance
    // and the sensitivities carry the run's tolerance through the impact.
    const double tol = 1e-6;
    CHECK(at(r, "d(v)/d(e)", t) == doctest::Approx(u).epsilon(tol));
    CHECK(at(r, "d(h)/d(e)", t) == doctest::Approx(u * d).epsilon(tol));
    CHECK(at(r, "d(v)/d(h_start)", t) == doctest::Approx((1.0 + e) * g / u).epsilon(tol));
    CHECK(at(r, "d(h)/d(h_start)", t) ==
          doctest::Approx(e * g * d / u - (e * u - g * d) / u).epsilon(tol));
  }
}

TEST_CASE("a pendulum reduced from index 3 has the sensitivities of perturbed runs") {
  // Released from the horizontal, the bob's states change from (y, vy) to (x, vx) and back
  // (events that only reformulate the rows); L moves the start onto another circle, which the
  // consistent start makes of the sensitivities too. Reference: central differences of runs
  // at rel_tol 1e-10 with L moved by 1e-4 of itself, each reduced anew (about 1e-6 of the
  // derivative); the sensitivities at rel_tol 1e-9 to 1e-5.
  const std::unique_ptr<IndexReducedModel> model = models::make_cartesian_pendulum();
  const SimulationResult r = sensitivity_run(*model, 2.0, 0.5, {"L"});
  const auto perturbed = [](const std::string& column, double t) {
    return central_difference(kCartesianPendulum, "L", 0.5, 0.5e-4, column, t, 2.0, 0.5);
  };
  check_against(r, "L", {0.5, 1.0, 2.0}, {"x", "y", "vx"}, perturbed, 1e-5, 1e-3);
}

TEST_CASE("a reduced pendulum's sensitivities go on through its changes of states unchanged") {
  // A change of states only restates the solution in other rows: x and x' go on continuously
  // and so do the sensitivities, even though the time of the change moves with the damping.
  // Rows at IDA's steps (the example's options) make the run stop at every change. Reference:
  // central differences of runs at rel_tol 1e-10 with d moved by 1e-3 of itself.
  const std::unique_ptr<IndexReducedModel> model = models::make_cartesian_pendulum();
  SimulationOptions o = tight(2.0, 0.5);
  o.step_to_outputs = true;
  o.sensitivities = {"d"};
  const SimulationResult r = simulate(*model, o);
  REQUIRE_MESSAGE(r.status.outcome == Outcome::kReachedStopTime, r.status.message);
  CHECK(model->selection_changes() > 0);
  const double d0 = model->parameter("d");
  const auto perturbed = [d0](const std::string& column, double t) {
    return central_difference(kCartesianPendulum, "d", d0, 1e-3 * d0, column, t, 2.0, 0.5);
  };
  check_against(r, "d", {1.0, 2.0}, {"x", "vy"}, perturbed, 1e-4, 1e-3);
}

TEST_CASE("a reduced pendulum's sensitivities on the sparse path follow its changes of pattern") {
  // With KLU the reduced model replaces its sparsity pattern at every change of states, and
  // the sensitivity rows' pattern must follow; the handler, called again at the same point,
  // finds the pattern replaced already. Reference as above: central differences in L.
  const std::unique_ptr<IndexReducedModel> model = models::make_cartesian_pendulum();
  SimulationOptions o = tight(2.0, 0.5);
  o.sparse_min_unknowns = 1;  // KLU for the 14 unknowns of the augmented system
  o.sensitivities = {"L"};
  const SimulationResult r = simulate(*model, o);
  REQUIRE_MESSAGE(r.status.outcome == Outcome::kReachedStopTime, r.status.message);
  CHECK(model->selection_changes() > 0);
  const auto perturbed = [](const std::string& column, double t) {
    return central_difference(kCartesianPendulum, "L", 0.5, 0.5e-4, column, t, 2.0, 0.5);
  };
  check_against(r, "L", {1.0, 2.0}, {"x", "vy"}, perturbed, 1e-5, 1e-3);
}

TEST_CASE("a reduced mechanism's start values follow the parameter they are made from") {
  // The driven slider crank (models/slider_crank.hpp): theta(t) = theta0 + omega t, the crank
  // pin at xA = r cos(theta). theta0 sets the original's start values; varied for the
  // sensitivity it moves the reduced model's slots of them too, so d(theta)/d(theta0) = 1 and
  // d(xA)/d(theta0) = -r sin(theta) at every time.
  const std::unique_ptr<IndexReducedModel> crank = models::make_slider_crank();
  const SimulationResult r = sensitivity_run(*crank, 0.5, 0.1, {"theta0"});
  const models::SliderCrankParameters p;
  for (const double t : {0.0, 0.1, 0.3, 0.5}) {
    CAPTURE(t);
    const double theta = p.theta0_rad + p.omega_radps * t;
    CHECK(at(r, "d(theta)/d(theta0)", t) == doctest::Approx(1.0).epsilon(1e-6));
    CHECK(
        at(r, "d(xA)/d(theta0)", t) ==
        doctest::Approx(-p.crank_length_m * std::sin(theta)).scale(p.crank_length_m).epsilon(1e-6));
  }
}

TEST_CASE("a reduced model's consistent start follows a parameter its equations hold") {
  // The PID-positioned mass (models/pid_controller.hpp) as written, index 2: x_set enters the
  // constraint e = x - x_set, and the reduction holds x's start and moves e's. For the
  // sensitivity the start is made consistent anew for the varied set point, as a run with it
  // would start. s = dx/dx_set obeys m s'' = -kP (s - 1) - kD s' - kI sigma, sigma' = s - 1
  // (the load does not depend on x_set), s(0) = s'(0) = sigma(0) = 0; w = s - 1 = de/dx_set
  // then solves m w''' + kD w'' + kP w' + kI w = 0, whose roots are -1, -2, -3 with the default
  // gains, with w(0) = -1, w'(0) = 0, w''(0) = kP / m = 11:
  //   w(t) = 2.5 e^-t - 8 e^-2t + 4.5 e^-3t.
  const std::unique_ptr<SimulationModel> pid =
      models::make_pid_controller(models::PidForm::kAsWritten);
  const SimulationResult r = sensitivity_run(*pid, 4.0, 0.5, {"x_set"});
  for (const double t : {0.0, 0.5, 1.0, 2.0, 4.0}) {
    CAPTURE(t);
    const double w = 2.5 * std::exp(-t) - 8.0 * std::exp(-2.0 * t) + 4.5 * std::exp(-3.0 * t);
    // rel_tol 1e-9 on a solution of size 1: 1e-6 leaves room for the global error.
    CHECK(at(r, "d(e)/d(x_set)", t) == doctest::Approx(w).epsilon(1e-6).scale(1.0));
    CHECK(at(r, "d(x)/d(x_set)", t) == doctest::Approx(1.0 + w).epsilon(1e-6).scale(1.0));
  }
}

TEST_CASE("sensitivities that cannot be computed are errors naming them before the run") {
  GainedDecay decay;
  SimulationOptions o;
  o.log_level = LogLevel::kOff;
  o.sensitivities = {"q"};
  CHECK_THROWS_WITH_AS(Simulator(decay, o),
                       "SimulationOptions::sensitivities: model 'gained_decay' has no parameter "
                       "'q'; its parameters are: k, c, x0",
                       OptionError);
  o.sensitivities = {"start(v)"};
  CHECK_THROWS_WITH_AS(Simulator(decay, o),
                       "SimulationOptions::sensitivities: 'start(v)' names a start value, but "
                       "model 'gained_decay' has no variable 'v'",
                       OptionError);
  o.sensitivities = {"k", "k"};
  CHECK_THROWS_WITH_AS(Simulator(decay, o), "SimulationOptions::sensitivities names 'k' twice",
                       OptionError);
  o.sensitivities = {""};
  CHECK_THROWS_WITH_AS(Simulator(decay, o), "SimulationOptions::sensitivities holds an empty name",
                       OptionError);
  models::MassSpringChain chain;
  o.sensitivities = {"N"};
  CHECK_THROWS_WITH_AS(Simulator(chain, o),
                       "SimulationOptions::sensitivities: parameter 'N' of model "
                       "'mass_spring_chain' takes whole numbers only and has no derivative",
                       OptionError);
  o.sensitivities = {"k"};
  o.rel_tol = 1e-10;
  CHECK_THROWS_WITH_AS(Simulator(decay, o),
                       "SimulationOptions::rel_tol must be >= 1e-09 in a run with sensitivities "
                       "(their difference quotients carry no more digits), got 1e-10",
                       OptionError);
}

TEST_CASE("an event that changes the unknowns ends a sensitivity run naming why") {
  // ITI example 2, reduced: at t_s = 0.5 s its row 1 = x becomes 1 = der(x), whose slot x' the
  // start's layout does not have, so the reduced model takes new unknowns
  // (tests/reduction/test_cartesian_pendulum.cpp). The sensitivities of unknowns that did not
  // exist before the event are not made: the run throws at the event with that reason.
  IndexReducedModel reduced(std::make_unique<models::ItiExample2>());
  SimulationOptions o = tight(1.0, 0.1);
  o.sensitivities = {"t_s"};
  CHECK_THROWS_WITH_AS((void)simulate(reduced, o),
                       doctest::Contains("a run with sensitivities cannot follow an event that "
                                         "changes the unknowns"),
                       ModelCallbackError);
}

TEST_CASE("a sensitivity run holds its model like any run") {
  GainedDecay decay;
  SimulationOptions o;
  o.log_level = LogLevel::kOff;
  o.sensitivities = {"k"};
  Simulator first(decay, o);
  CHECK(&first.model() == &decay);
  CHECK_THROWS_AS(Simulator(decay, o), ModelError);
  CHECK_THROWS_AS(decay.set_parameter("k", 1.0), ModelError);
}

}  // namespace hdae
