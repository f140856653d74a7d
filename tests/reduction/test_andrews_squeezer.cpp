// Andrews' squeezing mechanism (models/include/hdae/models/andrews_squeezer.hpp) against the
// published data of problem "andrews" of the IVP test set (F. Mazzia and C. Magherini, "Test
// Set for IVP Solvers", University of Bari; the same problem as E. Hairer and G. Wanner,
// "Solving Ordinary Differential Equations II", section VII.7): its consistent start and its
// reference solution at t = 0.03 s, computed by PSIDE at rtol = atol = 1e-14.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/index_reduction.hpp"
#include "hdae/jet.hpp"
#include "hdae/models/andrews_squeezer.hpp"
#include "hdae/simulator.hpp"
#include "hdae/structure.hpp"

using namespace hdae;
namespace as = hdae::models::andrews_squeezer;

namespace {

constexpr double kStop = 0.03;

/// The test set's measure of accuracy with atol = rtol: mixed significant correct digits,
/// -log10 max_i |y_i - ref_i| / (1 + |ref_i|).
double mescd(const ResultTable& t) {
  double worst = 0.0;
  for (std::size_t i = 0; i < as::kAngleNames.size(); ++i) {
    const double error = std::abs(t.final_value(as::kAngleNames[i]) - as::kReferenceAngles[i]);
    worst = std::max(worst, error / (1.0 + std::abs(as::kReferenceAngles[i])));
  }
  return -std::log10(worst);
}

SimulationOptions run_to_reference(double rel_tol) {
  SimulationOptions o;
  o.stop_s = kStop;
  o.rel_tol = rel_tol;
  // Rows only at t0 and at the stop time: the test compares the final state.
  o.output_interval_s = kStop;
  return o;
}

std::vector<double> starts(const SimulationModel& m) {
  const std::span<const double> s = m.structure().variables.starts();
  return {s.begin(), s.end()};
}

template <class S>
as::Angles<S> angles(const std::array<double, 7>& values) {
  as::Angles<S> out;
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = values[k];
  return out;
}

}  // namespace

TEST_CASE("Andrews' squeezer: the published consistent start satisfies all twenty rows") {
  // x = (q0, w = 0, lambda0), der(q) = w = 0, der(w) = the published accelerations: the
  // test set's y(0) and y'(0).
  models::AndrewsSqueezer model;
  const std::size_t n = model.structure().num_unknowns();
  REQUIRE(n == 20);
  std::vector<double> x(n, 0.0);
  std::vector<double> der_x(n, 0.0);
  for (std::size_t k = 0; k < 7; ++k) {
    x[model.angle(k).index] = as::kStartAngles[k];
    der_x[model.angular_velocity(k).index] = as::kStartAccelerations[k];
  }
  for (std::size_t i = 0; i < 6; ++i) x[model.joint_force(i).index] = as::kStartJointForces[i];
  std::vector<double> r(n, 1.0);
  Evaluation e(0.0, x, der_x, r, {}, nullptr, EvaluationPhase::kContinuous);
  model.evaluate(e);
  for (std::size_t row = 0; row < n; ++row) {
    CAPTURE(model.structure().equations.name(row));
    // The start is published to 30 digits; in doubles each row is a sum of terms of at most
    // 0.1 m (loop rows) or a few N m (forces of 100 N on levers of 20 to 40 mm; motion rows),
    // so round-off leaves about 1e-16 of that: 1e-14 in either unit is a wide margin.
    CHECK(std::abs(r[row]) <= 1e-14);
  }
}

TEST_CASE("Andrews' squeezer: the hand-written G and g'' are the jets' derivatives of g") {
  // Along the curve q(t) = q0 + w t + a t^2 / 2 the jets differentiate g exactly:
  // d/dt g = G(q) w and d2/dt2 g = G(q) a + g''(q, w), which the index-1 form writes by hand.
  // w and a of the sizes the test set's reference has at 0.03 s.
  const models::AndrewsSqueezerParameters p;
  const std::array<double, 7> w = {900.0, -1100.0, 10.0, 20.0, 0.5, -20.0, 0.3};
  const std::array<double, 7> a = {-2.5e4, 5.2e4, 3.2e5, 5.7e5, 1.7e4, -5.7e5, 9.8e3};
  as::Angles<Jet2> q;
  for (std::size_t k = 0; k < 7; ++k) {
    const std::array<double, 3> d = {as::kStartAngles[k], w[k], a[k]};
    q[k] = Jet2::from_derivatives(d.data());
  }
  const as::Loops<Jet2> g = as::loop_closure(p, as::configuration(p, q));
  const as::Configuration<double> c = as::configuration(p, angles<double>(as::kStartAngles));
  const as::LoopJacobian<double> jacobian = as::loop_jacobian(c);
  const as::Loops<double> first = as::loop_rates(jacobian, angles<double>(w));
  const as::Loops<double> second_a = as::loop_rates(jacobian, angles<double>(a));
  const as::Loops<double> curvature = as::loop_curvature(c, angles<double>(w));
  for (std::size_t i = 0; i < 6; ++i) {
    CAPTURE(i);
    // Terms of up to 0.04 m * 5.7e5 rad/s^2 = 2.3e4 m/s^2 (and 0.028 m * 2000^2 rad^2/s^2 in
    // g''): round-off of 1e-16 relative of 1e5 is 1e-11; 1e-9 leaves room for the sums.
    CHECK(std::abs(g[i].derivative(1) - first[i]) <= 1e-9);
    CHECK(std::abs(g[i].derivative(2) - (second_a[i] + curvature[i])) <= 1e-9);
  }
}

