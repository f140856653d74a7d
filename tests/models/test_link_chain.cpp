// The chain of N rigid links (models/link_chain.hpp), index 3 and reduced by the engine: one
// link is the Cartesian pendulum and two the Cartesian double pendulum, whatever the chain's
// own names and nominals; ten and fifty links keep their energy and their rods, and fifty
// (a selection judged by blocks) keep their dummy derivatives well conditioned; bad parameters
// are rejected by name.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/index_reduction.hpp"
#include "hdae/models/cartesian_pendulum.hpp"
#include "hdae/models/double_pendulum.hpp"
#include "hdae/models/link_chain.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

constexpr double kRelTol = 1e-8;
constexpr double kGridS = 0.01;

/// 1 s at kRelTol. Rows at IDA's steps and a tighter Newton test, as in
/// test_double_pendulum.cpp: the rods then hold on every row to the Newton tolerance.
SimulationOptions accurate() {
  SimulationOptions o;
  o.stop_s = 1.0;
  o.rel_tol = kRelTol;
  o.output_interval_s = kGridS;
  o.step_to_outputs = true;
  o.nonlinear_convergence_coef = 0.01;
  return o;
}

/// The rows on the output grid: at a re-selection of the states (an event, two rows at one
/// time) the right limit; event rows between grid times left out. Both runs of a comparison
/// have the same grid, so their k-th grid rows are at the same time.
std::vector<std::size_t> grid_rows(const ResultTable& t) {
  std::vector<std::size_t> rows;
  for (std::size_t k = 0; k < t.num_rows(); ++k) {
    if (k + 1 < t.num_rows() && t.time(k + 1) == t.time(k)) continue;  // left limit
    const double grid = std::round(t.time(k) / kGridS) * kGridS;
    if (std::abs(t.time(k) - grid) <= 1e-12) rows.push_back(k);
  }
  return rows;
}

/// max over the grid of |a[column_a] - b[column_b]| for each pair of columns.
double worst_difference(const SimulationResult& a, const SimulationResult& b,
                        const std::vector<std::pair<std::string, std::string>>& columns) {
  const std::vector<std::size_t> rows_a = grid_rows(a.table);
  const std::vector<std::size_t> rows_b = grid_rows(b.table);
  REQUIRE(rows_a.size() == 101);  // 0, 0.01, ..., 1 s
  REQUIRE(rows_b.size() == rows_a.size());
  double worst = 0.0;
  for (const auto& [name_a, name_b] : columns) {
    const std::size_t ca = a.table.column_index(name_a);
    const std::size_t cb = b.table.column_index(name_b);
    for (std::size_t k = 0; k < rows_a.size(); ++k) {
      CHECK(a.table.time(rows_a[k]) == b.table.time(rows_b[k]));
      worst =
          std::max(worst, std::abs(a.table.value(rows_a[k], ca) - b.table.value(rows_b[k], cb)));
    }
  }
  return worst;
}

double max_abs(const std::vector<double>& values) {
  double worst = 0.0;
  for (const double v : values) worst = std::max(worst, std::abs(v));
  return worst;
}

}  // namespace

TEST_CASE("a chain of one link moves as the Cartesian pendulum released from the horizontal") {
  const models::LinkChainParameters chain_p{.links = 1, .length_m = 0.5, .mass_kg = 2.0};
  const models::CartesianPendulumParameters pendulum_p{.length_m = 0.5,
                                                       .mass_kg = 2.0,
                                                       .damping_nms = 0.0,
                                                       .gravity_mps2 = chain_p.gravity_mps2,
                                                       .x_start_m = 0.5,
                                                       .y_start_m = 0.0};
  auto chain = models::make_link_chain(chain_p);
  auto pendulum = models::make_cartesian_pendulum(pendulum_p);
  const SimulationResult c = simulate(*chain, accurate());
  const SimulationResult p = simulate(*pendulum, accurate());
  REQUIRE(c.status.ok());
  REQUIRE(p.status.ok());
  const double worst = worst_difference(c, p, {{"x[1]", "x"}, {"y[1]", "y"}});
  MESSAGE("max |position difference| " << worst << " m");
  // The same equations, integrated with other nominals (so other error weights and steps):
  // each run's global error is a modest multiple of rel_tol times the size of the positions,
  // L. The two forms of the double pendulum agree within 100 rel_tol over 2 s
  // (test_double_pendulum.cpp); the same bound here.
  CHECK(worst <= 100 * kRelTol * chain_p.length_m);
}

