// Choosing what a run records (SimulationOptions::record_*, results/row_recorder.hpp): columns
// by name, glob and kind, rows by grid decimation or events only, and the errors for a
// selection that names nothing.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/models/bouncing_ball.hpp"
#include "hdae/models/ideal_clutch.hpp"
#include "hdae/simulator.hpp"
#include "results/column_selection.hpp"

using namespace hdae;

namespace {

std::vector<std::string> names_of(const ResultTable& table) {
  std::vector<std::string> names;
  for (const ColumnInfo& c : table.columns()) names.push_back(c.name);
  return names;
}

/// Whether `part` is `whole` with rows left out: every row of part is a row of whole, bit for
/// bit and in the same order.
bool is_row_subset(const ResultTable& part, const ResultTable& whole) {
  std::size_t j = 0;
  for (std::size_t i = 0; i < part.num_rows(); ++i) {
    const auto same = [&](std::size_t k) {
      if (whole.time(k) != part.time(i)) return false;
      const auto a = whole.row(k);
      const auto b = part.row(i);
      return std::equal(a.begin(), a.end(), b.begin(), b.end());
    };
    while (j < whole.num_rows() && !same(j)) ++j;
    if (j == whole.num_rows()) return false;
    ++j;
  }
  return true;
}

SimulationOptions clutch_options() {
  SimulationOptions o;
  o.stop_s = 500.0;
  o.rel_tol = 1e-8;
  return o;
}

}  // namespace

TEST_CASE("glob patterns: '*' any run of characters, '?' one, everything else literal") {
  using detail::glob_match;
  CHECK(glob_match("*.v", "mass1.v"));
  CHECK_FALSE(glob_match("*.v", "mass1.vx"));
  CHECK(glob_match("der(*)", "der(w1)"));
  CHECK_FALSE(glob_match("der(*)", "w1"));
  CHECK(glob_match("w?", "w1"));
  CHECK_FALSE(glob_match("w?", "w12"));
  CHECK(glob_match("a*b*c", "axxbyybzc"));  // the first '*' must give back the first "b"
  CHECK_FALSE(glob_match("a*b*c", "axxbyy"));
  CHECK(glob_match("*", ""));
  CHECK(glob_match("tau", "tau"));
  CHECK_FALSE(glob_match("tau", "tau_int"));
  CHECK_FALSE(glob_match("[ab]", "a"));  // brackets are characters, not a set
}

TEST_CASE("columns chosen by name and glob keep the model's order and the run's values") {
  models::IdealClutch full_model;
  const SimulationResult full = simulate(full_model, clutch_options());
  SimulationOptions o = clutch_options();
  o.record_columns = {"tau", "w*"};
  models::IdealClutch model;
  const SimulationResult r = simulate(model, o);
  REQUIRE(r.status.ok());
  // w1, w2 (states), then tau (the derivative of tau_int, named so by the model).
  CHECK(names_of(r.table) == std::vector<std::string>{"w1", "w2", "tau"});
  REQUIRE(r.table.num_rows() == full.table.num_rows());
  for (const char* name : {"w1", "w2", "tau"}) {
    CHECK(r.table.column(name) == full.table.column(name));
  }
  // The published answer survives the selection: both shafts at 6.4 rad/s after t0
  // (docs/design.md, "The jump solve"; rows 0 and 1 are the two limits at t0).
  CHECK(r.table.value(1, 0) == doctest::Approx(6.4).epsilon(1e-9));
  CHECK(r.table.value(1, 1) == doctest::Approx(6.4).epsilon(1e-9));
}

TEST_CASE("columns chosen by kind, beside a name, hold the outputs the model computes") {
  SimulationOptions o = clutch_options();
  o.record_kinds = {ColumnKind::kOutput};
  o.record_columns = {"w1"};
  models::IdealClutch model;
  const SimulationResult r = simulate(model, o);
  REQUIRE(r.status.ok());
  CHECK(names_of(r.table) == std::vector<std::string>{"w1", "u_C", "i_C", "i_R", "engaged"});
  // The capacitor voltage is u_C = k w1 with k = 0.25 (models/ideal_clutch.hpp), in every row.
  for (std::size_t i = 0; i < r.table.num_rows(); ++i) {
    CHECK(r.table.value(i, 1) == doctest::Approx(0.25 * r.table.value(i, 0)).epsilon(1e-12));
  }
}

