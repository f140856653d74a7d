// Impacts written with forces as impact sources (EventContext::impulse; docs/design.md,
// "Impacts"): the engine integrates the equations of motion over the impulses (ITI paper,
// section 3), so models need no integral states for their contact forces.
#include <array>
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/models/colliding_masses.hpp"
#include "hdae/models/three_masses.hpp"
#include "hdae/simulator.hpp"
#include "models/event_rows.hpp"

using namespace hdae;
using models::testing::events_of_kind;
using models::testing::find_jump;

namespace {

constexpr double kRelTol = 1e-8;
// The tolerances below: every impact's jump system is linear in the velocities and impulses
// (coefficients of order 1 to 3), so Newton solves it exactly in its first step and jumps,
// impulses and momentum agree with the hand-solved values to round-off: 1e-12 relative. The
// event times: positions are linear in t before each impact, which BDF integrates exactly, so
// IDA places the root to its root tolerance (about 1e-14 s at 0.5 s): 1e-12.
constexpr double kRoundOff = 1e-12;

SimulationResult run(SimulationModel& model, double stop_s) {
  SimulationOptions options;
  options.stop_s = stop_s;
  options.rel_tol = kRelTol;
  return simulate(model, options);
}

/// The single state event of a run that reached its stop time.
const EventRecord& only_impact(const SimulationResult& result) {
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  const auto impacts = events_of_kind(result, EventKind::kState);
  REQUIRE(impacts.size() == 1);
  return *impacts[0];
}

double impulse_of(const EventRecord& event, const std::string& variable) {
  for (const ImpulseRecord& i : event.impulses) {
    if (i.variable == variable) return i.integral;
  }
  FAIL("no impulse recorded for " << variable);
  return 0.0;
}

/// Mass 1 (velocity v1, towards a wall at s1 = 0) hits the wall through a contact force F1; a
/// lever of ratio r passes F2 = r F1 on to mass 2. Only F1 is marked as the impact source: the
/// lever row F2 = r F1 is a constraint that holds an impulsive unknown, so F2 must carry a
/// Dirac too (impulse_plan.hpp). With the wall's law v1+ = -e v1-:
///   F1_hat = m1 (v1+ - v1-) (m1 der(v1) = F1), F2_hat = r F1_hat, m2 (v2+ - v2-) = F2_hat.
/// mark_state: the model wrongly marks the velocity v1 as the source instead.
class WallAndLever final : public Model {
 public:
  static constexpr double m1 = 2.0, m2 = 0.5, r = 3.0, e = 0.5;

  explicit WallAndLever(bool mark_state = false)
      : Model("wall_and_lever"), mark_state_(mark_state) {
    s1_ = declare_variable({.name = "s1", .unit = "m", .start = 1.0});
    v1_ = declare_variable({.name = "v1", .unit = "m/s", .start = -2.0});
    v2_ = declare_variable({.name = "v2", .unit = "m/s", .start = 0.25});
    f1_ = declare_variable({.name = "F1", .unit = "N"});
    f2_ = declare_variable({.name = "F2", .unit = "N"});
    kinematics_ = declare_equation("der(s1) = v1");
    motion1_ = declare_equation("m1*der(v1) = F1");
    motion2_ = declare_equation("m2*der(v2) = F2");
    wall_ = declare_equation("impact: v1 = -e*v1^-; otherwise F1 = 0", RowKind::kConstraint);
    lever_ = declare_equation("F2 = r*F1", RowKind::kConstraint);
    contact_ = declare_crossing("s1 < 0", CrossingDirection::kRising);
  }
  void evaluate(Evaluation& ev) override {
    ev.negative(contact_, ev.x(s1_));
    ev.set(kinematics_, ev.der(s1_) - ev.x(v1_));
    ev.set(motion1_, m1 * ev.der(v1_) - ev.x(f1_));
    ev.set(motion2_, m2 * ev.der(v2_) - ev.x(f2_));
    ev.set(wall_, impact_ ? ev.x(v1_) + e * v1_before_ : ev.x(f1_));
    ev.set(lever_, ev.x(f2_) - r * ev.x(f1_));
  }
  void on_event(EventContext& event) override {
    impact_ = false;
    if (event.rose(contact_)) {
      v1_before_ = event.x(v1_);
      impact_ = true;
      event.impulse(mark_state_ ? v1_ : f1_);
    }
  }
  void reset() override { impact_ = false; }

 private:
  bool mark_state_;
  bool impact_ = false;
  double v1_before_ = 0.0;
  Var s1_, v1_, v2_, f1_, f2_;
  Eq kinematics_, motion1_, motion2_, wall_, lever_;
  Crossing contact_;
};

}  // namespace