TEST_CASE("a chain of two links moves as the Cartesian double pendulum") {
  const models::LinkChainParameters chain_p{.links = 2, .length_m = 0.5, .mass_kg = 1.0};
  // The double pendulum's defaults: L1 = L2 = 0.5 m, m1 = m2 = 1 kg, both rods along +x at rest.
  const models::DoublePendulumParameters double_p;
  REQUIRE(double_p.length1_m == chain_p.length_m);
  REQUIRE(double_p.mass2_kg == chain_p.mass_kg);
  auto chain = models::make_link_chain(chain_p);
  auto pendulum = models::make_double_cartesian_pendulum(double_p);
  const SimulationResult c = simulate(*chain, accurate());
  const SimulationResult p = simulate(*pendulum, accurate());
  REQUIRE(c.status.ok());
  REQUIRE(p.status.ok());
  const double worst =
      worst_difference(c, p, {{"x[1]", "x1"}, {"y[1]", "y1"}, {"x[2]", "x2"}, {"y[2]", "y2"}});
  MESSAGE("max |position difference| " << worst << " m");
  // As for one link: 100 rel_tol of the size of the positions, here the chain's reach 2 L.
  CHECK(worst <= 100 * kRelTol * 2.0 * chain_p.length_m);
}

TEST_CASE("a chain of ten links keeps its energy and every rod's length for 1 s") {
  const models::LinkChainParameters p;  // N = 10, L = 0.1 m, m = 1 kg
  auto chain = models::make_link_chain(p);
  CHECK(chain->analysis().index == 3);
  SimulationOptions o = accurate();
  // 70 unknowns: the sparse path (SimulationOptions::sparse_min_unknowns), whose pattern
  // follows the selected states through the re-selections.
  const SimulationResult r = simulate(*chain, o);
  REQUIRE(r.status.ok());
  // The sparse path (its coloured pattern) and changes of states, each a new pattern.
  CHECK(r.statistics.jacobian_colors > 0);
  CHECK(chain->selection_changes() > 0);
  const double n = static_cast<double>(p.links);
  const double worst_energy = max_abs(r.table.column("energy"));
  const double worst_drift = max_abs(r.table.column("rod_drift"));
  MESSAGE("max |E| " << worst_energy << " J, max rod drift " << worst_drift << ", "
                     << r.statistics.steps << " steps, " << chain->selection_changes()
                     << " re-selections");
  // Released at rest at the pivot's height, E = 0, and without damping the motion conserves
  // it; it drifts by the integration error, as the double pendulum's does by 100 rel_tol of
  // the potential energy the motion exchanges (test_double_pendulum.cpp). Here that is at
  // most the chain hanging straight down: m g L (1 + 2 + ... + N) = m g L N (N + 1) / 2.
  const double energy_scale = p.mass_kg * p.gravity_mps2 * p.length_m * n * (n + 1.0) / 2.0;
  CHECK(worst_energy <= 100 * kRelTol * energy_scale);
  // Each rod holds to the Newton tolerance on every row (every row is a step of IDA): the
  // corrector stops when its update, in the weighted RMS norm over the reduced model's n_r
  // unknowns, is below 0.01 (the convergence coefficient), which leaves a single unknown within
  // 0.01 sqrt(n_r) of its tolerance rel_tol |x| + abs_tol <= 1.01 rel_tol N L (a position is at
  // most the chain's reach N L, its abs_tol 0.01 rel_tol times its nominal N L). A rod whose
  // ends are each off by that is off its squared length by at most 2 L times their sum:
  // |d^2 - L^2| / L^2 <= 4 * 0.01 sqrt(n_r) * 1.01 N rel_tol.
  const double n_r = static_cast<double>(chain->structure().num_unknowns());
  CHECK(worst_drift <= 0.04 * std::sqrt(n_r) * 1.01 * n * kRelTol);
}

