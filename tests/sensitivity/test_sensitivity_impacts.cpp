// Sensitivities through impacts whose restitution law reads the velocities before the jump:
// with Evaluation::left_limit the engine sees the law's dependence on x^- and carries s^-
// through it; with values the handler keeps it cannot, and the run says so.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/models/colliding_masses.hpp"
#include "hdae/models/three_masses.hpp"
#include "hdae/models/wall_pendulum.hpp"
#include "hdae/simulator.hpp"
#include "sensitivity_runs.hpp"

namespace hdae {
namespace {

using test::at;
using test::tight;

/// A ball dropped on a floor, the contact force an impact source, whose restitution law reads
/// the velocity the handler kept in the model instead of the jump's left limit.
class KeptVelocityBall final : public Model {
 public:
  KeptVelocityBall() : Model("kept_velocity_ball") {
    e_ = declare_parameter({.name = "e", .value = 0.5, .min = 0.0, .max = 1.0});
    h_ = declare_variable({.name = "h", .unit = "m", .start = 1.0});
    v_ = declare_variable({.name = "v", .unit = "m/s"});
    f_ = declare_variable({.name = "F", .unit = "N"});
    kinematics_ = declare_equation("der(h) = v");
    momentum_ = declare_equation("der(v) = -g + F");
    contact_ = declare_equation("impact: 0 = v + e*v^-; free: 0 = F", RowKind::kConstraint);
    floor_ = declare_crossing("h < 0", CrossingDirection::kFalling);
  }
  void evaluate(Evaluation& e) override {
    e.positive(floor_, e.x(h_));
    e.set(kinematics_, e.der(h_) - e.x(v_));
    e.set(momentum_, e.der(v_) + 9.81 - e.x(f_));
    e.set(contact_, impact_ ? e.x(v_) + value(e_) * v_before_ : e.x(f_));
  }
  void on_event(EventContext& event) override {
    impact_ = false;
    if (event.fell(floor_) && event.x(v_) < 0.0) {
      v_before_ = event.x(v_);
      impact_ = true;
      event.impulse(f_);
    }
  }
  void reset() override {
    impact_ = false;
    v_before_ = 0.0;
  }

