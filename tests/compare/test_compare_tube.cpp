// The tube of compare_results (compare.hpp) on tables built from formulas, where where the
// result leaves the tube follows from the tube's definition by hand.
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "compare/tables.hpp"
#include "hdae/compare.hpp"
#include "hdae/errors.hpp"

using namespace hdae;
using test::make_table;

namespace {

double sine(double t, std::size_t) { return std::sin(t); }
double ramp(double t, std::size_t) { return t; }
double one(double, std::size_t) { return 1.0; }

const SignalComparison& signal(const CompareReport& r, std::string_view name) {
  for (const SignalComparison& s : r.signals) {
    if (s.name == name) return s;
  }
  FAIL("no signal ", name);
  throw std::logic_error("unreachable");
}

std::string option_error(const CompareOptions& o) {
  try {
    o.validate();
  } catch (const OptionError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("identical tables agree with zero deviation at every point") {
  const ResultTable t = make_table(
      0.0, 10.0, 0.1, {}, {{"y", sine}, {"z", [](double x, std::size_t) { return std::cos(x); }}});
  const CompareReport r = compare_results(t, t, CompareOptions{});
  CHECK(r.agree);
  CHECK(r.problems.empty());
  REQUIRE(r.signals.size() == 2);
  for (const SignalComparison& s : r.signals) {
    CHECK(s.passed);
    CHECK(s.points_checked == 2 * 101);  // 101 result points and 101 reference points
    CHECK(s.points_outside == 0);
    CHECK(s.max_inside_deviation == 0.0);
  }
  CHECK(r.brief_report().starts_with("agree: 2 signals within the tube"));
}

TEST_CASE(
    "a signal shifted beyond the tube fails and the report names it and its first failing time") {
  // Reference y = t on [0, 10] (range 10): delta_y = 1e-3 * 10 = 0.01, delta_t = 0.01 s.
  // The result adds 0.05 from t = 5 on. Inside the range the upper envelope is
  // y(t + delta_t) + delta_y = t + 0.02, so the result is 0.03 above it; at t = 10 the window
  // ends at 10 and the envelope is 10.01: 0.04 above.
  const ResultTable reference = make_table(0.0, 10.0, 0.1, {}, {{"x", one}, {"y", ramp}});
  const ResultTable result = make_table(
      0.0, 10.0, 0.1, {},
      {{"x", one}, {"y", [](double t, std::size_t) { return t > 4.95 ? t + 0.05 : t; }}});
  const CompareReport r = compare_results(reference, result, CompareOptions{});
  CHECK_FALSE(r.agree);
  CHECK(r.failed_signals() == 1);
  CHECK(signal(r, "x").passed);
  const SignalComparison& y = signal(r, "y");
  CHECK_FALSE(y.passed);
  CHECK(y.delta_y == doctest::Approx(0.01));
  REQUIRE(y.first_failure_t.has_value());
  CHECK(*y.first_failure_t == doctest::Approx(5.0));
  // Round-off of the grid times (i * 0.1) only: 1e-12.
  CHECK(y.max_outside == doctest::Approx(0.04).epsilon(1e-12));
  CHECK(y.max_outside_t == 10.0);
  CHECK(y.points_outside == 2 * 51);  // t = 5.0 ... 10.0, result and reference points
  CHECK(r.brief_report() ==
        "differ: 1 of 2 signals outside the tube\n"
        "  y: outside from t = 5, by up to 0.04 at t = 10 (delta_y = 0.01)\n");
}

TEST_CASE(
    "the tube's width in time accepts a delay below delta_t but not an offset above delta_y "
    "where the signal is flat") {
  // Reference sin t on [0, 10]: delta_t = 0.01 s, delta_y = 1e-3 * range ~ 2e-3.
  const ResultTable reference = make_table(0.0, 10.0, 0.01, {}, {{"y", sine}});
  // A delay of half the tube's width, sampled on another grid (interpolation error
  // h^2/8 = 2e-5, far below delta_y): inside. (At t = 0 the window cannot reach back, so the
  // delayed signal must start flat there: cos, not sin.)
  const ResultTable cosine =
      make_table(0.0, 10.0, 0.01, {}, {{"y", [](double t, std::size_t) { return std::cos(t); }}});
  const ResultTable delayed = make_table(
      0.0, 10.0, 0.013, {}, {{"y", [](double t, std::size_t) { return std::cos(t - 0.005); }}});
  CHECK(compare_results(cosine, delayed, CompareOptions{}).agree);

  // An offset of 1.5 delta_y fails only where the window gains less than 0.5 delta_y:
  // sin(t + dt) - sin t = 2 cos(t + dt/2) sin(dt/2) < 1e-3, i.e. from t = acos(0.1) - dt/2
  // (1.4656) on, the first time sin t nears its maximum.
  const double delta_y = 1e-3 * 2.0;
  const ResultTable offset =
      make_table(0.0, 10.0, 0.01, {},
                 {{"y", [delta_y](double t, std::size_t) { return std::sin(t) + 1.5 * delta_y; }}});
  const CompareReport r = compare_results(reference, offset, CompareOptions{});
  CHECK_FALSE(r.agree);
  const SignalComparison& y = signal(r, "y");
  REQUIRE(y.first_failure_t.has_value());
  // Within one grid step (0.01 s) of the predicted time.
  CHECK(std::abs(*y.first_failure_t - (std::acos(0.1) - 0.005)) <= 0.01);
}

TEST_CASE("a wide tube in time accepts a delay of half its width, a narrow one does not") {
  // Reference cos t on [0, 10] at h = 0.01; rel_time 0.1 makes delta_t = 1 s, a window of 200
  // rows. The result cos(t - 0.5) takes at t the reference's value at t - 0.5, inside the
  // window; near t = 0, where the window cannot reach back, it lies between cos 1 (the
  // window's least value) and 1 (its greatest). So every point is inside the wide tube,
  // while at the default delta_t = 0.01 s the delay is 50 tube widths.
  const ResultTable reference =
      make_table(0.0, 10.0, 0.01, {}, {{"y", [](double t, std::size_t) { return std::cos(t); }}});
  const ResultTable delayed = make_table(
      0.0, 10.0, 0.01, {}, {{"y", [](double t, std::size_t) { return std::cos(t - 0.5); }}});
  CompareOptions wide;
  wide.rel_time = 0.1;
  const CompareReport r = compare_results(reference, delayed, wide);
  CHECK(r.agree);
  CHECK(r.delta_t == doctest::Approx(1.0));
  CHECK_FALSE(compare_results(reference, delayed, CompareOptions{}).agree);
}

TEST_CASE("a near-zero signal does not fail on noise below the absolute floor") {
  // The reference is 1e-12 sin t: rel * range = 2e-15, so the floor abs_floor = 1e-6 sets
  // the tube. Noise of 1e-8 lies far inside it, and far outside a floor of 1e-9.
  const ResultTable reference = make_table(
      0.0, 10.0, 0.1, {}, {{"z", [](double t, std::size_t) { return 1e-12 * std::sin(t); }}});
  const ResultTable noisy =
      make_table(0.0, 10.0, 0.1, {}, {{"z", [](double t, std::size_t) {
                                         const auto i = static_cast<long>(std::llround(t * 10));
                                         return 1e-12 * std::sin(t) + (i % 2 == 0 ? 1e-8 : -1e-8);
                                       }}});
  const CompareReport r = compare_results(reference, noisy, CompareOptions{});
  CHECK(r.agree);
  CHECK(signal(r, "z").delta_y == 1e-6);
  CHECK(signal(r, "z").max_inside_deviation == doctest::Approx(1e-8).epsilon(1e-3));

  CompareOptions tight;
  tight.abs_floor = 1e-9;
  CHECK_FALSE(compare_results(reference, noisy, tight).agree);
}

TEST_CASE("per-signal tolerances replace the global ones for that signal only") {
  const ResultTable reference = make_table(0.0, 10.0, 0.1, {}, {{"x", ramp}, {"y", ramp}});
  const auto plus = [](double t, std::size_t) { return t + 0.05; };
  const ResultTable result = make_table(0.0, 10.0, 0.1, {}, {{"x", plus}, {"y", plus}});
  CompareOptions o;
  o.signal_tolerances["y"] = SignalTolerance{.abs = 0.1};  // rel stays 1e-3: 0.01 < 0.1
  const CompareReport r = compare_results(reference, result, o);
  CHECK(signal(r, "y").passed);
  CHECK(signal(r, "y").delta_y == 0.1);
  CHECK_FALSE(signal(r, "x").passed);
}

TEST_CASE("a reference signal missing from the result fails unless allowed, then it is a warning") {
  const ResultTable reference = make_table(0.0, 1.0, 0.1, {}, {{"a", ramp}, {"b", ramp}});
  const ResultTable result = make_table(0.0, 1.0, 0.1, {}, {{"b", ramp}, {"c", one}});
  // By default a reference signal absent from the result (a renamed or dropped variable) is a
  // failure; the common signal b is compared all the same, and c (result only) is listed.
  const CompareReport strict = compare_results(reference, result, CompareOptions{});
  CHECK_FALSE(strict.agree);
  REQUIRE(strict.signals.size() == 1);
  CHECK(strict.signals[0].name == "b");
  CHECK(strict.signals[0].passed);
  CHECK(strict.only_in_reference == std::vector<std::string>{"a"});
  CHECK(strict.only_in_result == std::vector<std::string>{"c"});
  CHECK(strict.problems ==
        std::vector<std::string>{"1 signal of the reference missing from the result: a"});
  CHECK(strict.warnings.empty());
  CHECK(strict.brief_report() ==
        "differ: 0 of 1 signal outside the tube, 1 problem\n"
        "  problem: 1 signal of the reference missing from the result: a\n");

  // Allowed: the verdict covers b alone, and says so on its first line and the next.
  CompareOptions allow;
  allow.missing_signals_fail = false;
  const CompareReport r = compare_results(reference, result, allow);
  CHECK(r.agree);
  CHECK(r.problems.empty());
  CHECK(r.warnings ==
        std::vector<std::string>{"1 signal of the reference missing from the result: a (not "
                                 "compared)"});
  CHECK(r.brief_report() ==
        "agree: 1 signal within the tube (delta_t = 0.001 s, no events), 1 warning\n"
        "  warning: 1 signal of the reference missing from the result: a (not compared)\n");
  CHECK(r.full_report().find("only in the reference (not compared): a\n") != std::string::npos);
  CHECK(r.markdown_report().find("  warning: 1 signal of the reference missing") !=
        std::string::npos);

  CompareOptions named;
  named.signals = {"b", "a", "d"};
  const CompareReport n = compare_results(reference, result, named);
  CHECK_FALSE(n.agree);
  CHECK(n.problems == std::vector<std::string>{"signal \"a\" is not in the result",
                                               "signal \"d\" is in neither table"});
  CHECK(n.warnings.empty());
}

TEST_CASE("a name shared by two columns of a table is a problem, and that signal is not compared") {
  // read_csv rejects such a file; a table built in code may still have one.
  const ResultTable twice = make_table(0.0, 1.0, 0.1, {}, {{"x", ramp}, {"y", ramp}, {"x", one}});
  const ResultTable once = make_table(0.0, 1.0, 0.1, {}, {{"x", ramp}, {"y", ramp}});
  const CompareReport as_reference = compare_results(twice, once, CompareOptions{});
  CHECK_FALSE(as_reference.agree);
  CHECK(as_reference.problems ==
        std::vector<std::string>{"the reference has 2 columns named \"x\"; it is not compared"});
  REQUIRE(as_reference.signals.size() == 1);
  CHECK(as_reference.signals[0].name == "y");

  const CompareReport as_result = compare_results(once, twice, CompareOptions{});
  CHECK_FALSE(as_result.agree);
  CHECK(as_result.problems ==
        std::vector<std::string>{"the result has 2 columns named \"x\"; it is not compared"});
  CHECK(as_result.signals.size() == 1);

  CompareOptions named;
  named.signals = {"x"};
  CHECK(compare_results(twice, twice, named).problems ==
        std::vector<std::string>{"the reference has 2 columns named \"x\"; it is not compared",
                                 "the result has 2 columns named \"x\"; it is not compared"});
  CHECK_THROWS_WITH_AS(static_cast<void>(trace_signal(once, twice, CompareOptions{}, "x")),
                       "the result has 2 columns named \"x\"", std::out_of_range);
}

TEST_CASE("a long list of missing signals names the first twenty and counts the rest") {
  std::vector<test::SignalFormula> many;
  for (int i = 1; i <= 23; ++i) many.push_back({"s" + std::to_string(i), ramp});
  const ResultTable reference = make_table(0.0, 1.0, 0.1, {}, many);
  const ResultTable result = make_table(0.0, 1.0, 0.1, {}, {{"s1", ramp}});
  const CompareReport r = compare_results(reference, result, CompareOptions{});
  // 22 missing (s2 .. s23): s2 .. s21 named, 2 counted.
  CHECK(r.problems == std::vector<std::string>{
                          "22 signals of the reference missing from the result: s2, s3, s4, s5, "
                          "s6, s7, s8, s9, s10, s11, s12, s13, s14, s15, s16, s17, s18, s19, s20, "
                          "s21 and 2 more"});
}

TEST_CASE("a result that stops early is a problem, though its signals match where they exist") {
  const ResultTable reference = make_table(0.0, 10.0, 0.1, {}, {{"y", ramp}});
  const ResultTable result = make_table(0.0, 5.0, 0.1, {}, {{"y", ramp}});
  const CompareReport r = compare_results(reference, result, CompareOptions{});
  CHECK_FALSE(r.agree);
  CHECK(signal(r, "y").passed);
  CHECK(r.problems ==
        std::vector<std::string>{"the result ends at t = 5, before the reference's end t = 10"});
}

TEST_CASE("NaN in the result fails the signal, in the reference the signal has no tube") {
  const ResultTable reference = make_table(0.0, 4.0, 1.0, {}, {{"y", ramp}});
  const ResultTable broken =
      make_table(0.0, 4.0, 1.0, {},
                 {{"y", [](double t, std::size_t) { return t >= 2.0 ? std::nan("") : t; }}});
  const CompareReport r = compare_results(reference, broken, CompareOptions{});
  CHECK_FALSE(r.agree);
  const SignalComparison& y = signal(r, "y");
  CHECK(y.max_outside == std::numeric_limits<double>::infinity());
  REQUIRE(y.first_failure_t.has_value());
  // The reference point t = 1 sees the result interpolated towards the NaN at t = 2 only
  // beyond t = 1; t = 2 is the first point where the result is NaN.
  CHECK(*y.first_failure_t == 2.0);

  const CompareReport back = compare_results(broken, reference, CompareOptions{});
  CHECK_FALSE(back.agree);
  CHECK(signal(back, "y").note == "the reference value nan at t = 2 is not finite; no tube");
}

TEST_CASE("invalid compare options are rejected with a message naming the field") {
  CompareOptions o;
  CHECK(option_error(o) == "no error");
  o.rel_value = -1e-3;
  CHECK(option_error(o) == "CompareOptions::rel_value must be finite and >= 0, got -0.001");
  o = {};
  o.abs_floor = std::numeric_limits<double>::infinity();
  CHECK(option_error(o) == "CompareOptions::abs_floor must be finite and >= 0, got inf");
  o = {};
  o.rel_time = 1.0;
  CHECK(option_error(o) == "CompareOptions::rel_time must be in [0, 1), got 1");
  o = {};
  o.event_time_tol_s = -1.0;
  CHECK(option_error(o) == "CompareOptions::event_time_tol_s must be finite and >= 0, got -1");
  o = {};
  o.signal_tolerances["w"] = SignalTolerance{.rel = -2.0};
  CHECK(option_error(o) ==
        "CompareOptions::signal_tolerances[\"w\"].rel must be finite and >= 0, got -2");
  o = {};
  o.signals = {"a", ""};
  CHECK(option_error(o) == "CompareOptions::signals must not hold an empty name");

  const ResultTable t = make_table(0.0, 1.0, 0.5, {}, {{"y", ramp}});
  o = {};
  o.rel_time = -0.5;
  CHECK_THROWS_AS(static_cast<void>(compare_results(t, t, o)), OptionError);
}