TEST_CASE(
    "a chain of 50 links, its selection judged by blocks, keeps every dummy height well "
    "conditioned") {
  // 50 rods make a stage of more than 40 rows: its selection is judged within the diagonal
  // blocks of its block triangular form (reduction/src/block_selection.hpp), one rod each.
  const models::LinkChainParameters p{.links = 50};
  auto chain = models::make_link_chain(p);
  SimulationOptions o = accurate();
  o.stop_s = 1.5;
  const SimulationResult r = simulate(*chain, o);
  REQUIRE(r.status.ok());
  // Released flat, every link's height is a state; the links near the pivot turn steep and
  // hand over to their x in turn.
  CHECK(chain->selection_changes() > 0);
  const double n = static_cast<double>(p.links);
  const double energy_scale = p.mass_kg * p.gravity_mps2 * p.length_m * n * (n + 1.0) / 2.0;
  CHECK(max_abs(r.table.column("energy")) <= 100 * kRelTol * energy_scale);
  const double n_r = static_cast<double>(chain->structure().num_unknowns());
  CHECK(max_abs(r.table.column("rod_drift")) <= 0.04 * std::sqrt(n_r) * 1.01 * n * kRelTol);
  // Rod j is (x_j - x_{j-1})^2 + (y_j - y_{j-1})^2 = L^2. Where y_j is its dummy derivative
  // and x_j a state, the block of rod j is 2 (y_j - y_{j-1}) alone, and exchanging y_j for
  // x_j multiplies its determinant by (x_j - x_{j-1}) / (y_j - y_{j-1}) (Cramer's rule; x and
  // y have the same nominal). The selection changes before that factor exceeds
  // 1 / switch_ratio = 2, so at the last row each rod's dummy component is at least half of
  // its state component (to the root finding's tolerance).
  const std::vector<std::string> states = chain->states();
  const auto is_state = [&states](const std::string& name) {
    return std::find(states.begin(), states.end(), name) != states.end();
  };
  const std::size_t last = r.table.num_rows() - 1;
  double x0 = 0.0, y0 = 0.0;
  for (std::size_t j = 1; j <= p.links; ++j) {
    const std::string x_name = "x[" + std::to_string(j) + "]";
    const std::string y_name = "y[" + std::to_string(j) + "]";
    const double x = r.table.column(x_name)[last], y = r.table.column(y_name)[last];
    REQUIRE(is_state(x_name) != is_state(y_name));  // one coordinate of each link
    const double state = is_state(x_name) ? x - x0 : y - y0;
    const double dummy = is_state(x_name) ? y - y0 : x - x0;
    CHECK(std::abs(dummy) >= 0.5 * (1.0 - 1e-6) * std::abs(state));
    x0 = x, y0 = y;
  }
}

TEST_CASE("the chain's N resizes the model and the reduction runs anew") {
  auto chain = models::make_link_chain({.links = 3});
  CHECK(chain->original().structure().num_unknowns() == 15);
  chain->set_parameter("N", 4.0);
  CHECK(chain->original().structure().num_unknowns() == 20);
  CHECK(chain->original().structure().variables.name(5 * 3 + 4) == "F[4]");
  CHECK(chain->original().structure().equations.name(5 * 3 + 4) ==
        "0 = (x[4] - x[3])^2 + (y[4] - y[3])^2 - L^2");
  const auto& typed = dynamic_cast<const models::LinkChain&>(chain->original());
  CHECK(typed.parameters().links == 4);
  // Four rods on eight coordinates: 4 mechanical degrees of freedom, 8 states.
  CHECK(chain->states().size() == 8);
}

