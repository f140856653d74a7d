// A model whose number of unknowns changes at events (EventContext::unknowns_changed): two carts
// that couple and part again, checked against the closed-form motion of each phase.
#include <cmath>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/model.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

struct CartParameters {
  double m1 = 2.0;       ///< kg, the driven cart
  double m2 = 3.0;       ///< kg
  double force = 1.5;    ///< N on cart 1: driving until the carts part, braking after
  double v0 = 1.0;       ///< m/s, cart 1 at t = 0
  double gap = 0.5;      ///< m, cart 2's start position (cart 1 starts at 0)
  double t_apart = 2.0;  ///< s, the coupler opens
};

/// Cart 1 (m1, driven by a constant force) runs into cart 2 (m2, at rest). The coupler latches
/// when the gap closes, a plastic impact that keeps the momentum, and the pair is one body
/// whose unknowns are cart 1's (x1, v1) alone. At t_apart the coupler opens: cart 2 rolls on
/// at the pair's speed, its unknowns back with the values of cart 1, and cart 1 brakes with the
/// same force. The output p is the momentum.
class CouplingCarts final : public SimulationModel {
 public:
  enum class Misuse { kNone, kExtraCrossing, kShortCarryList };

  explicit CouplingCarts(CartParameters p = {}, Misuse misuse = Misuse::kNone)
      : p_(p), misuse_(misuse) {
    free_ = body_structure(true);
    coupled_ = body_structure(false);
    if (misuse_ == Misuse::kExtraCrossing) coupled_.crossings.push_back({.name = "extra"});
  }

  [[nodiscard]] const ModelStructure& structure() const override {
    return coupled_now_ ? coupled_ : free_;
  }

  void evaluate(Evaluation& e) override {
    const double m = coupled_now_ ? p_.m1 + p_.m2 : p_.m1;
    const double f = braking_ ? -p_.force : p_.force;
    e.set(Eq{0}, e.der(Var{0}) - e.x(Var{1}));
    e.set(Eq{1}, m * e.der(Var{1}) - f);
    double momentum = m * e.x(Var{1});
    if (coupled_now_) {
      e.negative(Crossing{0}, -1.0);  // no gap while coupled: the crossing stays quiet
    } else {
      e.set(Eq{2}, e.der(Var{2}) - e.x(Var{3}));
      e.set(Eq{3}, p_.m2 * e.der(Var{3}));
      e.negative(Crossing{0}, e.x(Var{2}) - e.x(Var{0}));
      momentum += p_.m2 * e.x(Var{3});
    }
    if (misuse_ == Misuse::kExtraCrossing && coupled_now_) e.positive(Crossing{1}, 1.0);
    e.set(Out{0}, momentum);
  }

  void on_event(EventContext& event) override {
    if (event.is_initial()) {
      if (event.pass() == 1) event.schedule(TimeEvent{0}, p_.t_apart);
      return;
    }
    if (!coupled_now_ && !braking_ && event.rose(Crossing{0})) {
      // Plastic impact: the pair moves on with the momentum of both carts.
      const double v = (p_.m1 * event.x(Var{1}) + p_.m2 * event.x(Var{3})) / (p_.m1 + p_.m2);
      event.set(Var{1}, v);
      coupled_now_ = true;
      std::vector<std::size_t> previous = carried_unknowns(free_.variables, coupled_.variables);
      if (misuse_ == Misuse::kShortCarryList) previous.pop_back();
      event.unknowns_changed(previous);
    } else if (coupled_now_ && event.fired(TimeEvent{0})) {
      // Cart 2 takes cart 1's position and speed at the instant the coupler opens.
      free_.variables.set_start(2, event.x(Var{0}));
      free_.variables.set_start(3, event.x(Var{1}));
      coupled_now_ = false;
      braking_ = true;
      event.unknowns_changed(carried_unknowns(coupled_.variables, free_.variables));
    }
  }

