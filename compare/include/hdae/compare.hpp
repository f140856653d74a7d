// Comparison of two result tables within a tube (docs/design.md, "The data path"): decides whether
// a result agrees with a reference (an earlier version, another tool, a tight-tolerance run) in the
// manner of the csv-compare tool used for Modelica regression tests, and is aware that events may
// shift slightly. The hdae-compare program (tools/compare/) is a thin front end.
//
// The tube of one signal y of the reference, over its time range [t_start, t_end]:
//
//   delta_t = rel_time * (t_end - t_start)
//   delta_y = max(rel * (max y - min y over the reference), abs)
//   around every point of the linearly interpolated reference a rectangle
//   [t - delta_t, t + delta_t] x [y(t) - delta_y, y(t) + delta_y]; the upper and lower
//   envelopes of the union are the tube:  U(t) = max y(s) + delta_y,  L(t) = min y(s) - delta_y
//   over s in [t - delta_t, t + delta_t]
//   (the products are formed without overflow: a range wider than the largest double, such
//   as from -1e308 to 1e308, gives a finite delta_y when rel is small, not an infinite tube)
//
// The result (linearly interpolated) must lie in [L, U] at every result point and at every
// reference point. For the points of the reference alone this is csv-compare's rectangle
// construction; its straight lines between rectangle corners are what the union above gives
// along each straight piece of the reference.
//
// Events: rows with equal time are the left and right limits at a discontinuity. With
// EventMatching::kAlign the tube is built per continuous segment between events (the window
// never reaches across a jump, so the tube stays tight next to it), the events of both
// tables are paired by order, and result time is mapped onto reference time piecewise
// linearly between the paired events; a pair within event_time_tol_s is reported as a shift
// and compared after the mapping, so a slightly early event does not fail every signal after
// it. A differing number of events, or a pair further apart than event_time_tol_s, makes the
// comparison fail; the signals are then compared with one tube over the whole range (the
// window reaches across events, as in csv-compare), so the per-signal verdicts still say
// which signals differ by more than delta_t and delta_y.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hdae/result.hpp"

namespace hdae {

/// Per-signal override of the value tolerances; an unset field keeps the global one.
struct SignalTolerance {
  std::optional<double> rel;  ///< fraction of the signal's range; finite, >= 0
  std::optional<double> abs;  ///< absolute floor in the signal's unit; finite, >= 0
};

/// How rows with equal time (event instants) are treated.
enum class EventMatching {
  kAlign,   ///< pair events by order, map time between them, one tube per segment
  kIgnore,  ///< one tube over the whole range, the window reaching across events
};

struct CompareOptions {
  /// Tube half-height relative to the range (max - min) of the signal over the reference;
  /// finite, >= 0.
  double rel_value = 1e-3;
  /// Least tube half-height (absolute, in the signal's unit): keeps signals that are nearly
  /// constant or nearly zero from failing on round-off; finite, >= 0.
  double abs_floor = 1e-6;
  /// Tube half-width in time relative to the reference's time range; in [0, 1).
  double rel_time = 1e-3;
  /// Largest shift (s) of a result event against the paired reference event that is
  /// accepted as a shift; finite, >= 0.
  double event_time_tol_s = 1e-6;
  /// Treatment of event instants.
  EventMatching events = EventMatching::kAlign;
  /// Signals to compare; empty means every signal present in both tables. A named signal
  /// that is missing from either table fails the comparison.
  std::vector<std::string> signals;
  /// Per-signal tolerances (by column name), e.g. from read_tolerance_file().
  std::map<std::string, SignalTolerance, std::less<>> signal_tolerances;
  /// When `signals` is empty: true makes a reference signal that is absent from the result
  /// fail the comparison (a renamed or dropped variable is a regression, not a pass); false
  /// compares the common signals and reports the missing ones as a warning. Signals only in
  /// the result never fail (a result usually has more columns than its reference).
  bool missing_signals_fail = true;

