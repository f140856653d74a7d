// SimulationOptions::threads: SUNDIALS' OpenMP N_Vector against the serial one. Both vectors
// hold the same array of doubles and IDA runs the same algorithm on them; the only difference
// is that the OpenMP vector's reductions (the weighted RMS norms of the error test and of the
// Newton iteration, dot products) add two partial sums, one per thread, instead of one running
// sum. Such a sum of n terms differs from the serial one by a few units of round-off. IDA uses
// the norms in tests against thresholds and, when it reduces a step, in the reduction factor
// (h_new = h (2 norm)^(-1/(k+1)), clipped), so as long as no test flips (order change,
// Jacobian update, Newton convergence), the two runs take the same steps and their solutions
// differ by round-off carried along, or not at all.
#include <algorithm>
#include <cmath>
#include <string>
#include <thread>
#include <utility>

#include <doctest/doctest.h>

#include "hdae/models/bouncing_ball.hpp"
#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// Largest |a - b| over every row and column of two tables of the same shape, each column's
/// difference divided by that column's largest magnitude in a (1 where the column is zero).
double max_scaled_difference(const ResultTable& a, const ResultTable& b) {
  REQUIRE(a.num_rows() == b.num_rows());
  REQUIRE(a.num_columns() == b.num_columns());
  double worst = 0.0;
  for (std::size_t c = 0; c < a.num_columns(); ++c) {
    double scale = 0.0;
    for (std::size_t i = 0; i < a.num_rows(); ++i) scale = std::max(scale, std::abs(a.value(i, c)));
    if (scale == 0.0) scale = 1.0;
    for (std::size_t i = 0; i < a.num_rows(); ++i) {
      REQUIRE(a.time(i) == b.time(i));
      worst = std::max(worst, std::abs(a.value(i, c) - b.value(i, c)) / scale);
    }
  }
  return worst;
}

bool bitwise_equal(const ResultTable& a, const ResultTable& b) {
  for (std::size_t i = 0; i < a.num_rows(); ++i) {
    for (std::size_t c = 0; c < a.num_columns(); ++c) {
      if (a.value(i, c) != b.value(i, c)) return false;
    }
  }
  return true;
}

SimulationResult run_chain(std::size_t masses, int threads) {
  models::MassSpringChain model({.masses = masses});
  SimulationOptions options;
  options.stop_s = 10.0;
  options.output_interval_s = 0.5;
  options.rel_tol = 1e-8;
  options.linear_solver = LinearSolverKind::kKlu;
  options.threads = threads;
  return simulate(model, options);
}

}  // namespace

TEST_CASE("the chain with KLU and threads = 2 equals the serial run to round-off") {
  const SimulationResult serial = run_chain(1000, 1);
  const SimulationResult parallel = run_chain(1000, 2);
  REQUIRE(serial.status.outcome == Outcome::kReachedStopTime);
  REQUIRE(parallel.status.outcome == Outcome::kReachedStopTime);
  // Same steps, Newton iterations and Jacobians: no decision of IDA's flipped (file comment).
  CHECK(parallel.statistics.steps == serial.statistics.steps);
  CHECK(parallel.statistics.ida_nni == serial.statistics.ida_nni);
  CHECK(parallel.statistics.jacobian_evaluations == serial.statistics.jacobian_evaluations);
  // Round-off: each norm differs by ~n u = 3000 x 1.1e-16 = 3e-13 relative at worst, which
  // moves a step size by less than that; carried over ~100 steps of a contractive linear system
  // the solutions then agree to 1e-10 of each column's scale, four orders of magnitude below
  // the integration error itself (~100 rel_tol = 1e-6, see the lag test in test_integration).
  // (With SUNDIALS 6.4 the two runs are in fact bit for bit equal here: after a step IDA keeps
  // the step size or doubles it, and compares the norms against thresholds; only a reduction,
  // whose factor is computed from a norm, passes a last-bit difference on. The pulsed chain of
  // hdae-bench-threads, whose steps shrink after every event, differs by ~1e-16.)
  CHECK(max_scaled_difference(serial.table, parallel.table) < 1e-10);
  // Energy balance, independent of either run: at t = 0 it is N k (s0/N)^2 / 2 = 100/2000 J.
  CHECK(parallel.table.column("energy").front() == doctest::Approx(0.05).epsilon(1e-12));
}