TEST_CASE("a pattern or kind that selects nothing is an error naming it and the model") {
  SimulationOptions o = clutch_options();
  o.record_columns = {"w1", "omega*"};
  models::IdealClutch model;
  CHECK_THROWS_WITH_AS(Simulator(model, o),
                       "SimulationOptions::record_columns: \"omega*\" matches no column of model "
                       "'ideal_clutch' (columns: w1, w2, tau_int, der(w1), der(w2), tau, u_C, "
                       "i_C, i_R, engaged)",
                       OptionError);
  models::BouncingBall ball;  // states and derivatives, no outputs
  SimulationOptions ball_options;
  ball_options.record_kinds = {ColumnKind::kOutput};
  CHECK_THROWS_WITH_AS(Simulator(ball, ball_options),
                       "SimulationOptions::record_kinds: model 'bouncing_ball' has no output "
                       "columns",
                       OptionError);
  o.record_columns = {"w1", ""};
  CHECK_THROWS_WITH_AS(o.validate(), "SimulationOptions::record_columns holds an empty name",
                       OptionError);
}

TEST_CASE("row options are validated with the field named") {
  SimulationOptions o;
  o.record_every = 0;
  CHECK_THROWS_WITH_AS(o.validate(),
                       "SimulationOptions::record_every must be >= 1 (1: every output point), "
                       "got 0",
                       OptionError);
  o.record_every = 3;
  o.record_rows = RecordedRows::kEventsOnly;
  CHECK_THROWS_WITH_AS(o.validate(),
                       "SimulationOptions::record_every is 3 but record_rows is kEventsOnly, "
                       "which records no output points to thin out",
                       OptionError);
}

TEST_CASE("events only: the t0 row, both limits at every impact and the last row") {
  SimulationOptions o;
  o.stop_s = 3.0;
  o.rel_tol = 1e-8;
  o.record_rows = RecordedRows::kEventsOnly;
  models::BouncingBall model;
  const SimulationResult r = simulate(model, o);
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  const std::size_t impacts = r.events.size() - 1;  // all but the initial event
  REQUIRE(impacts >= 10);
  CHECK(r.table.num_rows() == 1 + 2 * impacts + 1);
  CHECK(r.table.time(0) == 0.0);
  CHECK(r.table.time(r.table.num_rows() - 1) == 3.0);
  for (std::size_t e = 1; e <= impacts; ++e) {
    CHECK(r.table.time(2 * e - 1) == r.events[e].t);
    CHECK(r.table.time(2 * e) == r.events[e].t);
  }
  // The first impact after a free fall from 1 m: t = sqrt(2 h0 / g) = sqrt(2 / 9.81), where
  // the velocity -g t = -4.4294 m/s becomes 0.7 * 4.4294 m/s (restitution 0.7).
  const double t1 = std::sqrt(2.0 / 9.81);
  CHECK(r.table.time(1) == doctest::Approx(t1).epsilon(1e-7));
  CHECK(r.table.value(1, 1) == doctest::Approx(-9.81 * t1).epsilon(1e-6));
  CHECK(r.table.value(2, 1) == doctest::Approx(0.7 * 9.81 * t1).epsilon(1e-6));
}

TEST_CASE("every K-th output point: a subset of the full rows, with every event row") {
  SimulationOptions o;
  o.stop_s = 3.0;
  o.rel_tol = 1e-8;
  models::BouncingBall full_model;
  const SimulationResult full = simulate(full_model, o);
  o.record_every = 10;
  models::BouncingBall model;
  const SimulationResult r = simulate(model, o);
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  CHECK(is_row_subset(r.table, full.table));
  // The grid is k * 3/500 s; kept are k = 10, 20, ..., 490 (the stop time has its own row),
  // 49 points, none of which falls on an impact, plus t0, both limits of each impact and the
  // row at the stop time.
  const std::size_t impacts = r.events.size() - 1;
  CHECK(r.table.num_rows() == 1 + 49 + 2 * impacts + 1);
  const double dt = 3.0 / 500.0;
  std::size_t grid_rows = 0;
  for (std::size_t i = 1; i + 1 < r.table.num_rows(); ++i) {
    const double t = r.table.time(i);
    const bool at_event = std::any_of(r.events.begin(), r.events.end(),
                                      [&](const EventRecord& e) { return e.t == t; });
    if (at_event) continue;
    ++grid_rows;
    const double k = t / dt;
    CHECK(std::abs(k - 10.0 * std::round(k / 10.0)) < 1e-9);
  }
  CHECK(grid_rows == 49);
}

TEST_CASE("a run sliced into advance_to calls keeps the same decimated rows") {
  SimulationOptions o;
  o.stop_s = 3.0;
  o.rel_tol = 1e-8;
  o.record_every = 7;
  models::BouncingBall one_model;
  const SimulationResult one = simulate(one_model, o);
  models::BouncingBall model;
  Simulator sim(model, o);
  for (int k = 1; k <= 13; ++k) sim.advance_to(3.0 * k / 13.0);
  const SimulationResult sliced = sim.take_result();
  REQUIRE(sliced.table.num_rows() == one.table.num_rows());
  CHECK(is_row_subset(sliced.table, one.table));
}
