// compare_results and trace_signal (compare.hpp): the tube test of every signal, after the
// events of both tables were paired and result time mapped onto reference time.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>

#include "event_alignment.hpp"
#include "hdae/compare.hpp"
#include "hdae/errors.hpp"
#include "name_list.hpp"
#include "polyline.hpp"

namespace hdae {
namespace {

using compare::EventInstant;
using compare::Interval;
using compare::Polyline;
using compare::Segment;
using compare::TimeProbe;
using compare::WindowProbe;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// factor * (hi - lo) for lo <= hi without overflow: the span of values near the ends of
/// the double range overflows to inf, which would make every tube (or time window) infinite
/// however small the factor; halves do not overflow. Inf only when the product itself does.
double scaled_span(double factor, double lo, double hi) {
  const double span = hi - lo;
  if (std::isfinite(span)) return factor * span;
  return 2.0 * (factor * (hi / 2 - lo / 2));
}

/// How the rows of both tables line up: segment k of the result is compared with segment k
/// of the reference, result rows sit at result_time (the reference's axis).
struct Layout {
  std::vector<Segment> reference_segments;
  std::vector<Segment> result_segments;
  std::vector<double> result_time;
  double delta_t = 0.0;
};

/// Fills the report's table and event facts and returns the layout, with no segments when
/// either table has no rows.
Layout make_layout(const ResultTable& reference, const ResultTable& result,
                   const CompareOptions& options, CompareReport& report) {
  Layout layout;
  report.reference_rows = reference.num_rows();
  report.result_rows = result.num_rows();
  if (reference.num_rows() == 0) report.problems.emplace_back("the reference has no rows");
  if (result.num_rows() == 0) report.problems.emplace_back("the result has no rows");
  if (reference.num_rows() == 0 || result.num_rows() == 0) return layout;

  const double t_start = reference.time().front();
  const double t_stop = reference.time().back();
  report.reference_start_s = t_start;
  report.reference_stop_s = t_stop;
  layout.delta_t = scaled_span(options.rel_time, t_start, t_stop);
  report.delta_t = layout.delta_t;

  const std::vector<EventInstant> reference_events = compare::find_events(reference.time());
  const std::vector<EventInstant> result_events = compare::find_events(result.time());
  report.reference_events = reference_events.size();
  report.result_events = result_events.size();

  compare::TimeMap map;
  if (options.events == EventMatching::kAlign) {
    compare::EventPairing pairing =
        compare::pair_events(reference_events, result_events, options.event_time_tol_s);
    report.event_shifts = std::move(pairing.shifts);
    for (std::string& p : pairing.problems) report.problems.push_back(std::move(p));
    report.events_aligned = pairing.aligned;
  }
  if (report.events_aligned) {
    layout.reference_segments = compare::segments_between(reference_events, reference.num_rows());
    layout.result_segments = compare::segments_between(result_events, result.num_rows());
    map = compare::TimeMap(reference_events, result_events, t_start, t_stop);
  } else {
    // One tube over the whole range, reaching across events (csv-compare's behaviour).
    layout.reference_segments = {Segment{0, reference.num_rows() - 1}};
    layout.result_segments = {Segment{0, result.num_rows() - 1}};
  }
  layout.result_time.reserve(result.num_rows());
  for (const double t : result.time()) layout.result_time.push_back(map(t));

  // The result must cover the reference's range up to the tube's width (plus round-off of
  // the times as another tool may have printed them).
  const double slack =
      layout.delta_t + std::max({1e-12 * std::abs(t_start), 1e-12 * std::abs(t_stop),
                                 scaled_span(1e-12, t_start, t_stop)});
  if (layout.result_time.front() > t_start + slack) {
    report.problems.push_back(
        fmt::format("the result starts at t = {}, after the reference's "
                    "start t = {}",
                    result.time().front(), t_start));
  }
  if (layout.result_time.back() < t_stop - slack) {
    report.problems.push_back(
        fmt::format("the result ends at t = {}, before the reference's "
                    "end t = {}",
                    result.time().back(), t_stop));
  }
  return layout;
}

/// The columns of a table by name (views into the table's names). A name carried by several
/// columns (read_csv rejects such a file, a table built in code may have one) is not compared:
/// which of them would the verdict be about?
struct ColumnIndex {
  std::unordered_map<std::string_view, std::size_t> first_column;
  std::unordered_map<std::string_view, std::size_t> columns_named;  ///< how many carry the name
  std::vector<std::string_view> repeated;  ///< names carried by several, in table order

