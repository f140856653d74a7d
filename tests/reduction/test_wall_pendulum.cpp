// Impacts in a model of higher index (docs/design.md, "Impacts in reduced models"): the
// Cartesian pendulum striking a wall (models/wall_pendulum.hpp) against closed forms of the
// pendulum and against the angle pendulum restarted with the impact law.
//
// In the angle theta = atan2(x, -y) from the downward vertical: released at rest from 90
// degrees, the bob reaches angle theta at omega^2 = (2 g / L) cos(theta) (energy). The first
// time it reaches the bottom is a quarter period of the 90-degree pendulum,
// T(theta0) / 4 = K(sin(theta0 / 2)) sqrt(L / g) (K the complete elliptic integral of the first
// kind). The impact keeps theta and sets omega+ = -e omega-; the bob then swings up to theta1
// with 1 - cos(theta1) = e^2 (1 - cos(theta0)) for a wall under the pivot, and is back after
// half its period. Impulses: m L (omega+ - omega-) tangentially; the wall's is m L Δω / cos
// theta along x and the rod force's (F in m der(vy) = -F y / L) m L Δω tan theta.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/index_reduction.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/models/wall_pendulum.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

constexpr double kPi = 3.14159265358979323846;

/// rel_tol 1e-8: the located impact times and the velocities at them carry IDA's local error
/// (about rel_tol) times the few steps since the last restart, so the closed forms are checked
/// to 1e-7 relative; the constraints hold to the Newton tolerance, 0.1 rel_tol of their terms.
SimulationOptions accurate(double stop) {
  SimulationOptions o;
  o.stop_s = stop;
  o.rel_tol = 1e-8;
  o.output_interval_s = 0.01;
  return o;
}

/// The period of the pendulum of length L swinging up to theta0.
double period(double theta0, double L, double g) {
  return 4.0 * std::comp_ellint_1(std::sin(theta0 / 2.0)) * std::sqrt(L / g);
}

std::vector<const EventRecord*> impacts(const SimulationResult& r) {
  std::vector<const EventRecord*> found;
  for (const EventRecord& e : r.events) {
    if (!e.impulses.empty()) found.push_back(&e);
  }
  return found;
}

double impulse_of(const EventRecord& e, const std::string& variable) {
  for (const ImpulseRecord& i : e.impulses) {
    if (i.variable == variable) return i.integral;
  }
  FAIL("no impulse of " << variable << " at t = " << e.t);
  return 0.0;
}

/// The pendulum of the wall pendulum with a blow at t = 0.1 s: in that pass `marked` is the
/// impact source and the contact row states the impact law on `law` (its right limit a
/// quarter of its left one, negated), otherwise 0 = Fc. For misuse: a source that is no force,
/// a law on a position.
class Blow final : public PhysicsModelOf<Blow> {
 public:
  Blow(int marked, int law) : PhysicsModelOf("blow"), marked_(marked), law_(law) {
    for (const char* name : {"x", "y", "vx", "vy", "F", "Fc"}) {
      v_.push_back(declare_variable({.name = name, .start = 0.0}));
    }
    set_start(v_[0], 0.5);
    for (const char* name : {"der(x) = vx", "der(y) = vy", "m*der(vx) = -F*x/L + Fc",
                             "m*der(vy) = -F*y/L - m*g", "0 = x^2 + y^2 - L^2", "contact"}) {
      eq_.push_back(declare_equation(name));
    }
    blow_ = declare_time_event("blow");
  }
  template <class S>
  void residuals(Equations<S>& e) const {
    e.set(eq_[0], e.der(v_[0]) - e.x(v_[2]));
    e.set(eq_[1], e.der(v_[1]) - e.x(v_[3]));
    e.set(eq_[2], e.der(v_[2]) + e.x(v_[4]) * e.x(v_[0]) / 0.5 - e.x(v_[5]));
    e.set(eq_[3], e.der(v_[3]) + e.x(v_[4]) * e.x(v_[1]) / 0.5 + 9.81);
    e.set(eq_[4], e.x(v_[0]) * e.x(v_[0]) + e.x(v_[1]) * e.x(v_[1]) - 0.25);
    e.set(eq_[5], in_blow_ ? e.x(v_[static_cast<std::size_t>(law_)]) + 0.25 * before_ : e.x(v_[5]));
  }
  void on_event(EventContext& event) override {
    if (event.is_initial()) event.schedule(blow_, 0.1);
    in_blow_ = event.fired(blow_);
    if (!in_blow_) return;
    before_ = event.x(v_[static_cast<std::size_t>(law_)]);
    event.impulse(v_[static_cast<std::size_t>(marked_)]);
  }

 private:
  int marked_, law_;
  std::vector<Var> v_;
  std::vector<Eq> eq_;
  TimeEvent blow_;
  bool in_blow_ = false;
  double before_ = 0.0;
};