TEST_CASE("Andrews' squeezer reduced by hand has index 1") {
  models::AndrewsSqueezerIndex1 model;
  const std::vector<double> x = starts(model);
  std::vector<double> der_x(x.size(), 0.0);
  for (std::size_t k = 0; k < 7; ++k) {
    der_x[model.angular_velocity(k).index] = as::kStartAccelerations[k];
  }
  const IndexAnalysis a = analyze_index(model, 0.0, x, der_x);
  CAPTURE(a.describe());
  CHECK(a.verdict == IndexVerdict::kRegular);
  CHECK(a.index == 1);
  // 7 angles and 7 angular velocities: the hand reduction keeps every one as a state.
  CHECK(a.degrees_of_freedom == 14);
}

TEST_CASE("Andrews' squeezer reduced by hand reaches the test set's reference at 0.03 s") {
  // The same measure and allowance as the index-3 runs below, at the examples' rel_tol.
  models::AndrewsSqueezerIndex1 model;
  const SimulationResult r = simulate(model, run_to_reference(1e-8));
  REQUIRE(r.status.ok());
  CHECK(r.table.time(r.table.num_rows() - 1) == kStop);
  CHECK(mescd(r.table) >= 8.0 - 2.5);
}

TEST_CASE("Andrews' squeezer of index 3 is reduced to two states and started on its loops") {
  // Offsets by hand: der(q) = w rows c = 1, motion rows c = 0, loop rows c = 2; d = 2 for the
  // angles, 1 for the velocities, 0 for the joint forces. Index 2 + 1 (algebraic lambda) = 3,
  // degrees of freedom 7*2 + 7*1 - (7*1 + 6*2) = 2: the crank's angle and its speed.
  // The published start is consistent, and with beta held the loops fix the other angles
  // near it: from it and from Theta 1e-3 rad off, the consistent start is the published one.
  for (const double theta_offset : {0.0, 1e-3}) {
    CAPTURE(theta_offset);
    const auto model = models::make_andrews_squeezer({.theta_offset_rad = theta_offset});
    CHECK(model->analysis().index == 3);
    CHECK(model->analysis().degrees_of_freedom == 2);
    CHECK(model->states().size() == 2);
    const std::vector<double> x = starts(*model);
    const auto& original = dynamic_cast<const models::AndrewsSqueezer&>(model->original());
    for (std::size_t k = 0; k < 7; ++k) {
      const std::string angle = as::kAngleNames[k];
      CAPTURE(angle);
      // Round-off of the Gauss-Newton steps on loop rows of 0.1 m, with the slope of the
      // loops in the angles about 0.03 m/rad: 1e-12 rad is ample. The steps are scaled by
      // the nominal values (1 rad, 1e3 rad/s): for the velocities at rest round-off is some
      // 1e-15 of 1e3 rad/s, and 1e-11 rad/s leaves a margin.
      CHECK(std::abs(x[model->slot(original.angle(k), 0).index] - as::kStartAngles[k]) <= 1e-12);
      CHECK(std::abs(x[model->slot(original.angular_velocity(k), 0).index]) <= 1e-11);
    }
  }
}

namespace {

/// The runs of the two tests below: at least -log10(rel_tol) - 2.5 correct digits for each
/// tolerance. IDA's test bounds the error of each step, not the error carried to 0.03 s, which
/// grows over the crank's two and a half turns: 2.5 digits is the allowance for that.
void check_reference_runs(double theta_offset) {
  for (const double rel_tol : {1e-6, 1e-8, 1e-10}) {
    CAPTURE(rel_tol);
    const auto model = models::make_andrews_squeezer({.theta_offset_rad = theta_offset});
    const SimulationResult r = simulate(*model, run_to_reference(rel_tol));
    REQUIRE(r.status.ok());
    CHECK(r.table.time(r.table.num_rows() - 1) == kStop);
    CHECK(mescd(r.table) >= -std::log10(rel_tol) - 2.5);
  }
}

}  // namespace

TEST_CASE("Andrews' squeezer of index 3 reaches the test set's reference at 0.03 s") {
  check_reference_runs(0.0);
}

TEST_CASE("Andrews' squeezer of index 3 started with Theta 1e-3 rad off its loops still does") {
  // The consistent start holds beta and brings Theta back onto the loops (the test above
  // checks the start values), so the runs are those of the published start.
  check_reference_runs(1e-3);
}