TEST_CASE("stop forces as impact sources give the hand-formulated three masses' jump") {
  models::ThreeMasses integral_states;  // F_k = der(p_int_k), written by hand
  models::ThreeMasses impact_sources({}, models::ImpulseForm::kImpactSources);
  const SimulationResult a = run(integral_states, 2.0);
  const SimulationResult b = run(impact_sources, 2.0);
  const EventRecord& ea = only_impact(a);
  const EventRecord& eb = only_impact(b);
  // Same positions, same crossing: IDA locates both roots to its root tolerance (~1e-14 s).
  CHECK(eb.t == doctest::Approx(ea.t).epsilon(1e-14));
  CHECK(impact_sources.impacts() == std::array{1, 1});

  // Both jump solves are one linear system in the velocities and impulses (the same one, once
  // with p_int's jumps, once with F_hat as unknowns), so they agree to round-off: 1e-12.
  const std::array<double, 3>& m = impact_sources.parameters().masses_kg;
  double momentum_before = 0.0;
  double momentum_after = 0.0;
  for (const char* v : {"v1", "v2", "v3"}) {
    const JumpRecord* ja = find_jump(ea, v);
    const JumpRecord* jb = find_jump(eb, v);
    REQUIRE(ja != nullptr);
    REQUIRE(jb != nullptr);
    CHECK(std::abs(jb->before - ja->before) <= kRoundOff);
    CHECK(std::abs(jb->after - ja->after) <= kRoundOff);
    const std::size_t i = static_cast<std::size_t>(v[1] - '1');
    momentum_before += m[i] * jb->before;
    momentum_after += m[i] * jb->after;
  }
  // Momentum is conserved by the integrated equations of motion (internal forces), to 1e-12
  // relative; v^+ = (-22/15, -4/15, 1/3) m/s solved by hand (models/three_masses.hpp).
  CHECK(std::abs(momentum_after - momentum_before) <= kRoundOff * std::abs(momentum_before));
  CHECK(find_jump(eb, "v1")->after == doctest::Approx(-22.0 / 15.0).epsilon(kRoundOff));
  // The impulses are the hand-written model's p_int jumps: 52/15 N s and 4 N s.
  CHECK(impulse_of(eb, "F1") == doctest::Approx(52.0 / 15.0).epsilon(kRoundOff));
  CHECK(impulse_of(eb, "F2") == doctest::Approx(4.0).epsilon(kRoundOff));
  // Positions do not jump (an impulse moves velocities, not positions), and after the event
  // the stop forces are 0 again.
  CHECK(find_jump(eb, "s1") == nullptr);
  CHECK(b.table.final_value("F1") == 0.0);
  CHECK(b.table.final_value("F2") == 0.0);
  CHECK(b.table.final_value("v3") == doctest::Approx(a.table.final_value("v3")).epsilon(kRoundOff));
}

TEST_CASE("an impulse passes through a constraint row to the unknowns it holds") {
  WallAndLever model;
  const SimulationResult result = run(model, 1.0);
  const EventRecord& event = only_impact(result);
  CHECK(event.t == doctest::Approx(0.5).epsilon(kRoundOff));  // s1 = 1 - 2 t
  // The wall's law, and the lever's share of the impulse (see WallAndLever):
  // F1_hat = 2 (1 + 2) = 6 N s, F2_hat = 18 N s, v2+ = 0.25 + 18 / 0.5 = 36.25 m/s.
  const JumpRecord* v1 = find_jump(event, "v1");
  const JumpRecord* v2 = find_jump(event, "v2");
  REQUIRE(v1 != nullptr);
  REQUIRE(v2 != nullptr);
  CHECK(v1->after == doctest::Approx(1.0).epsilon(kRoundOff));
  CHECK(impulse_of(event, "F1") == doctest::Approx(6.0).epsilon(kRoundOff));
  CHECK(impulse_of(event, "F2") == doctest::Approx(18.0).epsilon(kRoundOff));
  CHECK(v2->after == doctest::Approx(36.25).epsilon(kRoundOff));
  CHECK(result.table.final_value("v2") == doctest::Approx(36.25).epsilon(kRoundOff));
}

TEST_CASE("a state marked as impact source is refused with a message naming it") {
  WallAndLever model(/*mark_state=*/true);
  SimulationOptions options;
  options.stop_s = 1.0;
  const SimulationResult result = simulate(model, options);
  CHECK(result.status.outcome == Outcome::kJumpSolveFailure);
  CHECK(result.status.message.find("impulse source {v1} is not an algebraic unknown") !=
        std::string::npos);
  CHECK(result.status.t == doctest::Approx(0.5).epsilon(1e-9));
}