  void reset() override {
    coupled_now_ = false;
    braking_ = false;
    free_ = body_structure(true);
  }

 private:
  [[nodiscard]] ModelStructure body_structure(bool two_carts) const {
    ModelStructure s;
    s.name = "coupling_carts";
    s.variables.add({.name = "x1", .start = 0.0});
    s.variables.add({.name = "v1", .start = p_.v0});
    s.equations.add({"der(x1) = v1", RowKind::kDifferential});
    s.equations.add(
        {two_carts ? "m1*der(v1) = f" : "(m1 + m2)*der(v1) = f", RowKind::kDifferential});
    if (two_carts) {
      s.variables.add({.name = "x2", .start = p_.gap});
      s.variables.add({.name = "v2", .start = 0.0});
      s.equations.add({"der(x2) = v2", RowKind::kDifferential});
      s.equations.add({"m2*der(v2) = 0", RowKind::kDifferential});
    }
    // "contact": x1 - x2 reaching 0 from below (the gap closing).
    s.crossings.push_back({.name = "contact"});
    s.time_events.push_back({.name = "apart"});
    s.outputs.push_back({.name = "p", .unit = "kg*m/s"});
    return s;
  }

  CartParameters p_;
  Misuse misuse_;
  ModelStructure free_;
  ModelStructure coupled_;
  bool coupled_now_ = false;
  bool braking_ = false;
};

/// The closed-form motion (constant accelerations between the events).
struct CartMotion {
  CartParameters p;
  double t_contact, v_contact, v_coupled, x_apart, v_apart;

  explicit CartMotion(CartParameters q) : p(q) {
    const double a1 = p.force / p.m1;
    // v0 t + a1 t^2 / 2 = gap
    t_contact = (-p.v0 + std::sqrt(p.v0 * p.v0 + 2.0 * a1 * p.gap)) / a1;
    v_contact = p.v0 + a1 * t_contact;
    v_coupled = p.m1 * v_contact / (p.m1 + p.m2);
    const double a = p.force / (p.m1 + p.m2);
    const double dt = p.t_apart - t_contact;
    x_apart = p.gap + v_coupled * dt + 0.5 * a * dt * dt;
    v_apart = v_coupled + a * dt;
  }
  /// Cart 1's position at t.
  [[nodiscard]] double x1(double t) const {
    if (t <= t_contact) return p.v0 * t + 0.5 * p.force / p.m1 * t * t;
    if (t <= p.t_apart) {
      const double s = t - t_contact;
      return p.gap + v_coupled * s + 0.5 * p.force / (p.m1 + p.m2) * s * s;
    }
    const double s = t - p.t_apart;
    return x_apart + v_apart * s - 0.5 * p.force / p.m1 * s * s;
  }
  /// Cart 2's position at t (NaN while coupled: it has no unknowns then).
  [[nodiscard]] double x2(double t) const {
    if (t < t_contact) return p.gap;
    if (t < p.t_apart) return std::numeric_limits<double>::quiet_NaN();
    return x_apart + v_apart * (t - p.t_apart);
  }
};

SimulationOptions cart_options() {
  SimulationOptions o;
  o.stop_s = 3.0;
  o.rel_tol = 1e-9;
  o.output_interval_s = 0.05;
  return o;
}

const EventRecord* event_at(const SimulationResult& r, EventKind kind) {
  for (const EventRecord& e : r.events) {
    if (e.kind == kind) return &e;
  }
  return nullptr;
}

