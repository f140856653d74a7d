// The rigid slider crank of index 3 (models/slider_crank.hpp), reduced by the engine, against
// the closed form of its kinematics and against its own constraints.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include <doctest/doctest.h>

#include "hdae/index_reduction.hpp"
#include "hdae/models/slider_crank.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

constexpr double kRelTol = 1e-8;

SimulationOptions accurate(double stop) {
  SimulationOptions o;
  o.stop_s = stop;
  o.rel_tol = kRelTol;
  o.output_interval_s = 0.01;
  // Rows at IDA's steps and a tighter Newton test, as for the Cartesian pendulum: the
  // constraints then hold on every row to the Newton tolerance, not to the interpolation's.
  o.step_to_outputs = true;
  o.nonlinear_convergence_coef = 0.01;
  return o;
}

}  // namespace

TEST_CASE("the reduced slider crank has index 3 and one degree of freedom") {
  auto model = models::make_slider_crank();
  MESSAGE(model->describe());
  // Five coordinates (theta, xA, yA, xB, yB), four position constraints: one mechanical
  // degree of freedom, whose speed the motor row w = omega fixes, so one state.
  CHECK(model->analysis().index == 3);
  CHECK(model->analysis().degrees_of_freedom == 1);
  CHECK(model->states().size() == 1);
  // The start values are the closed form's (consistent): none had to move.
  CHECK(model->describe().find("start value of") == std::string::npos);
}

TEST_CASE("the reduced slider crank follows the closed-form kinematics and keeps its joints") {
  const models::SliderCrankParameters p;
  auto model = models::make_slider_crank(p);
  const double stop = 2.0;  // two turns
  const SimulationResult result = simulate(*model, accurate(stop));
  REQUIRE(result.status.ok());
  const ResultTable& t = result.table;
  const auto theta = t.column("theta");
  const auto xA = t.column("xA");
  const auto yA = t.column("yA");
  const auto xB = t.column("xB");
  const auto yB = t.column("yB");
  const double r = p.crank_length_m;
  const double l = p.rod_length_m;
  double worst_theta = 0.0, worst_slider = 0.0, worst_pin = 0.0, worst_rod = 0.0, worst_guide = 0.0,
         largest_theta = 0.0;
  for (std::size_t i = 0; i < t.num_rows(); ++i) {
    const double exact_theta = p.theta0_rad + p.omega_radps * t.time(i);
    worst_theta = std::max(worst_theta, std::abs(theta[i] - exact_theta));
    largest_theta = std::max(largest_theta, std::abs(exact_theta));
    worst_slider =
        std::max(worst_slider, std::abs(xB[i] - models::slider_crank_slider_x(r, l, exact_theta)));
    worst_pin = std::max({worst_pin, std::abs(xA[i] - r * std::cos(theta[i])),
                          std::abs(yA[i] - r * std::sin(theta[i]))});
    const double dx = xB[i] - xA[i], dy = yB[i] - yA[i];
    worst_rod = std::max(worst_rod, std::abs(dx * dx + dy * dy - l * l));
    worst_guide = std::max(worst_guide, std::abs(yB[i]));
  }
  MESSAGE("rows " << t.num_rows() << ", max |theta error| " << worst_theta << ", max |xB error| "
                  << worst_slider << ", max pin " << worst_pin << ", max rod " << worst_rod
                  << ", max guide " << worst_guide << ", " << model->selection_changes()
                  << " state re-selections");
  CHECK(t.time(t.num_rows() - 1) == stop);
  // theta is integrated from der(theta) = w with the motor row w = omega. BDF reproduces the
  // straight line theta0 + omega t exactly, but w = omega holds only to the Newton tolerance
  // (the rows are solved together with the nonlinear joints), at most a relative rel_tol of
  // omega, which adds up to rel_tol of the angle turned over the run.
  CHECK(worst_theta <= kRelTol * largest_theta);
  // Given theta, the pin, the rod and the guide fix xA, yA, xB, yB: they hold to the Newton
  // tolerance on every row (each row a step of IDA), 0.01 of rel_tol times the size of the
  // unknowns in IDA's root-mean-square norm, so a single one may reach a few times that: the
  // bounds are 0.1 rel_tol of the lengths they measure. The slider's position against the
  // closed form adds theta's error, times |dx_B/dtheta| <= r (1 + r/l).
  CHECK(worst_slider <= kRelTol * (r * (1 + r / l) * largest_theta + 0.1 * l));
  CHECK(worst_pin <= 0.1 * kRelTol * r);
  CHECK(worst_rod <= 0.1 * kRelTol * l * l);
  CHECK(worst_guide <= 0.1 * kRelTol * l);
}
