// The references of the examples with a changing index or substitute equations
// (references/iti_example2.csv, pid_controller*.csv, tank_overflow.csv, made at rel_tol
// 1e-10) against their closed forms, and the four PID forms against each other.
#include <cmath>
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include "hdae/csv.hpp"
#include "models/event_rows.hpp"

using namespace hdae;
using models::testing::initial_row;

namespace {

ResultTable reference(const std::string& name) {
  return read_csv(std::filesystem::path(HDAE_REFERENCE_DIR) / (name + ".csv"));
}

/// Largest |column(t) - exact(t)| over the rows from x^+(t0) on, skipping rows within 1e-6 s
/// of the given switching times (they hold either limit).
template <class Exact>
double largest_error(const ResultTable& t, const std::string& column, Exact exact,
                     std::initializer_list<double> switches = {}) {
  const std::size_t c = t.column_index(column);
  double worst = 0.0;
  for (std::size_t i = initial_row(t); i < t.num_rows(); ++i) {
    bool near_switch = false;
    for (const double s : switches) near_switch = near_switch || std::abs(t.time(i) - s) < 1e-6;
    if (!near_switch) worst = std::max(worst, std::abs(t.value(i, c) - exact(t.time(i))));
  }
  return worst;
}

}  // namespace

TEST_CASE("the ITI example 2 reference is x = 1 before 0.5 s and 1 + (t - 0.5) after") {
  const ResultTable t = reference("iti_example2");
  // Started from x = 3, a guess the constraint 1 = x overrides; der(x) = 1 is integrated
  // exactly, so only the Newton tolerance (rel_tol 1e-10 times nominal 1) remains.
  CHECK(largest_error(t, "x", [](double s) { return s < 0.5 ? 1.0 : 1.0 + (s - 0.5); }) < 1e-9);
  CHECK(t.final_value("der(x)") == doctest::Approx(1.0).epsilon(1e-9));
}

TEST_CASE("the four PID references agree with each other") {
  // Compared from x^+(t0) on: the index-1 forms record x^-(t0) with the start values first.
  const ResultTable hand = reference("pid_controller_reduced");
  const std::size_t h0 = initial_row(hand);
  for (const char* name :
       {"pid_controller", "pid_controller_der_substituted", "pid_controller_substituted"}) {
    CAPTURE(name);
    const ResultTable other = reference(name);
    const std::size_t o0 = initial_row(other);
    REQUIRE(other.num_rows() - o0 == hand.num_rows() - h0);
    for (const char* column : {"x", "v", "i", "e", "u"}) {
      CAPTURE(column);
      const std::size_t a = hand.column_index(column);
      const std::size_t b = other.column_index(column);
      double worst = 0.0;
      for (std::size_t k = 0; h0 + k < hand.num_rows(); ++k) {
        REQUIRE(other.time(o0 + k) == hand.time(h0 + k));
        worst = std::max(worst, std::abs(hand.value(h0 + k, a) - other.value(o0 + k, b)));
      }
      // A few hundred rel_tol on signals of size 1 to 10.
      CHECK(worst < 1e-7);
    }
  }
}

TEST_CASE("the tank reference fills, overflows from 2 s to 3 s and drains at 0.3 m/s") {
  const ResultTable t = reference("tank_overflow");
  const auto h = [](double s) {
    return s <= 2.0 ? 0.5 * s : (s <= 3.0 ? 1.0 : 1.0 - 0.3 * (s - 3.0));
  };
  const auto q = [](double s) { return s > 2.0 && s < 3.0 ? 0.5 : 0.0; };
  CHECK(largest_error(t, "h", h, {2.0, 3.0}) < 1e-9);
  CHECK(largest_error(t, "Q_x", q, {2.0, 3.0}) < 1e-9);
}
