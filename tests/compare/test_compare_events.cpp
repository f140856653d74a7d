// Event-aware comparison (compare.hpp): rows with equal time are the limits at an event;
// events pair by order, small shifts are reported and mapped away, and everything else
// about events is a problem with a message that says where to look.
#include <cmath>

#include <doctest/doctest.h>

#include "compare/tables.hpp"
#include "hdae/compare.hpp"

using namespace hdae;
using test::make_table;

namespace {

/// Signals that restart at every event: a sawtooth y = t - t_k and v = cos(3 (t - t_k)),
/// with t_k the time of the last event (0 before the first).
std::vector<test::SignalFormula> restarting(std::vector<double> events,
                                            double y_offset_after_1 = 0) {
  auto since = [events](double t, std::size_t segment) {
    return segment == 0 ? t : t - events[segment - 1];
  };
  return {{"y",
           [since, y_offset_after_1](double t, std::size_t k) {
             return since(t, k) + (k == 1 ? y_offset_after_1 : 0.0);
           }},
          {"v", [since](double t, std::size_t k) { return std::cos(3.0 * since(t, k)); }}};
}

ResultTable with_events(std::vector<double> events, double y_offset_after_1 = 0) {
  return make_table(0.0, 10.0, 0.1, events, restarting(events, y_offset_after_1));
}

const std::vector<double> kEvents = {2.55, 6.05};

}  // namespace

TEST_CASE("a small event-time shift within the tolerance passes and is reported as a shift") {
  const double shift = 5e-7;  // below the default event_time_tol_s = 1e-6
  const ResultTable reference = with_events(kEvents);
  const ResultTable result = with_events({kEvents[0] + shift, kEvents[1] + shift});
  CompareOptions o;
  const CompareReport r = compare_results(reference, result, o);
  CHECK(r.agree);
  CHECK(r.events_aligned);
  CHECK(r.reference_events == 2);
  CHECK(r.result_events == 2);
  REQUIRE(r.event_shifts.size() == 2);
  for (std::size_t k = 0; k < 2; ++k) {
    CHECK(r.event_shifts[k].reference_t == kEvents[k]);
    CHECK(r.event_shifts[k].result_t == kEvents[k] + shift);
    CHECK(r.event_shifts[k].shift_s == doctest::Approx(shift).epsilon(1e-6));  // round-off
    CHECK(r.event_shifts[k].within_tolerance);
  }
  CHECK(r.brief_report().find("2 events paired, largest shift 5e-07 s") != std::string::npos);

  // With no width in time the tube cannot absorb the shift by itself: only the mapping of
  // result time onto reference time between paired events lets the signals pass ...
  o.rel_time = 0.0;
  CHECK(compare_results(reference, result, o).agree);
  // ... while one tube across the events fails both signals at the result's first event,
  // where the result still holds its left limit and the reference has jumped.
  o.events = EventMatching::kIgnore;
  const CompareReport ignored = compare_results(reference, result, o);
  CHECK_FALSE(ignored.agree);
  CHECK(ignored.failed_signals() == 2);
  for (const SignalComparison& s : ignored.signals) {
    REQUIRE(s.first_failure_t.has_value());
    CHECK(*s.first_failure_t == kEvents[0] + shift);
  }
}

TEST_CASE("a differing number of events is reported with the first event that does not pair") {
  const ResultTable reference = with_events(kEvents);
  const ResultTable fewer = with_events({kEvents[0]});
  const CompareReport r = compare_results(reference, fewer, CompareOptions{});
  CHECK_FALSE(r.agree);
  CHECK_FALSE(r.events_aligned);
  CHECK(r.event_shifts.empty());
  CHECK(r.problems ==
        std::vector<std::string>{"the reference has 2 events, the result 1; the result has no "
                                 "event near t = 6.05"});
  // The signals are still compared, with one tube across the events: they agree up to the
  // missing event and differ after it.
  for (const SignalComparison& s : r.signals) {
    REQUIRE(s.first_failure_t.has_value());
    CHECK(*s.first_failure_t > kEvents[1]);
  }

  const ResultTable other = with_events({1.0, kEvents[1], 8.0});
  CHECK(compare_results(reference, other, CompareOptions{}).problems ==
        std::vector<std::string>{"the reference has 2 events, the result 3; event 1 is at t = "
                                 "2.55 in the reference, t = 1 in the result"});
}