/// The message a run that fails ends with (thrown, or in its status).
std::string failure_message(CouplingCarts& model) {
  try {
    return simulate(model, cart_options()).status.message;
  } catch (const std::exception& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE(
    "carts that couple and part: the unknowns change and each phase follows its closed form") {
  const CartParameters p;
  const CartMotion exact(p);
  CouplingCarts model(p);
  const SimulationResult r = simulate(model, cart_options());
  REQUIRE(r.status.ok());

  // The contact: located where the closed form closes the gap, v1 jumps to the pair's speed.
  // Tolerances: the motion is piecewise quadratic, which BDF of order >= 2 follows to its
  // Newton tolerance, far below rel_tol 1e-9; 1e-8 for the root (IDA's root search is exact to
  // round-off on the interpolant, whose error is of order rel_tol) and 1e-7, a hundred
  // tolerances, for values that carry the root's error through the impact and 3 s of motion.
  const EventRecord* contact = event_at(r, EventKind::kState);
  REQUIRE(contact != nullptr);
  CHECK(contact->t == doctest::Approx(exact.t_contact).epsilon(1e-8));
  CHECK(contact->note.find("unknowns changed from 4 to 2") != std::string::npos);
  REQUIRE(contact->jumps.size() == 1);
  CHECK(contact->jumps[0].variable == "v1");
  CHECK(contact->jumps[0].before == doctest::Approx(exact.v_contact).epsilon(1e-7));
  CHECK(contact->jumps[0].after == doctest::Approx(exact.v_coupled).epsilon(1e-7));
  const EventRecord* apart = event_at(r, EventKind::kTime);
  REQUIRE(apart != nullptr);
  CHECK(apart->note.find("unknowns changed from 2 to 4") != std::string::npos);
  CHECK(apart->jumps.empty());  // x2 and v2 are new there: they have no value before

  // The result keeps the start's columns; cart 2's are NaN while it has no unknowns.
  const ResultTable& t = r.table;
  const std::size_t x1 = t.column_index("x1");
  const std::size_t x2 = t.column_index("x2");
  const std::size_t momentum = t.column_index("p");
  CHECK(t.num_columns() == 9);  // x1 v1 x2 v2, their derivatives, p
  int coupled_rows = 0;
  int apart_rows = 0;
  for (std::size_t k = 0; k < t.num_rows(); ++k) {
    const double time = t.time(k);
    CHECK(t.value(k, x1) == doctest::Approx(exact.x1(time)).epsilon(1e-7));
    const bool coupled = time > exact.t_contact + 1e-6 && time < p.t_apart - 1e-6;
    if (coupled) {
      ++coupled_rows;
      CHECK(std::isnan(t.value(k, x2)));
      // Momentum grows by the force's impulse from the impact on: F (t - t_c) (the impact
      // keeps it).
      CHECK(t.value(k, momentum) ==
            doctest::Approx(p.m1 * exact.v_contact + p.force * (time - exact.t_contact))
                .epsilon(1e-7));
    }
    if (time > p.t_apart + 1e-6) {
      ++apart_rows;
      CHECK(t.value(k, x2) == doctest::Approx(exact.x2(time)).epsilon(1e-7));
    }
  }
  CHECK(coupled_rows > 20);
  CHECK(apart_rows > 10);
  CHECK(r.statistics.steps > 0);
  CHECK(r.statistics.restarts >= 3);

  // The same model runs again from its start structure (reset() restores it): the same
  // arithmetic, so the same rows to round-off (1e-12).
  const SimulationResult again = simulate(model, cart_options());
  REQUIRE(again.status.ok());
  CHECK(again.table.num_rows() == t.num_rows());
  CHECK(again.table.final_value("x2") == doctest::Approx(t.final_value("x2")).epsilon(1e-12));
}

TEST_CASE("a change of unknowns that breaks the run's crossings or its carry list is named") {
  SUBCASE("other crossings") {
    CouplingCarts model({}, CouplingCarts::Misuse::kExtraCrossing);
    const std::string message = failure_message(model);
    CHECK(message.find("2 crossings instead of 1") != std::string::npos);
    CHECK(message.find("stay those it started with") != std::string::npos);
  }
  SUBCASE("a carry list shorter than the new unknowns") {
    CouplingCarts model({}, CouplingCarts::Misuse::kShortCarryList);
    CHECK(failure_message(model).find("it declares 2 unknowns but unknowns_changed lists 1") !=
          std::string::npos);
  }
}