SimulationResult blow(int marked, int law) {
  IndexReducedModel model(std::make_unique<Blow>(marked, law));
  return simulate(model, accurate(0.2));
}

/// A double pendulum in Cartesian coordinates (unit masses, rods of 0.5 m, index 3) whose
/// lower bob strikes the wall x = 0.2 with restitution e: the wall's force Fc an impact
/// source, the rods' forces F1, F2 unknowns of the model.
class DoubleAgainstWall final : public PhysicsModelOf<DoubleAgainstWall> {
 public:
  explicit DoubleAgainstWall(double e) : PhysicsModelOf("double_against_wall"), e_(e) {
    x1_ = declare_variable({.name = "x1", .start = 0.5, .nominal = 1});
    y1_ = declare_variable({.name = "y1", .start = 0.0, .nominal = 1});
    x2_ = declare_variable({.name = "x2", .start = 1.0, .nominal = 1});
    y2_ = declare_variable({.name = "y2", .start = 0.0, .nominal = 1});
    vx1_ = declare_variable({.name = "vx1"});
    vy1_ = declare_variable({.name = "vy1"});
    vx2_ = declare_variable({.name = "vx2"});
    vy2_ = declare_variable({.name = "vy2"});
    F1_ = declare_variable({.name = "F1", .nominal = 10});
    F2_ = declare_variable({.name = "F2", .nominal = 10});
    Fc_ = declare_variable({.name = "Fc", .nominal = 10});
    for (const char* n :
         {"k1", "k2", "k3", "k4", "m1x", "m1y", "m2x", "m2y", "rod1", "rod2", "contact"})
      eq_.push_back(declare_equation(n));
    wall_ = declare_crossing("x2 < 0.2", CrossingDirection::kRising, 1.0);
    energy_ = declare_output("energy", "J");
  }
  template <class S>
  void residuals(Equations<S>& e) const {
    const S& x1 = e.x(x1_);
    const S& y1 = e.x(y1_);
    const S& x2 = e.x(x2_);
    const S& y2 = e.x(y2_);
    const S& F1 = e.x(F1_);
    const S& F2 = e.x(F2_);
    const S& Fc = e.x(Fc_);
    e.negative(wall_, x2 - 0.2);
    e.set(eq_[0], e.der(x1_) - e.x(vx1_));
    e.set(eq_[1], e.der(y1_) - e.x(vy1_));
    e.set(eq_[2], e.der(x2_) - e.x(vx2_));
    e.set(eq_[3], e.der(y2_) - e.x(vy2_));
    S dx = x2 - x1, dy = y2 - y1;
    e.set(eq_[4], e.der(vx1_) + F1 * x1 / 0.5 - F2 * dx / 0.5);
    e.set(eq_[5], e.der(vy1_) + F1 * y1 / 0.5 - F2 * dy / 0.5 + 9.81);
    e.set(eq_[6], e.der(vx2_) + F2 * dx / 0.5 - Fc);
    e.set(eq_[7], e.der(vy2_) + F2 * dy / 0.5 + 9.81);
    e.set(eq_[8], x1 * x1 + y1 * y1 - 0.25);
    e.set(eq_[9], dx * dx + dy * dy - 0.25);
    e.set(eq_[10], impact_ ? e.x(vx2_) + e_ * before_ : Fc);
  }
  void on_event(EventContext& ev) override {
    if (impact_) {
      impact_ = false;
      return;
    }
    if (ev.rose(wall_) && ev.x(vx2_) < 0) {
      impact_ = true;
      before_ = ev.x(vx2_);
      ev.impulse(Fc_);
      ++impacts;
    }
  }
  void outputs(Evaluation& e) const override {
    double k = 0.5 * (e.x(vx1_) * e.x(vx1_) + e.x(vy1_) * e.x(vy1_) + e.x(vx2_) * e.x(vx2_) +
                      e.x(vy2_) * e.x(vy2_));
    e.set(energy_, k + 9.81 * (e.x(y1_) + e.x(y2_)));
  }
  int impacts = 0;

 private:
  double e_;
  bool impact_ = false;
  double before_ = 0;
  Var x1_, y1_, x2_, y2_, vx1_, vy1_, vx2_, vy2_, F1_, F2_, Fc_;
  std::vector<Eq> eq_;
  Crossing wall_;
  Out energy_;
};
/// The message of the error the run with the blow ends in ("" when it succeeds).
std::string blow_error(int marked, int law) {
  try {
    const SimulationResult r = blow(marked, law);
    return r.status.ok() ? "" : r.status.message;
  } catch (const std::exception& e) {
    return e.what();
  }
}

double jump_after(const EventRecord& e, const std::string& variable) {
  for (const JumpRecord& j : e.jumps) {
    if (j.variable == variable) return j.after;
  }
  FAIL("no jump of " << variable << " at t = " << e.t);
  return 0.0;
}

}  // namespace