  explicit ColumnIndex(const ResultTable& table) {
    first_column.reserve(table.num_columns());
    columns_named.reserve(table.num_columns());
    for (std::size_t j = 0; j < table.num_columns(); ++j) {
      const std::string_view name = table.columns()[j].name;
      first_column.try_emplace(name, j);
      if (++columns_named[name] == 2) repeated.push_back(name);
    }
  }
  [[nodiscard]] bool contains(std::string_view name) const { return first_column.contains(name); }
  [[nodiscard]] bool is_repeated(std::string_view name) const {
    const auto it = columns_named.find(name);
    return it != columns_named.end() && it->second > 1;
  }
  [[nodiscard]] bool is_first(std::string_view name, std::size_t column) const {
    return first_column.at(name) == column;
  }
};

/// One signal to compare: its name and its column in either table.
struct SignalColumns {
  std::string_view name;
  std::size_t reference_column = 0;
  std::size_t result_column = 0;
};

/// The signals to compare (options.signals, else every reference signal in the result), and
/// the report's one-sided lists and problems about names.
std::vector<SignalColumns> select_signals(const ResultTable& reference, const ResultTable& result,
                                          const CompareOptions& options, CompareReport& report) {
  const ColumnIndex in_reference(reference);
  const ColumnIndex in_result(result);
  for (const auto& [table, index] :
       {std::pair{"reference", &in_reference}, std::pair{"result", &in_result}}) {
    for (const std::string_view name : index->repeated) {
      report.problems.push_back(
          fmt::format("the {} has {} columns named \"{}\"; it is not compared", table,
                      index->columns_named.at(name), name));
    }
  }
  for (std::size_t j = 0; j < reference.num_columns(); ++j) {
    const std::string& name = reference.columns()[j].name;
    if (!in_result.contains(name) && in_reference.is_first(name, j)) {
      report.only_in_reference.push_back(name);
    }
  }
  for (std::size_t j = 0; j < result.num_columns(); ++j) {
    const std::string& name = result.columns()[j].name;
    if (!in_reference.contains(name) && in_result.is_first(name, j)) {
      report.only_in_result.push_back(name);
    }
  }
  auto comparable = [&](std::string_view name) {
    return in_reference.contains(name) && in_result.contains(name) &&
           !in_reference.is_repeated(name) && !in_result.is_repeated(name);
  };
  auto columns_of = [&](std::string_view name) {
    return SignalColumns{name, in_reference.first_column.at(name), in_result.first_column.at(name)};
  };

  std::vector<SignalColumns> signals;
  if (options.signals.empty()) {
    for (const ColumnInfo& c : reference.columns()) {
      if (comparable(c.name)) signals.push_back(columns_of(c.name));
    }
    if (!report.only_in_reference.empty()) {
      const std::string missing = fmt::format(
          "{} signal{} of the reference missing from the result: {}",
          report.only_in_reference.size(), report.only_in_reference.size() == 1 ? "" : "s",
          compare::name_list(report.only_in_reference));
      if (options.missing_signals_fail) {
        report.problems.push_back(missing);
      } else {
        report.warnings.push_back(missing + " (not compared)");
      }
    }
    return signals;
  }
  std::unordered_set<std::string_view> named;
  for (const std::string& name : options.signals) {
    if (!named.insert(name).second) continue;  // named twice, compared once
    const bool in_both = in_reference.contains(name) && in_result.contains(name);
    if (comparable(name)) {
      signals.push_back(columns_of(name));
    } else if (!in_both) {
      report.problems.push_back(fmt::format(
          "signal \"{}\" is {}", name,
          in_reference.contains(name)
              ? "not in the result"
              : (in_result.contains(name) ? "not in the reference" : "in neither table")));
    }
  }
  return signals;
}

std::vector<double> column_values(const ResultTable& table, std::size_t j) {
  std::vector<double> values(table.num_rows());
  for (std::size_t i = 0; i < table.num_rows(); ++i) values[i] = table.value(i, j);
  return values;
}

/// Signals whose columns are copied out of the tables together: a row-major table of 10^5
/// columns read one column at a time would touch a new cache line (and page) per value; 512
/// columns are a 4 KiB page of each row.
constexpr std::size_t kColumnsPerBatch = 512;

/// out[k] = the values of column batch[k].*column over all rows, read row by row.
void gather_columns(const ResultTable& table, std::span<const SignalColumns> batch,
                    std::size_t SignalColumns::*column, std::vector<std::vector<double>>& out) {
  out.resize(batch.size());
  for (std::vector<double>& values : out) values.resize(table.num_rows());
  for (std::size_t i = 0; i < table.num_rows(); ++i) {
    const std::span<const double> row = table.row(i);
    for (std::size_t k = 0; k < batch.size(); ++k) out[k][i] = row[batch[k].*column];
  }
}

/// Tube half-height of one signal: max(rel * range over the reference, abs), with the
/// signal's own tolerances where given. Non-finite reference values do not count.
double tube_height(std::string_view name, std::span<const double> reference,
                   const CompareOptions& options) {
  double rel = options.rel_value;
  double abs = options.abs_floor;
  if (const auto it = options.signal_tolerances.find(name); it != options.signal_tolerances.end()) {
    rel = it->second.rel.value_or(rel);
    abs = it->second.abs.value_or(abs);
  }
  double lo = kInf;
  double hi = -kInf;
  for (const double v : reference) {
    if (!std::isfinite(v)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  return hi >= lo ? std::max(scaled_span(rel, lo, hi), abs) : abs;
}

/// The rows of one segment.
std::span<const double> rows_of(std::span<const double> values, const Segment& s) {
  return values.subspan(s.first_row, s.last_row - s.first_row + 1);
}

Polyline segment_polyline(std::span<const double> time, std::span<const double> values,
                          const Segment& s) {
  return Polyline(rows_of(time, s), rows_of(values, s));
}

/// The tube at tau and where a result value (an interval at a jump) lies relative to it.
struct PointCheck {
  double lower = 0.0;
  double upper = 0.0;
  double outside = 0.0;    ///< distance beyond the tube; 0 inside; infinite for NaN
  double deviation = 0.0;  ///< distance to the reference's value(s) at tau
};

/// The tube over `window` (the window [tau - delta_t, tau + delta_t] on the reference's time
/// axis) and a result value at tau, where the reference is at `at`.
PointCheck check_point(const Polyline& reference, const WindowProbe& window, const TimeProbe& at,
                       Interval result, double delta_y) {
  PointCheck c;
  const Interval extrema = reference.extrema(window);
  c.lower = extrema.lo - delta_y;
  c.upper = extrema.hi + delta_y;
  if (std::isnan(result.lo) || std::isnan(result.hi)) {
    c.outside = kInf;
    c.deviation = kInf;
    return c;
  }
  c.outside = std::max({0.0, result.lo - c.upper, c.lower - result.hi});
  const Interval v = reference.value_at(at);
  c.deviation = std::max({0.0, result.lo - v.hi, v.lo - result.hi});
  return c;
}

PointCheck check_point(const Polyline& reference, double tau, Interval result, double delta_t,
                       double delta_y) {
  return check_point(reference,
                     compare::locate_window(reference.time(), tau - delta_t, tau + delta_t),
                     compare::locate(reference.time(), tau), result, delta_y);
}

/// A point where the result is checked against the tube, located on the time axes of both
/// segments. Where a time falls depends on the times alone, so the checks are located once
/// and serve every signal.
struct Check {
  double tau = 0.0;        ///< on the reference's time axis
  WindowProbe window;      ///< [tau - delta_t, tau + delta_t] on the reference segment
  TimeProbe on_reference;  ///< tau on the reference segment (for the deviation)
  TimeProbe on_result;     ///< the result's row at tau, or tau on the result segment
};

/// The checks of one pair of segments: every result point, then the result interpolated at
/// every reference point; rows are counted from each segment's first row.
struct SegmentChecks {
  Segment reference;
  Segment result;
  std::vector<Check> checks;
};

std::vector<SegmentChecks> locate_checks(const Layout& layout,
                                         std::span<const double> reference_time) {
  std::vector<SegmentChecks> located;
  for (std::size_t k = 0; k < layout.reference_segments.size(); ++k) {
    SegmentChecks s{layout.reference_segments[k], layout.result_segments[k], {}};
    const std::span<const double> ref_t = rows_of(reference_time, s.reference);
    const std::span<const double> res_t = rows_of(layout.result_time, s.result);
    auto add = [&](double tau, const TimeProbe& on_result) {
      s.checks.push_back(
          Check{tau, compare::locate_window(ref_t, tau - layout.delta_t, tau + layout.delta_t),
                compare::locate(ref_t, tau), on_result});
    };
    // Every result point (its own row: at an event inside one tube, the limit it is) ...
    for (std::size_t i = 0; i < res_t.size(); ++i) {
      const double tau = res_t[i];
      if (tau < ref_t.front() || tau > ref_t.back()) continue;  // beyond the reference
      add(tau, TimeProbe{i, i + 1, 0.0});
    }
    // ... and the result, interpolated, at every reference point.
    for (const double tau : ref_t) {
      if (tau < res_t.front() || tau > res_t.back()) continue;  // not covered: a problem
      add(tau, compare::locate(res_t, tau));
    }
    located.push_back(std::move(s));
  }
  return located;
}

void record(SignalComparison& s, double tau, const PointCheck& c) {
  ++s.points_checked;
  if (c.outside > 0.0) {
    ++s.points_outside;
    if (s.points_outside == 1 || c.outside > s.max_outside) {
      s.max_outside = c.outside;
      s.max_outside_t = tau;
    }
    if (!s.first_failure_t || tau < *s.first_failure_t) s.first_failure_t = tau;
  } else if (c.deviation > s.max_inside_deviation) {
    s.max_inside_deviation = c.deviation;
    s.max_inside_deviation_t = tau;
  }
}

SignalComparison compare_signal(std::string name, std::span<const double> reference_time,
                                std::span<const double> reference_values,
                                std::span<const double> result_values,
                                const std::vector<SegmentChecks>& located,
                                const CompareOptions& options) {
  SignalComparison s;
  s.name = std::move(name);
  for (std::size_t i = 0; i < reference_values.size(); ++i) {
    if (!std::isfinite(reference_values[i])) {
      s.note = fmt::format("the reference value {} at t = {} is not finite; no tube",
                           reference_values[i], reference_time[i]);
      return s;
    }
  }
  s.delta_y = tube_height(s.name, reference_values, options);
  for (const SegmentChecks& segment : located) {
    const Polyline ref = segment_polyline(reference_time, reference_values, segment.reference);
    const std::span<const double> res = rows_of(result_values, segment.result);
    for (const Check& c : segment.checks) {
      const Interval r = compare::value_at(res, c.on_result);
      record(s, c.tau, check_point(ref, c.window, c.on_reference, r, s.delta_y));
    }
  }
  s.passed = s.points_outside == 0;
  return s;
}

}  // namespace

CompareReport compare_results(const ResultTable& reference, const ResultTable& result,
                              const CompareOptions& options) {
  options.validate();
  CompareReport report;

  const std::vector<SignalColumns> signals = select_signals(reference, result, options, report);
  const Layout layout = make_layout(reference, result, options, report);
  if (signals.empty() && report.problems.empty()) {
    report.problems.emplace_back("no signal to compare: the tables share no column");
  }
  if (!layout.reference_segments.empty()) {
    const std::vector<SegmentChecks> located = locate_checks(layout, reference.time());
    report.signals.reserve(signals.size());
    std::vector<std::vector<double>> ref;
    std::vector<std::vector<double>> res;
    for (std::size_t first = 0; first < signals.size(); first += kColumnsPerBatch) {
      const std::span<const SignalColumns> batch =
          std::span(signals).subspan(first, std::min(kColumnsPerBatch, signals.size() - first));
      gather_columns(reference, batch, &SignalColumns::reference_column, ref);
      gather_columns(result, batch, &SignalColumns::result_column, res);
      for (std::size_t k = 0; k < batch.size(); ++k) {
        report.signals.push_back(compare_signal(std::string(batch[k].name), reference.time(),
                                                ref[k], res[k], located, options));
      }
    }
  }
  report.agree = report.problems.empty() && report.failed_signals() == 0;
  return report;
}

SignalTrace trace_signal(const ResultTable& reference, const ResultTable& result,
                         const CompareOptions& options, std::string_view signal) {
  options.validate();
  const ColumnIndex reference_index(reference);
  const ColumnIndex result_index(result);
  const auto ref_it = reference_index.first_column.find(signal);
  const auto res_it = result_index.first_column.find(signal);
  if (ref_it == reference_index.first_column.end() || res_it == result_index.first_column.end()) {
    throw std::out_of_range(
        fmt::format("signal \"{}\" is not in the {}", signal,
                    ref_it == reference_index.first_column.end() ? "reference" : "result"));
  }
  for (const auto& [table, index] :
       {std::pair{"reference", &reference_index}, std::pair{"result", &result_index}}) {
    if (index->is_repeated(signal)) {
      throw std::out_of_range(fmt::format("the {} has {} columns named \"{}\"", table,
                                          index->columns_named.at(signal), signal));
    }
  }
  SignalTrace trace;
  trace.name = signal;
  CompareReport scratch;
  const Layout layout = make_layout(reference, result, options, scratch);
  if (layout.reference_segments.empty()) return trace;

  const std::vector<double> ref_values = column_values(reference, ref_it->second);
  const std::vector<double> res_values = column_values(result, res_it->second);
  const std::span<const double> ref_time = reference.time();
  const double dt = layout.delta_t;
  const double dy = tube_height(signal, ref_values, options);

  auto emit = [&](double tau, double ref, const PointCheck& c, double res, bool outside) {
    trace.time.push_back(tau);
    trace.reference.push_back(ref);
    trace.lower.push_back(c.lower);
    trace.upper.push_back(c.upper);
    trace.result.push_back(res);
    trace.outside.push_back(outside);
  };

  std::vector<std::pair<double, bool>> samples;  // (time, checked by compare_results)
  for (std::size_t k = 0; k < layout.reference_segments.size(); ++k) {
    const Segment& rs = layout.reference_segments[k];
    const Segment& ps = layout.result_segments[k];
    const Polyline ref = segment_polyline(ref_time, ref_values, rs);
    const Polyline res = segment_polyline(layout.result_time, res_values, ps);
    samples.clear();
    for (std::size_t i = rs.first_row; i <= rs.last_row; ++i) {
      samples.emplace_back(ref_time[i], true);
      // The envelope bends where a rectangle's edge enters or leaves the window.
      for (const double corner : {ref_time[i] - dt, ref_time[i] + dt}) {
        if (corner > ref.front_t() && corner < ref.back_t()) samples.emplace_back(corner, false);
      }
    }
    for (std::size_t i = ps.first_row; i <= ps.last_row; ++i) {
      const double tau = layout.result_time[i];
      if (tau >= ref.front_t() && tau <= ref.back_t()) samples.emplace_back(tau, true);
    }
    std::sort(samples.begin(), samples.end());
    for (std::size_t j = 0; j < samples.size(); ++j) {
      const double tau = samples[j].first;
      bool checked = samples[j].second;
      while (j + 1 < samples.size() && samples[j + 1].first == tau) {
        ++j;
        checked = checked || samples[j].second;
      }
      const bool covered = tau >= res.front_t() && tau <= res.back_t();
      const double res_left = covered ? res.left_value(tau) : kNaN;
      const double res_right = covered ? res.right_value(tau) : kNaN;
      const double ref_left = ref.left_value(tau);
      const double ref_right = ref.right_value(tau);
      const PointCheck left = check_point(ref, tau, Interval{res_left, res_left}, dt, dy);
      const bool left_outside = checked && covered && left.outside > 0.0;
      emit(tau, ref_left, left, res_left, left_outside);
      // Two rows where either curve jumps (events inside one tube, kIgnore or unpaired).
      if (ref_right != ref_left || res_right != res_left) {
        const PointCheck right = check_point(ref, tau, Interval{res_right, res_right}, dt, dy);
        emit(tau, ref_right, right, res_right, checked && covered && right.outside > 0.0);
      }
    }
  }
  return trace;
}

void write_trace_csv(const SignalTrace& trace, const std::filesystem::path& file) {
  fmt::memory_buffer out;
  out.append(std::string_view("time,reference,lower,upper,result,outside\n"));
  auto number = [&out](double v) {
    if (std::isnan(v)) {
      out.append(std::string_view("nan"));
    } else {
      fmt::format_to(std::back_inserter(out), "{}", v);
    }
  };
  for (std::size_t i = 0; i < trace.time.size(); ++i) {
    number(trace.time[i]);
    for (const double v : {trace.reference[i], trace.lower[i], trace.upper[i], trace.result[i]}) {
      out.push_back(',');
      number(v);
    }
    out.append(std::string_view(trace.outside[i] ? ",1\n" : ",0\n"));
  }
  std::ofstream f(file, std::ios::binary);
  if (!f) throw IoError(fmt::format("{}: cannot open for writing", file.string()));
  f.write(out.data(), static_cast<std::streamsize>(out.size()));
  f.close();
  if (!f) throw IoError(fmt::format("{}: write failed", file.string()));
}

}  // namespace hdae
