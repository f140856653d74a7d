// The checked-in reference results (references/<example>.csv, made by
// tools/make_references at rel_tol 1e-10) against published values, analytic solutions and
// conservation laws, so that the regression comparisons compare with something trusted.
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/csv.hpp"

using namespace hdae;

namespace {

ResultTable reference(const std::string& name) {
  return read_csv(std::filesystem::path(HDAE_REFERENCE_DIR) / (name + ".csv"));
}

/// Rows i with time(i) == time(i - 1): the right limits at the events.
std::vector<std::size_t> right_limit_rows(const ResultTable& t) {
  std::vector<std::size_t> rows;
  for (std::size_t i = 1; i < t.num_rows(); ++i) {
    if (t.time(i) == t.time(i - 1)) rows.push_back(i);
  }
  return rows;
}

/// m s'' + d s' + k s = F from (s0, v0) at tau = 0, closed form (underdamped).
struct DampedOscillator {
  double m, d, k, force, s0, v0;

  [[nodiscard]] double s(double tau) const {
    const double alpha = d / (2 * m);
    const double omega = std::sqrt(k / m - alpha * alpha);
    const double a = s0 - force / k;
    const double b = (v0 + alpha * a) / omega;
    return force / k +
           std::exp(-alpha * tau) * (a * std::cos(omega * tau) + b * std::sin(omega * tau));
  }
  [[nodiscard]] double v(double tau) const {
    const double alpha = d / (2 * m);
    const double omega = std::sqrt(k / m - alpha * alpha);
    const double a = s0 - force / k;
    const double b = (v0 + alpha * a) / omega;
    return std::exp(-alpha * tau) * ((b * omega - alpha * a) * std::cos(omega * tau) -
                                     (a * omega + alpha * b) * std::sin(omega * tau));
  }
  /// First tau > 0 where s crosses zero: a scan in steps of 1e-3 s, then bisection.
  [[nodiscard]] double next_zero() const {
    const double sign = s0 != 0.0 ? s0 : v0;  // the sign of s just after tau = 0
    const double step = 1e-3;
    double lo = 0.0;
    while (s(lo + step) * sign > 0) lo += step;
    double hi = lo + step;
    for (int i = 0; i < 100; ++i) {
      const double mid = 0.5 * (lo + hi);
      (s(mid) * sign > 0 ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
  }
};

}  // namespace

TEST_CASE("the pendulum reference reaches the published state and loses energy monotonically") {
  const ResultTable t = reference("pendulum");
  // Published (ModiaMath's pendulum test): phi(10) = 0.120289, w(10) = 0.273965, 6 decimals:
  // rounding leaves 5e-7; the reference's own error (rel_tol 1e-10) is far below.
  CHECK(t.time(t.num_rows() - 1) == 10.0);
  CHECK(std::abs(t.final_value("phi") - 0.120289) <= 5e-7);
  CHECK(std::abs(t.final_value("w") - 0.273965) <= 5e-7);
  // E = m L^2 w^2 / 2 + m g L (1 - cos phi); dE/dt = -d w^2 <= 0 (L = 0.5, m = 1, g = 9.81).
  const auto phi = t.column("phi");
  const auto w = t.column("w");
  auto energy = [&](std::size_t i) {
    return 0.5 * 0.25 * w[i] * w[i] + 9.81 * 0.5 * (1 - std::cos(phi[i]));
  };
  CHECK(energy(0) == doctest::Approx(9.81 * 0.5 * 0.5));  // phi0 = 60 deg: 1 - cos = 1/2
  for (std::size_t i = 1; i < t.num_rows(); ++i) {
    // Solver error ~ 1e-10 relative of E ~ 2.5 J: allow 1e-9 J of apparent gain.
    CHECK(energy(i) <= energy(i - 1) + 1e-9);
  }
}

TEST_CASE("the simple-state-events reference switches at the analytic event times") {
  const ResultTable t = reference("simple_state_events");
  // m = 1, k = 1, d = 0.1, f = 0 while s > 0 else 1.5; s(0) = 2, v(0) = 0. Piece by piece
  // the closed-form damped oscillation; each event starts the next piece from (0, v).
  std::vector<double> expected;
  DampedOscillator piece{1.0, 0.1, 1.0, 0.0, 2.0, 0.0};
  double t0 = 0.0;
  while (true) {
    const double tau = piece.next_zero();
    if (t0 + tau > 10.0) break;
    expected.push_back(t0 + tau);
    const double v = piece.v(tau);
    t0 += tau;
    piece = DampedOscillator{1.0, 0.1, 1.0, v < 0 ? 1.5 : 0.0, 0.0, v};
  }
  REQUIRE(expected.size() == 4);
  // Published event times (ModiaMath's SimpleStateEvents test), which agree with the analytic
  // ones to the 1e-3 of that run.
  const double published[] = {1.62283, 3.36771, 6.51321, 8.04188};
  const auto rights = right_limit_rows(t);
  REQUIRE(rights.size() == 4);
  const auto f = t.column("f");
  for (std::size_t k = 0; k < 4; ++k) {
    CAPTURE(k);
    CHECK(std::abs(expected[k] - published[k]) < 1e-3);
    // Root location: IDA's crossing hysteresis 1e-10 (relative to s's nominal 1) at
    // |v| > 1 m/s, plus the global error of rel_tol 1e-10 (~100 rel_tol, as in the
    // bouncing-ball test): well below 1e-7 s.
    CHECK(std::abs(t.time(rights[k]) - expected[k]) < 1e-7);
    CHECK(f[rights[k] - 1] == (k % 2 == 0 ? 0.0 : 1.5));  // left limit: old force
    CHECK(f[rights[k]] == (k % 2 == 0 ? 1.5 : 0.0));      // right limit: new force
  }
}

TEST_CASE("the bouncing-ball reference hits the ground at the analytic impact times") {
  const ResultTable t = reference("bouncing_ball");
  const double h0 = 1.0, g = 9.81, e = 0.7, rel_tol = 1e-10;
  const double t1 = std::sqrt(2 * h0 / g);
  const double v1 = std::sqrt(2 * g * h0);
  const auto rights = right_limit_rows(t);
  // The ball rests at the first impact whose rebound e^n v1 is below 0.01 m/s: n = 18.
  REQUIRE(rights.size() == 18);
  const auto v = t.column("v");
  for (std::size_t k = 0; k < rights.size(); ++k) {
    CAPTURE(k);
    const int n = static_cast<int>(k) + 1;
    const double t_n = t1 * (1 + 2 * e * (1 - std::pow(e, n - 1)) / (1 - e));
    const double v_n = v1 * std::pow(e, n - 1);
    // As in the events test: h carries ~100 rel_tol of error, which shifts the root by
    // 100 rel_tol / v_n, plus IDA's root location.
    CHECK(std::abs(t.time(rights[k]) - t_n) < 100 * rel_tol * (1 + 1 / v_n) + 1e-9);
    CHECK(v[rights[k] - 1] == doctest::Approx(-v_n).epsilon(1e-7));
    // v := -e v at an impact (0 at rest): exact up to round-off.
    CHECK(v[rights[k]] ==
          (n < 18 ? doctest::Approx(-e * v[rights[k] - 1]).epsilon(1e-14) : doctest::Approx(0.0)));
  }
}

TEST_CASE("the mass-spring-chain reference keeps its constraint and never gains energy") {
  const ResultTable t = reference("mass_spring_chain");
  // N = 20, k = 100 N/m, end pulled out by 1 m, chain uniformly stretched: s_i = i / 20,
  // every spring force k / 20 = 5 N, energy 20 * 5^2 / (2 * 100) = 2.5 J.
  CHECK(t.value(0, t.column_index("s[1]")) == doctest::Approx(0.05));
  CHECK(t.value(0, t.column_index("s[10]")) == doctest::Approx(0.5));
  CHECK(t.value(0, t.column_index("s[20]")) == doctest::Approx(1.0));
  CHECK(t.value(0, t.column_index("energy")) == doctest::Approx(2.5));
  const auto s1 = t.column("s[1]");
  const auto f1 = t.column("f[1]");
  const auto energy = t.column("energy");
  for (std::size_t i = 0; i < t.num_rows(); ++i) {
    // The algebraic row 0 = f_1 - k s_1 holds to the Newton tolerance of rel_tol 1e-10
    // on forces of order 5 N: 1e-8 N is generous.
    CHECK(std::abs(f1[i] - 100.0 * s1[i]) < 1e-8);
    // Dampers only take energy out (dE/dt = -d sum v^2); 1e-9 J for solver error.
    if (i > 0) CHECK(energy[i] <= energy[i - 1] + 1e-9);
  }
}