TEST_CASE("the wall pendulum under its pivot strikes at the quarter period and loses e^2") {
  const models::WallPendulumParameters p;  // L = 0.5 m, m = 1 kg, e = 0.5, wall at x = 0
  auto model = models::make_wall_pendulum(p);
  const SimulationResult r = simulate(*model, accurate(1.2));
  REQUIRE(r.status.ok());
  const auto found = impacts(r);
  REQUIRE(found.size() == 2);
  const double L = p.length_m, g = p.gravity_mps2, m = p.mass_kg, e = p.restitution;

  const double t1 = period(kPi / 2.0, L, g) / 4.0;
  CHECK(found[0]->t == doctest::Approx(t1).epsilon(1e-7));
  const double v_minus = -std::sqrt(2.0 * g * L);  // at the bottom, moving towards the wall
  CHECK(jump_after(*found[0], "vx") == doctest::Approx(-e * v_minus).epsilon(1e-7));
  CHECK(impulse_of(*found[0], "Fc") == doctest::Approx(m * (1.0 + e) * -v_minus).epsilon(1e-7));
  // The wall's impulse is perpendicular to the rod there: the rod takes none.
  CHECK(std::abs(impulse_of(*found[0], "F")) < 1e-7 * m * -v_minus);
  // The names the event log gives are the model's: the contact force and the rod force.
  CHECK(found[0]->impulses.size() == 2);

  const double theta1 = std::acos(1.0 - e * e);
  CHECK(found[1]->t == doctest::Approx(t1 + period(theta1, L, g) / 2.0).epsilon(1e-7));
  CHECK(jump_after(*found[1], "vx") == doctest::Approx(e * e * -v_minus).epsilon(1e-6));

  // Between and after the impacts the rod and its hidden constraint hold, and the energy is
  // what the first impact left: e^2 of the kinetic energy m g L at the bottom.
  const auto& t = r.table.time();
  const auto x = r.table.column("x"), y = r.table.column("y");
  const auto vx = r.table.column("vx"), vy = r.table.column("vy");
  const auto energy = r.table.column("energy");
  for (std::size_t k = 0; k < t.size(); ++k) {
    CHECK(std::abs(x[k] * x[k] + y[k] * y[k] - L * L) < 1e-8 * L * L);
    CHECK(std::abs(x[k] * vx[k] + y[k] * vy[k]) < 1e-7 * L * std::sqrt(g * L));
    if (t[k] > found[0]->t && t[k] < found[1]->t) {
      CHECK(energy[k] == doctest::Approx(m * g * L * (e * e - 1.0)).epsilon(1e-6));
    }
  }
}

TEST_CASE("the wall pendulum beside its pivot: the rod takes an impulse of its own") {
  models::WallPendulumParameters p;
  const double L = p.length_m, g = p.gravity_mps2, m = p.mass_kg, e = p.restitution;
  const double theta = -kPi / 6.0;  // the wall at x = L sin(-30 degrees)
  p.wall_x_m = L * std::sin(theta);
  auto model = models::make_wall_pendulum(p);
  const double stop = 0.9;
  const SimulationResult r = simulate(*model, accurate(stop));
  REQUIRE(r.status.ok());
  const auto found = impacts(r);
  REQUIRE(!found.empty());
  const EventRecord& hit = *found.front();

  const double w_minus = -std::sqrt(2.0 * g / L * std::cos(theta));
  const double dw = -(1.0 + e) * w_minus;
  CHECK(impulse_of(hit, "Fc") == doctest::Approx(m * L * dw / std::cos(theta)).epsilon(1e-7));
  CHECK(impulse_of(hit, "F") == doctest::Approx(m * L * dw * std::tan(theta)).epsilon(1e-7));
  CHECK(jump_after(hit, "vx") == doctest::Approx(-e * L * w_minus * std::cos(theta)).epsilon(1e-7));

  // After the impact the motion is the angle pendulum's, restarted there with -e omega-.
  models::PendulumParameters pp;
  pp.length_m = L;
  pp.mass_kg = m;
  pp.damping_nms = 0.0;
  pp.gravity_mps2 = g;
  pp.phi0_rad = theta;
  pp.w0_radps = -e * w_minus;
  const auto& t = r.table.time();
  const auto phi = r.table.column("phi");
  const double next = found.size() > 1 ? found[1]->t : stop;
  int compared = 0;
  for (std::size_t k = 0; k < t.size(); k += 7) {
    if (t[k] <= hit.t + 0.01 || t[k] >= next) continue;
    models::Pendulum angle(pp);
    SimulationOptions o = accurate(t[k]);
    o.start_s = hit.t;
    o.output_interval_s = t[k] - hit.t;
    const SimulationResult a = simulate(angle, o);
    REQUIRE(a.status.ok());
    CHECK(phi[k] == doctest::Approx(a.table.final_value("phi")).epsilon(1e-6));
    ++compared;
  }
  CHECK(compared >= 3);
}