  /// Throws OptionError naming the first violated field and its rule.
  void validate() const;
};

/// Reads per-signal tolerances: one "signal,rel,abs" line per signal (',' or ';'), an
/// optional header line "signal,rel,abs", '#' comments; an empty rel or abs keeps the
/// global value. Throws IoError "<file>:<line>: <problem>" for malformed input, and
/// "<file>: <problem>" for a path that is missing or not a regular file (never opened then).
[[nodiscard]] std::map<std::string, SignalTolerance, std::less<>> read_tolerance_file(
    const std::filesystem::path& file);

/// Outcome for one signal. Times are on the reference's time axis (result times mapped
/// through the event alignment).
struct SignalComparison {
  std::string name;
  bool passed = false;
  double delta_y = 0.0;                   ///< tube half-height used
  std::size_t points_checked = 0;         ///< result points plus reference points
  std::size_t points_outside = 0;         ///< of those, outside the tube
  double max_outside = 0.0;               ///< largest distance beyond the tube (0: none outside)
  double max_outside_t = 0.0;             ///< where (valid when points_outside > 0)
  double max_inside_deviation = 0.0;      ///< largest |result - reference| among inside points
  double max_inside_deviation_t = 0.0;    ///< where
  std::optional<double> first_failure_t;  ///< earliest point outside the tube
  std::string note;  ///< why the signal could not be compared (e.g. non-finite reference)
};

/// One pair of events (reference and result), paired by order.
struct EventShift {
  std::size_t index = 0;     ///< 0-based position among the events
  double reference_t = 0.0;  ///< s
  double result_t = 0.0;     ///< s
  double shift_s = 0.0;      ///< result_t - reference_t
  bool within_tolerance = true;
};

struct CompareReport {
  bool agree = false;    ///< every compared signal passed and no problem below
  double delta_t = 0.0;  ///< tube half-width in time, s
  double reference_start_s = 0.0;
  double reference_stop_s = 0.0;
  std::size_t reference_rows = 0;
  std::size_t result_rows = 0;
  std::size_t reference_events = 0;
  std::size_t result_events = 0;
  /// True when events were paired and result time mapped (kAlign with matching events).
  bool events_aligned = false;
  /// Event pairs when both tables have the same number of events (kAlign only).
  std::vector<EventShift> event_shifts;
  std::vector<SignalComparison> signals;
  std::vector<std::string> only_in_reference;  ///< never compared against zero; see above
  std::vector<std::string> only_in_result;
  /// Why the comparison fails apart from the signals: event count or shift, time range not
  /// covered, a named signal missing, reference signals missing from the result, a name that
  /// several columns of one table carry (such a signal is not compared).
  std::vector<std::string> problems;
  /// What the verdict does not cover but a reader must know: reference signals missing from
  /// the result when CompareOptions::missing_signals_fail is false. Never makes it fail.
  std::vector<std::string> warnings;

  [[nodiscard]] std::size_t failed_signals() const;
  /// A few lines: verdict, warnings, failing signals with their first failing time, problems.
  [[nodiscard]] std::string brief_report() const;
  /// The brief report plus a table per signal, the event shifts and the one-sided signals.
  [[nodiscard]] std::string full_report() const;
  /// The full report as Markdown (a table per signal), for a report directory.
  [[nodiscard]] std::string markdown_report() const;
};

/// Compares result against reference within the tube described above. Throws OptionError
/// for invalid options; everything about the data comes back in the report.
[[nodiscard]] CompareReport compare_results(const ResultTable& reference, const ResultTable& result,
                                            const CompareOptions& options);

/// Reference, tube and result of one signal sampled for a plot: at every reference point,
/// every mapped result point and every corner of the tube, with two rows at an event.
struct SignalTrace {
  std::string name;
  std::vector<double> time;       ///< reference time axis, non-decreasing
  std::vector<double> reference;  ///< reference, linearly interpolated
  std::vector<double> lower;      ///< tube envelope L
  std::vector<double> upper;      ///< tube envelope U
  std::vector<double> result;     ///< result, mapped and interpolated (NaN where not covered)
  std::vector<bool> outside;      ///< true at a checked point that lies outside the tube
};

/// The trace of one signal present in both tables; throws std::out_of_range naming it when
/// it is absent from either or carried by several columns of one, OptionError for invalid
/// options.
[[nodiscard]] SignalTrace trace_signal(const ResultTable& reference, const ResultTable& result,
                                       const CompareOptions& options, std::string_view signal);

/// Writes a trace as CSV: time,reference,lower,upper,result,outside. Throws IoError.
void write_trace_csv(const SignalTrace& trace, const std::filesystem::path& file);

}  // namespace hdae
