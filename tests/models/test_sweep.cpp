// hdae::sweep (hdae/sweep.hpp): points over threads give the runs of the points one by one,
// and a failing point is reported while the others complete.
#include <cmath>
#include <memory>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/models/ideal_clutch.hpp"
#include "hdae/simulator.hpp"
#include "hdae/sweep.hpp"

using namespace hdae;

namespace {

SimulationOptions clutch_options() {
  SimulationOptions o;
  o.stop_s = 50.0;
  o.rel_tol = 1e-8;
  return o;
}

std::unique_ptr<SimulationModel> make_clutch() { return std::make_unique<models::IdealClutch>(); }

}  // namespace

TEST_CASE("a sweep over threads gives each point's own run, bit for bit, and reports a bad point") {
  const std::vector<ParameterPoint> points = {
      {{"J2", 0.3}}, {{"J2", 0.4}}, {{"J2", -1.0}}, {{"J2", 0.5}, {"k", 0.3}}, {{"J2", 0.6}}};
  const auto outcomes = sweep(make_clutch, points, clutch_options(), {"w1", "w2"}, 2);
  REQUIRE(outcomes.size() == points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    CAPTURE(i);
    CHECK(outcomes[i].parameters == points[i]);
    if (i == 2) continue;
    // The runs share nothing, so each equals a run of its point alone (same code, same
    // inputs: equal doubles).
    models::IdealClutch alone;
    for (const auto& [name, value] : points[i]) alone.set_parameter(name, value);
    const SimulationResult r = simulate(alone, clutch_options());
    REQUIRE(outcomes[i].status.outcome == Outcome::kReachedStopTime);
    CHECK(outcomes[i].final_values[0] == r.table.final_value("w1"));
    CHECK(outcomes[i].final_values[1] == r.table.final_value("w2"));
  }
  // J2 must be > 0: the point says so, with the parameter's name; the others ran.
  CHECK(outcomes[2].status.outcome == Outcome::kModelFailure);
  CHECK(outcomes[2].status.message.find("'J2'") != std::string::npos);
  CHECK(std::isnan(outcomes[2].final_values[0]));
}

TEST_CASE("one thread and two threads give the same outcomes, and an unknown column is a failure") {
  const std::vector<ParameterPoint> points = {{{"J2", 0.2}}, {{"J2", 0.8}}, {{"J2", 1.6}}};
  const auto one = sweep(make_clutch, points, clutch_options(), {"w1"}, 1);
  const auto two = sweep(make_clutch, points, clutch_options(), {"w1"}, 2);
  for (std::size_t i = 0; i < points.size(); ++i) {
    CHECK(one[i].final_values == two[i].final_values);
  }
  const auto bad = sweep(make_clutch, {{{"J2", 0.2}}}, clutch_options(), {"no_such_column"}, 1);
  CHECK(bad[0].status.outcome == Outcome::kModelFailure);
  CHECK(bad[0].status.message.find("no_such_column") != std::string::npos);
}