TEST_CASE("an event shifted beyond the tolerance is a problem naming the event and the shift") {
  const double shift = 0.00390625;  // 2^-8: exact in binary, so the times print exactly
  const ResultTable reference = with_events(kEvents);
  const ResultTable late = with_events({kEvents[0] + shift, kEvents[1]});
  const CompareReport r = compare_results(reference, late, CompareOptions{});
  CHECK_FALSE(r.agree);
  CHECK_FALSE(r.events_aligned);
  REQUIRE(r.event_shifts.size() == 2);
  CHECK_FALSE(r.event_shifts[0].within_tolerance);
  CHECK(r.event_shifts[1].within_tolerance);
  CHECK(r.problems ==
        std::vector<std::string>{"event 1 is at t = 2.55 in the reference, t = 2.55390625 in the "
                                 "result: shift 0.00391 s exceeds event_time_tol_s = 1e-06 s"});
  // The signals are compared with one tube across the events (delta_t = 0.01 s). It holds
  // both branches at the reference's event but not the continuation of the old branch: y
  // (falling back to 0) stays inside, v (jumping up from cos 7.65 = 0.20 to 1 while the
  // late result still falls to cos(3 * 2.5539) = 0.19) leaves it at the late left limit
  // only.
  CHECK(r.signals[0].passed);
  const SignalComparison& v = r.signals[1];
  CHECK(v.points_outside == 1);
  REQUIRE(v.first_failure_t.has_value());
  CHECK(*v.first_failure_t == kEvents[0] + shift);
  CHECK(r.full_report().find("beyond event_time_tol_s") != std::string::npos);
}

TEST_CASE("the left and right limits at a paired event are each compared on their own side") {
  // The result jumps to y = 0.1 instead of 0 at the first event. The tube of the segment
  // after the event starts at the event: at 2.55 it reaches y(2.55 + delta_t) + delta_y
  // = 0.01 + 0.004 (range 4 of the sawtooth), well below 0.1; the left limit is right.
  const ResultTable reference = with_events(kEvents);
  const ResultTable wrong_jump = with_events(kEvents, 0.1);
  const CompareReport r = compare_results(reference, wrong_jump, CompareOptions{});
  CHECK_FALSE(r.agree);
  CHECK(r.events_aligned);
  CHECK(r.problems.empty());
  const SignalComparison& y = r.signals[0];
  REQUIRE(y.name == "y");
  REQUIRE(y.first_failure_t.has_value());
  CHECK(*y.first_failure_t == kEvents[0]);
  CHECK(r.signals[1].passed);

  // The plot's trace holds both limits at the event, the right one marked outside.
  const SignalTrace trace = trace_signal(reference, wrong_jump, CompareOptions{}, "y");
  std::vector<std::size_t> at_event;
  for (std::size_t i = 0; i < trace.time.size(); ++i) {
    if (trace.time[i] == kEvents[0]) at_event.push_back(i);
    if (i > 0) CHECK(trace.time[i] >= trace.time[i - 1]);
  }
  REQUIRE(at_event.size() == 2);
  CHECK(trace.reference[at_event[0]] == doctest::Approx(kEvents[0]));  // left limit y = t
  CHECK_FALSE(trace.outside[at_event[0]]);
  CHECK(trace.reference[at_event[1]] == 0.0);  // right limit: the sawtooth restarts
  CHECK(trace.result[at_event[1]] == doctest::Approx(0.1));
  CHECK(trace.outside[at_event[1]]);
}
