// compare_results (compare.hpp): the tube test of every signal, after the events of both
// tables were paired and result time mapped onto reference time.
#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "event_alignment.hpp"
#include "hdae/compare.hpp"
#include "polyline.hpp"
#include "signal_selection.hpp"
#include "table_layout.hpp"
#include "tube.hpp"

namespace hdae {
namespace {

using compare::Interval;
using compare::Layout;
using compare::PointCheck;
using compare::Polyline;
using compare::Segment;
using compare::SignalColumns;
using compare::TimeProbe;
using compare::WindowProbe;

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
    const std::span<const double> ref_t = compare::rows_of(reference_time, s.reference);
    const std::span<const double> res_t = compare::rows_of(layout.result_time, s.result);
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
  s.delta_y = compare::tube_height(s.name, reference_values, options);
  for (const SegmentChecks& segment : located) {
    const Polyline ref =
        compare::segment_polyline(reference_time, reference_values, segment.reference);
    const std::span<const double> res = compare::rows_of(result_values, segment.result);
    for (const Check& c : segment.checks) {
      const Interval r = compare::value_at(res, c.on_result);
      record(s, c.tau, compare::check_point(ref, c.window, c.on_reference, r, s.delta_y));
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

  const std::vector<SignalColumns> signals =
      compare::select_signals(reference, result, options, report);
  const Layout layout = compare::make_layout(reference, result, options, report);
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

}  // namespace hdae
