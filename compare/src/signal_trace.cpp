// trace_signal and write_trace_csv (compare.hpp): one signal's reference, tube and result
// sampled for a plot, with the points that compare_results checks marked where they fail.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "hdae/compare.hpp"
#include "hdae/errors.hpp"
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

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A time the trace samples, and whether compare_results checks the result there.
using Sample = std::pair<double, bool>;

std::vector<double> column_values(const ResultTable& table, std::size_t j) {
  std::vector<double> values(table.num_rows());
  for (std::size_t i = 0; i < table.num_rows(); ++i) values[i] = table.value(i, j);
  return values;
}

/// The sample times of segment pair k, sorted: every reference point and every mapped result
/// point (both checked), and the corners of the rectangles around the reference points.
void sample_times(std::span<const double> ref_time, const Layout& layout, std::size_t k,
                  const Polyline& ref, std::vector<Sample>& samples) {
  const Segment& rs = layout.reference_segments[k];
  const Segment& ps = layout.result_segments[k];
  const double dt = layout.delta_t;
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
}

void append_row(SignalTrace& trace, double tau, double ref, const PointCheck& c, double res,
                bool outside) {
  trace.time.push_back(tau);
  trace.reference.push_back(ref);
  trace.lower.push_back(c.lower);
  trace.upper.push_back(c.upper);
  trace.result.push_back(res);
  trace.outside.push_back(outside);
}

/// The rows at one time: the left limits, and a second row of right limits where either curve
/// jumps (events inside one tube, kIgnore or unpaired). Only a checked time that the result
/// covers can lie outside.
void append_rows_at(const Polyline& ref, const Polyline& res, double tau, bool checked,
                    double delta_t, double delta_y, SignalTrace& trace) {
  const bool covered = tau >= res.front_t() && tau <= res.back_t();
  const double res_left = covered ? res.left_value(tau) : kNaN;
  const double res_right = covered ? res.right_value(tau) : kNaN;
  const double ref_left = ref.left_value(tau);
  const double ref_right = ref.right_value(tau);
  const PointCheck left =
      compare::check_point(ref, tau, Interval{res_left, res_left}, delta_t, delta_y);
  const bool left_outside = checked && covered && left.outside > 0.0;
  append_row(trace, tau, ref_left, left, res_left, left_outside);
  if (ref_right != ref_left || res_right != res_left) {
    const PointCheck right =
        compare::check_point(ref, tau, Interval{res_right, res_right}, delta_t, delta_y);
    append_row(trace, tau, ref_right, right, res_right, checked && covered && right.outside > 0.0);
  }
}

/// The rows of one pair of segments, at each distinct sample time once: checked when any of
/// its samples is.
void trace_segment(const Polyline& ref, const Polyline& res, std::span<const Sample> samples,
                   double delta_t, double delta_y, SignalTrace& trace) {
  for (std::size_t j = 0; j < samples.size(); ++j) {
    const double tau = samples[j].first;
    bool checked = samples[j].second;
    while (j + 1 < samples.size() && samples[j + 1].first == tau) {
      ++j;
      checked = checked || samples[j].second;
    }
    append_rows_at(ref, res, tau, checked, delta_t, delta_y, trace);
  }
}

}  // namespace

SignalTrace trace_signal(const ResultTable& reference, const ResultTable& result,
                         const CompareOptions& options, std::string_view signal) {
  options.validate();
  const compare::SignalColumns columns = compare::traced_columns(reference, result, signal);
  SignalTrace trace;
  trace.name = signal;
  CompareReport scratch;
  const Layout layout = compare::make_layout(reference, result, options, scratch);
  if (layout.reference_segments.empty()) return trace;

  const std::vector<double> ref_values = column_values(reference, columns.reference_column);
  const std::vector<double> res_values = column_values(result, columns.result_column);
  const std::span<const double> ref_time = reference.time();
  const double dy = compare::tube_height(signal, ref_values, options);
  std::vector<Sample> samples;
  for (std::size_t k = 0; k < layout.reference_segments.size(); ++k) {
    const Polyline ref =
        compare::segment_polyline(ref_time, ref_values, layout.reference_segments[k]);
    const Polyline res =
        compare::segment_polyline(layout.result_time, res_values, layout.result_segments[k]);
    sample_times(ref_time, layout, k, ref, samples);
    trace_segment(ref, res, samples, layout.delta_t, dy, trace);
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
