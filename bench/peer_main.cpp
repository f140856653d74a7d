// hdae-bench-peer: the hdae side of the comparison with SciPy's solve_ivp
// (docs/benchmarks.md, "A peer"; bench/scipy_peer.py is the other side and writes the
// table). Two runs with known answers, at rtol 1e-6 and atol 1e-8 (hdae: abs_tol_factor 0.01
// times rel_tol times nominal 1):
//   pendulum (L = 0.5 m, m = 1 kg, d = 0.1 N m s, phi0 = 60 deg, g = 9.81), 0..10 s, 500
//     output intervals: phi(10) = 0.120289 rad and w(10) = 0.273965 rad/s are the published
//     values (ModiaMath's pendulum test);
//   bouncing ball (h0 = 1 m, e = 0.7, g = 9.81, at rest once the rebound speed is below
//     0.01 m/s), 0..3 s: impact k at t_k = t1 (1 + 2 (e + ... + e^(k-1))), t1 = sqrt(2 h0/g),
//     and the ball comes to rest at impact 18 (e^17 v1 >= 0.01 > e^18 v1 for v1 = g t1).
// Writes "key value" lines to the file given with --out, for the Python script.
//
// Usage: hdae-bench-peer --out FILE [--smoke] [--runs R]
#include <cmath>
#include <fstream>
#include <iostream>
#include <vector>

#include <fmt/format.h>

#include "hdae/models/bouncing_ball.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/simulator.hpp"
#include "support/arguments.hpp"
#include "support/timing.hpp"

namespace hdae::bench {
namespace {

constexpr double kPhi10 = 0.120289;  // rad, published
constexpr double kW10 = 0.273965;    // rad/s, published

/// Exact impact times of the ball until it comes to rest.
std::vector<double> exact_impacts(double h0, double e, double g, double rest_speed) {
  const double t1 = std::sqrt(2.0 * h0 / g);
  double v = g * t1;  // impact speed
  double t = t1;
  std::vector<double> times{t};
  while (e * v >= rest_speed) {
    v *= e;
    t += 2.0 * v / g;
    times.push_back(t);
  }
  return times;
}

int run(const Arguments& args) {
  const std::string out_file = args.value("--out", "");
  if (out_file.empty()) throw std::invalid_argument("--out FILE is required");
  const auto runs = static_cast<std::size_t>(args.number("--runs", args.has("--smoke") ? 1 : 21));
  std::ofstream out(out_file);

  models::Pendulum pendulum;
  SimulationOptions po;
  po.stop_s = 10.0;
  po.rel_tol = 1e-6;
  SimulationResult pr = simulate(pendulum, po);
  std::vector<double> pendulum_s;
  for (std::size_t i = 0; i < runs; ++i) {
    pendulum_s.push_back(time_call([&] { pr = simulate(pendulum, po); }));
  }
  out << fmt::format("pendulum_s {:.9g}\n", median(pendulum_s));
  out << fmt::format("pendulum_phi_error {:.3g}\n", std::abs(pr.table.final_value("phi") - kPhi10));
  out << fmt::format("pendulum_w_error {:.3g}\n", std::abs(pr.table.final_value("w") - kW10));
  out << fmt::format("pendulum_steps {}\n", pr.statistics.steps);
  // The same at rtol 1e-8 (atol 1e-10): BDF needs a tighter tolerance than the explicit
  // Runge-Kutta methods for the same global error on this smooth problem.
  SimulationOptions tight = po;
  tight.rel_tol = 1e-8;
  pendulum_s.clear();
  for (std::size_t i = 0; i < runs; ++i) {
    pendulum_s.push_back(time_call([&] { pr = simulate(pendulum, tight); }));
  }
  out << fmt::format("pendulum_tight_s {:.9g}\n", median(pendulum_s));
  out << fmt::format("pendulum_tight_phi_error {:.3g}\n",
                     std::abs(pr.table.final_value("phi") - kPhi10));
  out << fmt::format("pendulum_tight_w_error {:.3g}\n", std::abs(pr.table.final_value("w") - kW10));

  const models::BouncingBallParameters bp{};  // h0 1, e 0.7, g 9.81, rest 0.01
  models::BouncingBall ball(bp);
  SimulationOptions bo;
  bo.stop_s = 3.0;
  bo.rel_tol = 1e-6;
  SimulationResult br = simulate(ball, bo);
  std::vector<double> ball_s;
  for (std::size_t i = 0; i < runs; ++i) {
    ball_s.push_back(time_call([&] { br = simulate(ball, bo); }));
  }
  const std::vector<double> exact =
      exact_impacts(bp.h0_m, bp.restitution, bp.gravity_mps2, bp.rest_speed_mps);
  std::vector<double> impacts;
  for (const EventRecord& e : br.events) {
    if (e.kind == EventKind::kState) impacts.push_back(e.t);
  }
  double worst = 0.0;
  for (std::size_t k = 0; k < std::min(impacts.size(), exact.size()); ++k) {
    worst = std::max(worst, std::abs(impacts[k] - exact[k]));
  }
  out << fmt::format("ball_s {:.9g}\n", median(ball_s));
  out << fmt::format("ball_impacts {}\n", impacts.size());
  out << fmt::format("ball_exact_impacts {}\n", exact.size());
  out << fmt::format("ball_impact_time_error {:.3g}\n", worst);
  out << fmt::format("ball_final_h {:.3g}\n", br.table.final_value("h"));
  out << fmt::format("ball_steps {}\n", br.statistics.steps);
  out << fmt::format("runs {}\n", runs);
  return pr.status.ok() && br.status.ok() ? 0 : 1;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-peer", argc, argv, hdae::bench::run);
}