 private:
  Param e_;
  Var h_, v_, f_;
  Eq kinematics_, momentum_, contact_;
  Crossing floor_;
  bool impact_ = false;
  double v_before_ = 0.0;
};

}  // namespace

TEST_CASE("sensitivities pass an impact whose law reads left limits, as the closed form says") {
  // Two masses, the contact force an impact source (ITI paper, example 3), m1 = 1, m2 = 1.5,
  // e = 0.5, mass 1 at 1 m/s towards mass 2 at rest 0.5 m away: the impact at t_e = 0.5 s.
  // With M = m1 + m2 and u = v1^- - v2^- the textbook answers are
  //   v1^+ = v1^- - m2 (1 + e) u / M = 0.1,  v2^+ = m1 (1 + e) u / M = 0.6,
  // so d(v1^+)/d(m2) = -m1 (1 + e) u / M^2 = -0.24, d(v2^+)/d(m2) = -0.24,
  // d(v1^+)/d(e) = -m2 u / M = -0.6, d(v2^+)/d(e) = m1 u / M = 0.4, and with v1^- = start(v1)
  // d(v1^+)/d(start(v1)) = 1 - m2 (1 + e) / M = 0.1, d(v2^+)/d(start(v1)) = 0.6. The
  // positions at t = 1 s: s1 = v1^- t_e + v1^+ (t - t_e) with t_e = 0.5 m / v1^-, so
  // d(s1)/d(m2) = 0.5 d(v1^+)/d(m2) = -0.12, d(s1)/d(start(v1)) = t_e + (v1^- - v1^+) dt_e/dv1
  // + 0.5 d(v1^+)/d(v1) = 0.5 - 0.45 + 0.05 = 0.1, d(s2)/d(start(v1)) = 0.3 + 0.3 = 0.6.
  models::CollidingMassesParameters p;
  p.mass2_kg = 1.5;
  p.restitution = 0.5;
  models::CollidingMasses masses(p, models::ImpulseForm::kImpactSources);
  SimulationOptions o = tight(1.0, 0.25);
  o.sensitivities = {"m2", "e", "start(v1)"};
  const SimulationResult r = simulate(masses, o);
  REQUIRE_MESSAGE(r.status.outcome == Outcome::kReachedStopTime, r.status.message);
  // 1e-6: the motion is piecewise linear, which BDF integrates exactly; what is left is the
  // sensitivities' difference quotients over their step and the impact time's location.
  const double tol = 1e-6;
  for (const double t : {0.75, 1.0}) {
    CAPTURE(t);
    CHECK(at(r, "d(v1)/d(m2)", t) == doctest::Approx(-0.24).epsilon(tol));
    CHECK(at(r, "d(v2)/d(m2)", t) == doctest::Approx(-0.24).epsilon(tol));
    CHECK(at(r, "d(v1)/d(e)", t) == doctest::Approx(-0.6).epsilon(tol));
    CHECK(at(r, "d(v2)/d(e)", t) == doctest::Approx(0.4).epsilon(tol));
    CHECK(at(r, "d(v1)/d(start(v1))", t) == doctest::Approx(0.1).epsilon(tol));
    CHECK(at(r, "d(v2)/d(start(v1))", t) == doctest::Approx(0.6).epsilon(tol));
  }
  CHECK(at(r, "d(s1)/d(m2)", 1.0) == doctest::Approx(-0.12).epsilon(tol));
  CHECK(at(r, "d(s1)/d(start(v1))", 1.0) == doctest::Approx(0.1).epsilon(tol));
  CHECK(at(r, "d(s2)/d(start(v1))", 1.0) == doctest::Approx(0.6).epsilon(tol));
  // Before the impact the velocities do not depend on m2 or e.
  CHECK(at(r, "d(v1)/d(m2)", 0.25) == doctest::Approx(0.0).scale(1.0).epsilon(tol));
  CHECK(at(r, "d(v1)/d(e)", 0.25) == doctest::Approx(0.0).scale(1.0).epsilon(tol));
}

TEST_CASE("momentum and the restitution law hold for the sensitivities of three masses") {
  // The ITI paper's example 3 (two end stops hit at once): whatever the source, the total
  // momentum sum m_i v_i is conserved through the impacts, so its derivative with respect to
  // a start velocity is that of the initial momentum, m_i d(v_i)/d(start(v_i)) = m1.
  models::ThreeMasses masses({}, models::ImpulseForm::kImpactSources);
  SimulationOptions o = tight(2.0, 0.5);
  o.sensitivities = {"start(v1)"};
  const SimulationResult r = simulate(masses, o);
  REQUIRE_MESSAGE(r.status.outcome == Outcome::kReachedStopTime, r.status.message);
  REQUIRE(!r.events.empty());
  const auto& m = masses.parameters().masses_kg;
  for (const double t : {0.5, 1.0, 1.5, 2.0}) {
    CAPTURE(t);
    double momentum = 0.0;
    for (std::size_t i = 0; i < 3; ++i) {
      momentum += m[i] * at(r, "d(v" + std::to_string(i + 1) + ")/d(start(v1))", t);
    }
    // 1e-7: momentum is linear in the velocities; only the run's rounding and the quotients'
    // truncation are left.
    CHECK(momentum == doctest::Approx(m[0]).epsilon(1e-7));
  }
}

/// The times of the events at which `crossing` flipped, with their d(t)/d(source).
std::vector<std::pair<double, double>> event_times(const SimulationResult& r,
                                                   const std::string& crossing,
                                                   const std::string& source) {
  std::vector<std::pair<double, double>> out;
  for (const EventRecord& e : r.events) {
    const bool flipped =
        std::any_of(e.crossings.begin(), e.crossings.end(),
                    [&](const CrossingRecord& c) { return c.crossing == crossing; });
    if (!flipped) continue;
    for (const TimeSensitivity& s : e.time_sensitivities) {
      if (s.sensitivity == source) out.emplace_back(e.t, s.value);
    }
  }
  return out;
}

TEST_CASE("sensitivities pass the impacts a reduced model integrates, as the closed forms say") {
  // The wall pendulum (models/wall_pendulum.hpp, index 3, reduced by the engine) released at
  // rest from the horizontal, the wall under the pivot: each impact happens at the bottom,
  // where the bob moves horizontally and omega+ = -e omega-. With v0 = sqrt(2 g L) the speed at
  // the first impact, the speed after the n-th is e^n v0 and the energy after it (zero at the
  // pivot's height) is E_n = m g L (e^(2n) - 1), so
  //   d(vx)/d(e) = v0 right after the first impact, 2 e v0 right after the second,
  //   d(E)/d(e) = 2 e m g L between the first two impacts, 4 e^3 m g L between the next two.
  // The first impact comes after the quarter period K(1/sqrt 2) sqrt(L/g), which e does not
  // move; between the first two the bob swings out to cos(theta1) = 1 - e^2 and back, half
  // the period of that swing, 2 sqrt(L/g) K(k) with k = sin(theta1/2) = e/sqrt 2, so
  //   d(t2)/d(e) = 2 sqrt(L/g) K'(k) / sqrt 2,  K'(k) = E(k) / (k (1 - k^2)) - K(k) / k
  // (K, E the complete elliptic integrals of the first and second kind). Every impact is at
  // x = 0, whatever e: x(t2(e); e) = 0 gives d(x)/d(e) = -vx d(t2)/d(e) on either side of it.
  const models::WallPendulumParameters p;
  const std::unique_ptr<IndexReducedModel> pendulum = models::make_wall_pendulum(p);
  SimulationOptions o = tight(2.0, 0.1);
  o.sensitivities = {"e"};
  const SimulationResult r = simulate(*pendulum, o);
  REQUIRE_MESSAGE(r.status.outcome == Outcome::kReachedStopTime, r.status.message);
  const double L = p.length_m, g = p.gravity_mps2, m = p.mass_kg, e = p.restitution;
  const double v0 = std::sqrt(2.0 * g * L);
  const double k = e / std::numbers::sqrt2;
  const double dK = std::comp_ellint_2(k) / (k * (1.0 - k * k)) - std::comp_ellint_1(k) / k;
  const auto impacts = event_times(r, "x - x_wall < 0", "e");
  REQUIRE(impacts.size() >= 2);
  // 1e-5: the run at rel_tol 1e-9 over nonlinear swings, and the sensitivities' quotients,
  // leave a few 1e-6 relative (the tolerance of the check against central differences).
  const double tol = 1e-5;
  CHECK(impacts[0].first ==
        doctest::Approx(std::comp_ellint_1(1.0 / std::numbers::sqrt2) * std::sqrt(L / g))
            .epsilon(tol));
  CHECK(impacts[0].second == doctest::Approx(0.0).scale(1.0).epsilon(tol));
  CHECK(impacts[1].second ==
        doctest::Approx(2.0 * std::sqrt(L / g) * dK / std::numbers::sqrt2).epsilon(tol));
  CHECK(at(r, "d(vx)/d(e)", impacts[0].first) == doctest::Approx(v0).epsilon(tol));
  CHECK(at(r, "d(vx)/d(e)", impacts[1].first) == doctest::Approx(2.0 * e * v0).epsilon(tol));
  CHECK(at(r, "d(x)/d(e)", impacts[1].first) ==
        doctest::Approx(-e * e * v0 * impacts[1].second).epsilon(tol));
  for (const double t : {0.5, 0.7, 0.9, 1.1}) {
    CAPTURE(t);
    REQUIRE(t < impacts[1].first);
    CHECK(at(r, "d(energy)/d(e)", t) == doctest::Approx(2.0 * e * m * g * L).epsilon(tol));
  }
  for (const double t : {1.3, 1.5, 1.7}) {
    CAPTURE(t);
    REQUIRE((impacts.size() < 3 || t < impacts[2].first));
    CHECK(at(r, "d(energy)/d(e)", t) == doctest::Approx(4.0 * e * e * e * m * g * L).epsilon(tol));
  }
}

TEST_CASE("an impact law on velocities the handler kept ends a sensitivity run naming why") {
  // The kept v^- is a number the sensitivity rows cannot follow: its s^- would be lost in
  // the law's sensitivity rows, so the run refuses rather than give d(v)/d(e) without it.
  KeptVelocityBall ball;
  SimulationOptions o = tight(1.0, 0.1);
  o.sensitivities = {"e"};
  CHECK_THROWS_WITH_AS((void)simulate(ball, o),
                       doctest::Contains("its equations use values the handler kept from the "
                                         "state"),
                       ModelCallbackError);
}

}  // namespace hdae
