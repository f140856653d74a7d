// The PID-controlled mass (models/pid_controller.hpp) in its four forms: as written (index 2,
// reduced by the engine), with der(e) <- der(x), with e and der(e) substituted, and reduced by
// hand. All are the same linear system, so they must agree to the integration tolerance, and
// the closed loop has a closed form.
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/index_reduction.hpp"
#include "hdae/models/pid_controller.hpp"
#include "hdae/simulator.hpp"
#include "hdae/structure.hpp"
#include "models/event_rows.hpp"

using namespace hdae;
using models::PidForm;

namespace {

constexpr double kRelTol = 1e-8;

SimulationResult run(SimulationModel& model, double stop) {
  SimulationOptions o;
  o.stop_s = stop;
  o.rel_tol = kRelTol;
  o.output_interval_s = 0.05;
  return simulate(model, o);
}

/// Rows by time, for rows that are the only ones at their time (grid rows, not event pairs).
std::map<double, std::size_t> rows_by_time(const ResultTable& t) {
  std::map<double, std::size_t> rows;
  for (std::size_t i = 0; i < t.num_rows(); ++i) {
    const bool pair = (i > 0 && t.time(i - 1) == t.time(i)) ||
                      (i + 1 < t.num_rows() && t.time(i + 1) == t.time(i));
    if (!pair) rows[t.time(i)] = i;
  }
  return rows;
}

/// Largest difference of a column between two results at their common grid times.
double largest_difference(const ResultTable& a, const ResultTable& b, const std::string& column) {
  const std::map<double, std::size_t> rows_b = rows_by_time(b);
  const std::size_t ca = a.column_index(column);
  const std::size_t cb = b.column_index(column);
  double worst = 0.0;
  std::size_t common = 0;
  for (const auto& [t, i] : rows_by_time(a)) {
    const auto j = rows_b.find(t);
    if (j == rows_b.end()) continue;
    ++common;
    worst = std::max(worst, std::abs(a.value(i, ca) - b.value(j->second, cb)));
  }
  REQUIRE(common > 100);
  return worst;
}

}  // namespace

TEST_CASE("the four forms of the PID-controlled mass agree over a run") {
  const auto reference = models::make_pid_controller(PidForm::kHandReduced);
  const SimulationResult r = run(*reference, 10.0);
  REQUIRE(r.status.outcome == Outcome::kReachedStopTime);
  for (const PidForm form :
       {PidForm::kAsWritten, PidForm::kDerivativeSubstituted, PidForm::kSubstituted}) {
    CAPTURE(models::pid_model_name(form));
    const auto model = models::make_pid_controller(form);
    const SimulationResult s = run(*model, 10.0);
    REQUIRE(s.status.outcome == Outcome::kReachedStopTime);
    // Each run's global error is a small multiple of rel_tol times the signals' size (x, e
    // about 1 m, u about 10 N): 100 rel_tol per unit of magnitude.
    for (const char* column : {"x", "v", "i", "e"}) {
      CAPTURE(column);
      CHECK(largest_difference(r.table, s.table, column) < 100 * kRelTol);
    }
    CHECK(largest_difference(r.table, s.table, "u") < 1000 * kRelTol);
  }
}

TEST_CASE("the PID-controlled mass under a constant load follows its closed form") {
  // F = F0 = 2 N constant, m = 1, kP = 11, kD = 6, kI = 6: y = x - x_set obeys
  // y''' + 6 y'' + 11 y' + 6 y = 0 (the derivative of m y'' = F - kP y - kD y' - kI i), whose
  // characteristic polynomial is (s + 1)(s + 2)(s + 3). From y(0) = -1, y'(0) = v(0) = 0 and
  // y''(0) = (F0 - kP y(0)) / m = 13: y = 3.5 e^-t - 10 e^-2t + 5.5 e^-3t. The integral action
  // removes the offset (final-value theorem: x -> x_set) and i -> F0 / kI.
  const auto exact_x = [](double t) {
    return 1.0 + 3.5 * std::exp(-t) - 10.0 * std::exp(-2.0 * t) + 5.5 * std::exp(-3.0 * t);
  };
  for (const PidForm form : {PidForm::kAsWritten, PidForm::kDerivativeSubstituted,
                             PidForm::kSubstituted, PidForm::kHandReduced}) {
    CAPTURE(models::pid_model_name(form));
    const auto model = models::make_pid_controller(form, {.load_amplitude_n = 0.0});
    const SimulationResult r = run(*model, 20.0);
    REQUIRE(r.status.ok());
    const std::size_t x = r.table.column_index("x");
    const std::size_t e = r.table.column_index("e");
    double worst = 0.0;
    double worst_e = 0.0;
    // From x^+(t0) on (the row before it, if any, holds the start values).
    for (std::size_t i = models::testing::initial_row(r.table); i < r.table.num_rows(); ++i) {
      worst = std::max(worst, std::abs(r.table.value(i, x) - exact_x(r.table.time(i))));
      // e = x - x_set in every form, also where e is only a substitution.
      worst_e = std::max(worst_e, std::abs(r.table.value(i, e) - (r.table.value(i, x) - 1.0)));
    }
    // The constraint holds to the Newton tolerance (rel_tol times nominal 1).
    CHECK(worst_e < kRelTol);
    CHECK(worst < 100 * kRelTol);
    CHECK(r.table.final_value("i") == doctest::Approx(2.0 / 6.0).epsilon(1e-6));
    CHECK(r.table.final_value("u") == doctest::Approx(2.0).epsilon(1e-6));
  }
}

TEST_CASE("the PID controller as written has index 2 and ignores e's start value") {
  auto model = models::make_pid_controller(PidForm::kAsWritten);
  const auto& reduced = dynamic_cast<const IndexReducedModel&>(*model);
  CHECK(reduced.analysis().index == 2);
  // x is fixed at 0 and e = x - x_set holds at the start: e moves from its guess 0 to -1.
  const std::string words = reduced.describe();
  CHECK(words.find("start value of e moved from 0 to -1 to satisfy") != std::string::npos);
  CHECK(words.find("start value of x moved") == std::string::npos);
  // With both substitutions e is no unknown: 4 equations in x, v, i, u.
  const auto substituted = models::make_pid_controller(PidForm::kSubstituted);
  CHECK(substituted->structure().num_unknowns() == 4);
  CHECK(substituted->structure().equations.size() == 4);
}

TEST_CASE("der(e) <- der(x) lowers the index: the structure analysis sees no der(e)") {
  // As written, (5e) holds der(e) and (5d) must be differentiated once: index 2. With
  // der(e) <- der(x), every read of der(e) is der(x), so no row holds der(e) and e is
  // algebraic: index 1, like the form reduced by hand.
  for (const auto& [form, index] :
       {std::pair{PidForm::kAsWritten, 2}, std::pair{PidForm::kDerivativeSubstituted, 1},
        std::pair{PidForm::kSubstituted, 1}, std::pair{PidForm::kHandReduced, 1}}) {
    CAPTURE(models::pid_model_name(form));
    models::PidController model(form);
    const std::size_t n = model.structure().num_unknowns();
    const std::vector<double> x(n, 0.1), der_x(n, 0.0);
    const IndexAnalysis a = analyze_index(model, 0.0, x, der_x);
    CHECK(a.index == index);
    if (form == PidForm::kDerivativeSubstituted) {
      const std::size_t e = 3;  // x, v, i, e, u
      REQUIRE(model.structure().variables.name(e) == "e");
      for (const SignatureEntry& entry : a.signature.entries) {
        CHECK_FALSE((entry.col == e && entry.sigma == 1));
      }
    }
  }
}