TEST_CASE("a blow in a reduced model: a source that is no force and a law on a position") {
  constexpr int x = 0, vx = 2, F = 4, Fc = 5;
  // The blow as meant: Fc is the source, the law is on vx.
  const SimulationResult ok = blow(Fc, vx);
  REQUIRE(ok.status.ok());
  const auto found = impacts(ok);
  REQUIRE(found.size() == 1);
  CHECK(jump_after(*found[0], "vx") == doctest::Approx(-0.25 * [&] {
          for (const JumpRecord& j : found[0]->jumps) {
            if (j.variable == "vx") return j.before;
          }
          return 0.0;
        }()));
  // A velocity marked as source would need the derivative of a Dirac in its derivative.
  const std::string velocity = blow_error(vx, vx);
  CHECK(velocity.find("impact at t = 0.1: the impulse of vx would give vx' the derivative of a "
                      "Dirac impulse") != std::string::npos);
  // A law on a position: positions do not jump, so the jump has one equation too few.
  const std::string position = blow_error(Fc, x);
  CHECK(position.find("4 unknowns {vx, vy, F, Fc} but 3 equations") != std::string::npos);
  // The rod force as the only source: the contact force, which the law needs, carries none.
  const std::string rod = blow_error(F, vx);
  CHECK(rod.find("3 unknowns {vx, vy, F} but 4 equations") != std::string::npos);
  CHECK(rod.find("is every force that acts at the impact marked as a source?") !=
        std::string::npos);
}

TEST_CASE("an elastic impact of the wall pendulum keeps its energy, the rod's impulse included") {
  // e = 1 beside the pivot: the wall reverses the velocity's x part, the rod takes the part
  // along it, and the kinetic energy (m L^2 omega^2 / 2, omega+ = -omega-) is the same after.
  // The midpoint rule integrates quadratic invariants exactly, so only the solves' tolerance
  // and the integration's error show.
  models::WallPendulumParameters p;
  p.restitution = 1.0;
  p.wall_x_m = -0.25;
  auto model = models::make_wall_pendulum(p);
  const SimulationResult r = simulate(*model, accurate(0.9));
  REQUIRE(r.status.ok());
  const auto found = impacts(r);
  REQUIRE(!found.empty());
  const auto& t = r.table.time();
  const auto energy = r.table.column("energy");
  std::size_t right = 0;
  for (std::size_t k = 1; k < t.size(); ++k) {
    if (t[k] == found[0]->t && t[k - 1] == found[0]->t) right = k;
  }
  REQUIRE(right > 0);
  const double scale = p.mass_kg * p.gravity_mps2 * p.length_m;
  CHECK(std::abs(energy[right] - energy[right - 1]) < 1e-9 * scale);
  CHECK(std::abs(energy[right]) < 1e-6 * scale);  // released at rest at the pivot's height
  CHECK(impulse_of(*found[0], "F") < 0.0);        // the rod pushes: the wall is beside the pivot
}

TEST_CASE("elastic impacts of a double pendulum keep its energy, both rods taking impulses") {
  // e = 1: the midpoint rule keeps the kinetic energy through each impact (a quadratic
  // invariant of the jump), so the energy changes only by the integration's error; the
  // impulse reaches the upper bob through the lower rod, and the pivot through the upper.
  auto original = std::make_unique<DoubleAgainstWall>(1.0);
  const DoubleAgainstWall& bobs = *original;
  IndexReducedModel model(std::move(original));
  SimulationOptions o = accurate(3.0);
  o.rel_tol = 1e-9;
  o.step_to_outputs = true;
  const SimulationResult r = simulate(model, o);
  REQUIRE(r.status.ok());
  CHECK(bobs.impacts >= 2);
  const auto& t = r.table.time();
  const auto energy = r.table.column("energy");
  const double scale = 9.81 * 1.0;  // m g L of the pair
  for (std::size_t k = 0; k < t.size(); ++k) {
    CHECK(std::abs(energy[k] - energy[0]) < 1e-6 * scale);
    if (k > 0 && t[k] == t[k - 1]) CHECK(std::abs(energy[k] - energy[k - 1]) < 1e-9 * scale);
  }
  for (const EventRecord* e : impacts(r)) {
    CHECK(e->impulses.size() == 3);
    CHECK(impulse_of(*e, "Fc") > 0.0);  // the wall pushes the bob away
    CHECK(std::abs(impulse_of(*e, "F1")) > 0.1);
    CHECK(std::abs(impulse_of(*e, "F2")) > 0.1);
  }
}