TEST_CASE("the chain rejects N = 0 and L <= 0 by name, in its parameters and by set_parameter") {
  // ParameterInfo's rule (hdae/model.hpp): the value within the declared range; N >= 1 and
  // L > 0 (its lower bound the smallest positive double) as the header says.
  const std::string n_error =
      "model 'link_chain': parameter 'N' (number of links) must be a finite number in [1, "
      "9007199254740992], got 0";
  const std::string l_error =
      "model 'link_chain': parameter 'L' (length of each rod) must be a finite number in "
      "[5e-324, inf] m, got ";
  CHECK_THROWS_WITH_AS((void)models::make_link_chain({.links = 0}), n_error.c_str(), ModelError);
  CHECK_THROWS_WITH_AS((void)models::make_link_chain({.length_m = 0.0}), (l_error + "0").c_str(),
                       ModelError);
  CHECK_THROWS_WITH_AS((void)models::make_link_chain({.length_m = -0.1}),
                       (l_error + "-0.1").c_str(), ModelError);
  auto chain = models::make_link_chain({.links = 2});
  CHECK_THROWS_WITH_AS(chain->set_parameter("N", 0.0), n_error.c_str(), ModelError);
  CHECK_THROWS_WITH_AS(chain->set_parameter("L", 0.0), (l_error + "0").c_str(), ModelError);
  CHECK_THROWS_WITH_AS(chain->set_parameter("L", -0.1), (l_error + "-0.1").c_str(), ModelError);
  CHECK_THROWS_WITH_AS(
      chain->set_parameter("N", 2.5),
      "model 'link_chain': parameter 'N' (number of links) must be an integer, got 2.5",
      ModelError);
  // A rejected value leaves the model as it was.
  CHECK(chain->parameter("N") == 2.0);
  CHECK(chain->parameter("L") == 0.1);
  CHECK(chain->original().structure().num_unknowns() == 10);
}

TEST_CASE("a chain of 60 links finds its start by sparse steps: every mass falls with g") {
  // 60 links: 420 slots of the reduced system, beyond which the consistent start takes sparse
  // minimum-norm steps (hdae/index_reduction.hpp). Released at rest from the horizontal, every
  // rod force is 0 (the header) and each mass starts in free fall: der(vy_i) = -g, der(vx_i) = 0,
  // where the guesses of those slots are 0. The given positions and velocities stay as given.
  const models::LinkChainParameters p{.links = 60};
  auto chain = models::make_link_chain(p);
  REQUIRE(chain->structure().num_unknowns() == 420);
  CHECK(chain->describe().find("moved from") == std::string::npos);
  const ModelStructure& original = chain->original().structure();
  const ModelStructure& reduced = chain->structure();
  double worst_fall = 0.0, worst_force = 0.0, worst_x = 0.0;
  std::size_t falls = 0, forces = 0;
  for (std::size_t j = 0; j < original.num_unknowns(); ++j) {
    const std::string& name = original.variables.name(j);
    const double start = reduced.variables.start(chain->slot(Var{j}, 0).index);
    if (name.rfind("vy", 0) == 0) {
      const double fall = reduced.variables.start(chain->slot(Var{j}, 1).index);
      worst_fall = std::max(worst_fall, std::abs(fall + p.gravity_mps2));
      ++falls;
    } else if (name.rfind("F", 0) == 0) {
      worst_force = std::max(worst_force, std::abs(start));
      ++forces;
    } else if (name.rfind("x", 0) == 0) {
      worst_x = std::max(worst_x, std::abs(start - original.variables.start(j)));
    }
  }
  // Round-off of the accelerations (g) and of the forces (the weights, m g per link, summed
  // along the chain: 60 m g).
  CHECK(worst_fall <= 1e-9 * p.gravity_mps2);
  CHECK(worst_force <= 1e-9 * 60.0 * p.mass_kg * p.gravity_mps2);
  CHECK(worst_x == 0.0);
  CHECK(falls == 60);
  CHECK(forces == 60);
}