TEST_CASE("threads = 0 is the serial vector: bit for bit the run of threads = 1") {
  const SimulationResult one = run_chain(50, 1);
  const SimulationResult zero = run_chain(50, 0);
  REQUIRE(one.status.ok());
  REQUIRE(zero.status.ok());
  CHECK(bitwise_equal(one.table, zero.table));
}

TEST_CASE("threads = 2 with dense LU: the pendulum reaches the published state at t = 10") {
  // Published reference (ModiaMath's pendulum test): phi(10) = 0.120289, w(10) = 0.273965, to
  // 6 digits. The dense path uses IDA's own difference-quotient Jacobian on the OpenMP vectors.
  auto run = [](int threads) {
    models::Pendulum model;
    SimulationOptions options;
    options.stop_s = 10.0;
    options.rel_tol = 1e-8;
    options.linear_solver = LinearSolverKind::kDense;
    options.threads = threads;
    return simulate(model, options);
  };
  const SimulationResult serial = run(1);
  const SimulationResult parallel = run(2);
  REQUIRE(parallel.status.ok());
  CHECK(std::abs(parallel.table.final_value("phi") - 0.120289) < 1e-5);
  CHECK(std::abs(parallel.table.final_value("w") - 0.273965) < 1e-5);
  // Two unknowns: each reduction is a sum of at most two terms, one per thread, added in the
  // same order as the serial loop, so the runs agree to the last bit or nearly.
  CHECK(parallel.statistics.steps == serial.statistics.steps);
  CHECK(max_scaled_difference(serial.table, parallel.table) < 1e-12);
}

TEST_CASE("threads = 2 through events: the bouncing ball's 18 impacts at the serial run's times") {
  // Events restart IDA (IDAReInit) on the same OpenMP vectors and the jump solve writes into
  // them. Impact count from the rebound speeds: e^n v1 < 0.01 m/s first at n = 18
  // (test_state_events.cpp derives it).
  auto run = [](int threads) {
    models::BouncingBall model;
    SimulationOptions options;
    options.stop_s = 5.0;
    options.output_interval_s = 0.01;
    options.rel_tol = 1e-8;
    options.threads = threads;
    return simulate(model, options);
  };
  const SimulationResult serial = run(1);
  const SimulationResult parallel = run(2);
  REQUIRE(parallel.status.outcome == Outcome::kReachedStopTime);
  REQUIRE(parallel.events.size() == serial.events.size());
  std::size_t impacts = 0;
  for (std::size_t k = 0; k < parallel.events.size(); ++k) {
    if (parallel.events[k].kind == EventKind::kState) ++impacts;
    // Two unknowns again (see the pendulum case): round-off at most.
    CHECK(std::abs(parallel.events[k].t - serial.events[k].t) < 1e-12);
  }
  CHECK(impacts == 18);
  CHECK(max_scaled_difference(serial.table, parallel.table) < 1e-12);
}

TEST_CASE("more threads than the machine has are allowed and give the answer to tolerance") {
  // Oversubscribed threads share the cores (slower; options.hpp). With three or more threads
  // OpenMP adds the threads' partial sums in the order they finish, which varies from run to
  // run, and a norm that lands on the other side of one of IDA's thresholds changes the steps
  // from there on (observed here: 2603 against 2794 steps). What is left is the integration
  // error: each run lies within ~100 rel_tol of the signal's scale of the exact solution (see
  // the lag test in test_integration), so within twice that of the other, as in the KLU
  // against dense LU test. Scales: s ~ 1 m, v ~ 1 m/s, f ~ k s0 / N = 1 N, energy 0.5 J.
  const int threads = static_cast<int>(std::max(2U, std::thread::hardware_concurrency())) + 2;
  const SimulationResult serial = run_chain(100, 1);
  const SimulationResult parallel = run_chain(100, threads);
  REQUIRE(parallel.status.outcome == Outcome::kReachedStopTime);
  const std::pair<const char*, double> signals[] = {
      {"s[100]", 1.0}, {"v[50]", 1.0}, {"f[1]", 1.0}, {"energy", 0.5}};
  for (const auto& [name, scale] : signals) {
    CAPTURE(name);
    CHECK(std::abs(serial.table.final_value(name) - parallel.table.final_value(name)) <
          2 * 100 * 1e-8 * scale);
  }
}
