// The bundled models' run-time parameters: set by name, they change the results as the
// physics says; bad values and names are rejected with messages naming them; the catalog
// builds every model by name with the example's defaults.
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/models/catalog.hpp"
#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/simulator.hpp"
#include "models/event_rows.hpp"
#include "registry/registry.hpp"

using namespace hdae;
using models::testing::events_of_kind;
using models::testing::find_jump;
using models::testing::initial_row;
using models::testing::value;

namespace {

SimulationResult run(SimulationModel& model, double stop_s) {
  SimulationOptions options;
  options.stop_s = stop_s;
  options.rel_tol = 1e-8;
  return simulate(model, options);
}

std::string set_error(SimulationModel& model, const char* name, double value) {
  try {
    model.set_parameter(name, value);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE(
    "ideal clutch with J2 and k set by name: the shared speed after t = 0 conserves "
    "(J1 + k^2 C) w1 + J2 w2") {
  const std::unique_ptr<SimulationModel> clutch = models::make_model("ideal_clutch");
  clutch->set_parameter("J2", 0.5);
  clutch->set_parameter("k", 0.3);
  CHECK(clutch->parameter("J2") == 0.5);
  const SimulationResult r = run(*clutch, 10.0);
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  // By hand: J1 = 0.1, C = 2, so J1 + k^2 C = 0.1 + 0.09 * 2 = 0.28 kg m^2; w1 = 0, w2 = 10:
  // w = (0.28 * 0 + 0.5 * 10) / (0.28 + 0.5) = 5 / 0.78 = 6.41025641... rad/s.
  const double w = 5.0 / 0.78;
  const std::size_t row = initial_row(r.table);
  CHECK(value(r.table, row, "w1") == doctest::Approx(w).epsilon(1e-7));
  CHECK(value(r.table, row, "w2") == doctest::Approx(w).epsilon(1e-7));
}

TEST_CASE("ideal clutch: start values follow w1_start and w2_start") {
  const std::unique_ptr<SimulationModel> clutch = models::make_model("ideal_clutch");
  clutch->set_parameter("w1_start", 4.0);
  clutch->set_parameter("w2_start", 0.0);
  const SimulationResult r = run(*clutch, 1.0);
  CHECK(value(r.table, 0, "w1") == 4.0);  // x^-(t0): the start values themselves
  CHECK(value(r.table, 0, "w2") == 0.0);
  // (0.225 * 4 + 0.4 * 0) / 0.625 = 1.44 rad/s with the default J1 + k^2 C = 0.225.
  CHECK(value(r.table, initial_row(r.table), "w2") == doctest::Approx(1.44).epsilon(1e-7));
}

TEST_CASE("ideal clutch: engage after release is checked on set_parameter, naming both") {
  const std::unique_ptr<SimulationModel> clutch = models::make_model("ideal_clutch");
  CHECK(set_error(*clutch, "release", 300.0) ==
        "model 'ideal_clutch': parameter 'engage' (300 s) must be > parameter 'release' (300 s)");
  CHECK(clutch->parameter("release") == 100.0);  // the rejected value is not kept
  clutch->set_parameter("engage", 500.0);
  clutch->set_parameter("release", 400.0);  // fine once engage moved
  CHECK(clutch->parameter("release") == 400.0);
}

TEST_CASE("bouncing ball with e = 0.5: successive apex heights shrink by e^2") {
  const std::unique_ptr<SimulationModel> ball = models::make_model("bouncing_ball");
  ball->set_parameter("e", 0.5);
  // Impacts at t1 = sqrt(2 / 9.81) = 0.4515 s, then after flights of 2 e^k t1: 0.903, 1.129,
  // 1.242 s (accumulating at 3 t1 = 1.35 s); the first three come before 1.2 s.
  const SimulationResult r = run(*ball, 1.2);
  const auto impacts = events_of_kind(r, EventKind::kState);
  REQUIRE(impacts.size() == 3);
  // The apex after an impact is v+^2 / (2 g) with v+ the rebound speed; flight conserves energy,
  // so the next impact comes at speed v+ and rebounds at e v+: the apex ratio is e^2 = 0.25.
  double previous_apex = 0.0;
  for (std::size_t i = 0; i < 3; ++i) {
    const JumpRecord* v = find_jump(*impacts[i], "v");
    REQUIRE(v != nullptr);
    const double apex = v->after * v->after / (2.0 * 9.81);
    if (i > 0) CHECK(apex / previous_apex == doctest::Approx(0.25).epsilon(1e-5));
    previous_apex = apex;
  }
}

TEST_CASE("bouncing ball on the moon: the first impact comes at sqrt(2 h / g)") {
  const std::unique_ptr<SimulationModel> ball = models::make_model("bouncing_ball");
  ball->set_parameter("g", 1.62);
  ball->set_parameter("h_start", 2.0);
  const SimulationResult r = run(*ball, 2.0);
  const auto impacts = events_of_kind(r, EventKind::kState);
  REQUIRE(impacts.size() == 1);
  // Free fall from rest: h = 2 - g t^2 / 2 = 0 at t = sqrt(4 / 1.62) = 1.5713484 s.
  CHECK(impacts[0]->t == doctest::Approx(std::sqrt(4.0 / 1.62)).epsilon(1e-6));
}

TEST_CASE("a parameter out of its range or an unknown name is rejected by name") {
  const std::unique_ptr<SimulationModel> ball = models::make_model("bouncing_ball");
  CHECK(set_error(*ball, "e", 1.5) ==
        "model 'bouncing_ball': parameter 'e' (coefficient of restitution) must be a finite "
        "number in [0, 1], got 1.5");
  CHECK(set_error(*ball, "restitution", 0.5) ==
        "model 'bouncing_ball' has no parameter 'restitution'; its parameters are: h_start, e, g, "
        "v_rest");
  CHECK(ball->parameter("e") == 0.7);
}

TEST_CASE("mass-spring chain: N is an integer parameter that resizes the model") {
  const std::unique_ptr<SimulationModel> chain = models::make_model("mass_spring_chain");
  CHECK(chain->structure().num_unknowns() == 6000);  // the example's N = 2000
  chain->set_parameter("N", 5.0);
  CHECK(chain->structure().num_unknowns() == 15);
  CHECK(chain->structure().variables.name(14) == "f[5]");
  CHECK(set_error(*chain, "N", 2.5) ==
        "model 'mass_spring_chain': parameter 'N' (number of masses) must be an integer, got 2.5");
  CHECK(chain->structure().num_unknowns() == 15);
  chain->set_parameter("k", 50.0);
  chain->set_parameter("s_end", 0.5);
  const SimulationResult r = run(*chain, 0.1);
  // Uniform stretch at rest: each of the N springs holds s_end / N, so the energy is
  // N k (s_end / N)^2 / 2 = k s_end^2 / (2 N) = 50 * 0.25 / 10 = 1.25 J.
  CHECK(value(r.table, 0, "energy") == doctest::Approx(1.25).epsilon(1e-12));
  const auto& typed = dynamic_cast<const models::MassSpringChain&>(*chain);
  CHECK(typed.parameters().masses == 5);
}

TEST_CASE("mass-spring chain: resized, it declares families of the new size") {
  // Three families of unknowns and of rows, element by element (s[i], v[i], f[i] at 3(i-1),
  // 3(i-1) + 1, 3(i-1) + 2), and eight family dependencies standing for the 8N - 2 entries
  // of the equations (2 in der(s) = v, 3 in the dynamics row, 3 in the spring row; the last
  // mass has no f[N+1] and the first spring no s[0]).
  const std::unique_ptr<SimulationModel> chain = models::make_model("mass_spring_chain");
  chain->set_parameter("N", 7.0);
  const ModelStructure& s = chain->structure();
  CHECK(s.variables.size() == 21);
  CHECK(s.variables.descriptions().size() == 3);
  CHECK(s.equations.descriptions().size() == 3);
  CHECK(s.sparsity.families().size() == 8);
  CHECK(s.variables.name(3 * 6 + 1) == "v[7]");
  CHECK(s.variables.der_name(0) == "der(s[1])");
  CHECK(s.equations.name(3 * 6 + 1) == "m*der(v[7]) = f[8] - f[7] - d*v[7]");
  CHECK(s.equations.name(3 * 0 + 2) == "0 = f[1] - k*(s[1] - s[0])");
  CHECK(s.equations.kind(3 * 2 + 2) == RowKind::kConstraint);
  // The entries, row by row, as the equations read them.
  std::set<std::pair<std::size_t, std::size_t>> expected;
  for (std::size_t i = 0; i < 7; ++i) {
    const std::size_t sv = 3 * i, vv = sv + 1, fv = sv + 2;
    expected.insert({{sv, sv}, {sv, vv}, {vv, vv}, {vv, fv}, {fv, fv}, {fv, sv}});
    if (i + 1 < 7) expected.insert({vv, fv + 3});
    if (i > 0) expected.insert({fv, sv - 3});
  }
  std::vector<std::pair<std::size_t, std::size_t>> declared;
  s.sparsity.for_each([&](std::size_t row, std::size_t col) { declared.emplace_back(row, col); });
  CHECK(declared.size() == 54);
  CHECK(std::set(declared.begin(), declared.end()) == expected);
}

TEST_CASE("pendulum: phi_start and L set by name give the bob's start position") {
  const std::unique_ptr<SimulationModel> pendulum = models::make_model("pendulum");
  pendulum->set_parameter("phi_start", 0.5);
  pendulum->set_parameter("L", 2.0);
  const SimulationResult r = run(*pendulum, 0.1);
  CHECK(value(r.table, 0, "x") == doctest::Approx(2.0 * std::sin(0.5)));  // x = L sin(phi)
  CHECK(value(r.table, 0, "y") == doctest::Approx(-2.0 * std::cos(0.5)));
}

TEST_CASE("colliding masses: the start must leave the masses apart, checked by name") {
  const std::unique_ptr<SimulationModel> masses = models::make_model("colliding_masses");
  CHECK(set_error(*masses, "s2_start", 0.25) ==
        "model 'colliding_masses': the masses must start apart: parameters s2_start - s1_start "
        "must be > d, got s1_start = 0, s2_start = 0.25, d = 0.5");
  masses->set_parameter("e", 1.0);
  const SimulationResult r = run(*masses, 2.0);
  // Elastic impact of equal masses: they exchange velocities, v = (0, 1) m/s afterwards.
  CHECK(r.table.final_value("v1") == doctest::Approx(0.0).epsilon(1e-6));
  CHECK(r.table.final_value("v2") == doctest::Approx(1.0).epsilon(1e-6));
}

TEST_CASE("the catalog builds every model by name with its example's defaults") {
  const auto& catalog = models::catalog();
  REQUIRE(catalog.size() == examples::registry().size());
  for (const models::CatalogEntry& entry : catalog) {
    CAPTURE(entry.name);
    const examples::Example* example = examples::find_example(entry.name);
    REQUIRE(example != nullptr);
    const auto from_catalog = entry.make();
    const auto from_example = example->make_model(examples::default_parameters(*example));
    CHECK(from_catalog->structure().name == entry.name);
    CHECK(from_catalog->structure().num_unknowns() == from_example->structure().num_unknowns());
    const auto& a = from_catalog->structure().parameters;
    const auto& b = from_example->structure().parameters;
    REQUIRE(a.size() == b.size());
    CHECK_FALSE(a.empty());
    for (std::size_t i = 0; i < a.size(); ++i) {
      CHECK(a[i].name == b[i].name);
      CHECK(a[i].value == b[i].value);
      CHECK_FALSE(a[i].description.empty());
    }
  }
  CHECK_THROWS_WITH_AS(static_cast<void>(models::make_model("clutch")),
                       "no bundled model 'clutch'; the models are: pendulum, simple_state_events, "
                       "bouncing_ball, mass_spring_chain, ideal_clutch, colliding_masses, "
                       "colliding_masses_impact, three_masses, three_masses_impact, "
                       "pendulum_dae, cartesian_pendulum, free_body_rotation, "
                       "hydraulic_actuator, transistor_amplifier, iti_example1, iti_example2, "
                       "pid_controller, "
                       "pid_controller_der_substituted, pid_controller_substituted, "
                       "pid_controller_reduced, tank_overflow, andrews_squeezer, slider_crank, "
                       "wall_pendulum, string_pendulum",
                       ModelError);
}