TEST_CASE("two colliding masses with the contact force as impact source: textbook velocities") {
  // The catalog's colliding_masses_impact: m = (1, 2) kg, e = 0.8, v = (1, 0) m/s, gap 0.5 m.
  models::CollidingMasses model({.mass2_kg = 2.0, .restitution = 0.8},
                                models::ImpulseForm::kImpactSources);
  const SimulationResult result = run(model, 2.0);
  const EventRecord& event = only_impact(result);
  CHECK(model.impacts() == 1);
  CHECK(event.t == doctest::Approx(0.5).epsilon(kRoundOff));  // the gap closes at 1 m/s
  const JumpRecord* v1 = find_jump(event, "v1");
  const JumpRecord* v2 = find_jump(event, "v2");
  REQUIRE(v1 != nullptr);
  REQUIRE(v2 != nullptr);
  const double m1 = model.parameters().mass1_kg;
  const double m2 = model.parameters().mass2_kg;
  const double e = model.parameters().restitution;
  // Momentum m1 v1 + m2 v2 conserved and v1+ - v2+ = -e u with u = v1- - v2- give
  // v1+ = v1- - m2 (1 + e) u / M and v2+ = v2- + m1 (1 + e) u / M, M = m1 + m2; the impulse F_hat
  // (m1 der(v1) = -F, compressive F > 0) is m1 (v1- - v1+) = m1 m2 (1 + e) u / M.
  const double u = v1->before - v2->before;
  const double total = m1 + m2;
  CHECK(v1->after == doctest::Approx(v1->before - m2 * (1 + e) * u / total).epsilon(kRoundOff));
  CHECK(v2->after == doctest::Approx(v2->before + m1 * (1 + e) * u / total).epsilon(kRoundOff));
  const double p_before = m1 * v1->before + m2 * v2->before;
  const double p_after = m1 * v1->after + m2 * v2->after;
  CHECK(std::abs(p_after - p_before) <= kRoundOff * std::abs(p_before));
  CHECK(impulse_of(event, "F") ==
        doctest::Approx(m1 * m2 * (1 + e) * u / total).epsilon(kRoundOff));
  // Positions are continuous; the masses fly apart with the new velocities to the end.
  CHECK(find_jump(event, "s1") == nullptr);
  CHECK(result.table.final_value("v2") == doctest::Approx(v2->after).epsilon(kRoundOff));
  CHECK(result.table.final_value("F") == 0.0);
}

TEST_CASE("colliding masses of 1e-12 to 1e10 kg: the velocities do not depend on the scale") {
  // The velocities after the impact depend on the mass ratio only (the formulas above), and
  // the impulse is proportional to the masses. The impulse's column is sized by what it
  // does (JumpSystem::scale_impulses), not by F's nominal of 1 N: with that nominal the jump
  // matrix of 1e-10 kg masses looked singular (rcond ~ 1e-10). Rows scaled by the masses and
  // the impulse by its size, the system is the one of the test above (coefficients 1 to 3),
  // so kRoundOff applies as there.
  for (const double scale : {1e-12, 1e-10, 1e10}) {
    CAPTURE(scale);
    models::CollidingMasses model({.mass1_kg = scale, .mass2_kg = 2.0 * scale, .restitution = 0.8},
                                  models::ImpulseForm::kImpactSources);
    const SimulationResult result = run(model, 2.0);
    const EventRecord& event = only_impact(result);
    const JumpRecord* v1 = find_jump(event, "v1");
    const JumpRecord* v2 = find_jump(event, "v2");
    REQUIRE(v1 != nullptr);
    REQUIRE(v2 != nullptr);
    // u = 1 m/s, M = 3 scale: v1+ = 1 - 2 (1.8) / 3 = -0.2, v2+ = 1.8 / 3 = 0.6 m/s, and the
    // impulse m1 m2 (1 + e) u / M = 1.2 scale N s.
    CHECK(v1->after == doctest::Approx(-0.2).epsilon(kRoundOff));
    CHECK(v2->after == doctest::Approx(0.6).epsilon(kRoundOff));
    CHECK(impulse_of(event, "F") == doctest::Approx(1.2 * scale).epsilon(kRoundOff));
  }
}

TEST_CASE("the impact forms refuse bad parameters naming the model and the parameter") {
  CHECK_THROWS_WITH_AS(
      models::CollidingMasses({.restitution = 0.0}, models::ImpulseForm::kImpactSources),
      doctest::Contains("parameter e must be > 0"), ModelError);
  // A bad start names the form the user asked for.
  CHECK_THROWS_WITH_AS(
      models::ThreeMasses({.s_start_m = {0.0, 0.4, 2.5}}, models::ImpulseForm::kImpactSources),
      doctest::Contains("model 'three_masses_impact': end stop 1 must start open"), ModelError);
}
