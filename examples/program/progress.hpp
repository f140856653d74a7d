// Progress of a long run on a terminal: one line "t = 120 / 500 s (24%), 3 events" rewritten in
// place ('\r') as rows and events arrive, at most once per interval (0.1 s), so a run with
// millions of rows does not spend its time printing; a last line and '\n' when the run ends.
// The program creates it only when standard error is a terminal: a log file or a pipe gets
// no progress lines.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "hdae/row_sink.hpp"

namespace hdae::examples {

/// "t = <t> / <stop> s (<percent>%), <n> event(s)", the percentage of [start, stop] done.
[[nodiscard]] std::string progress_line(double t, double start_s, double stop_s,
                                        std::size_t events);

class ProgressReporter final : public RowSink, public EventObserver {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  ProgressReporter(std::ostream& out, double start_s, double stop_s,
                   std::chrono::milliseconds interval = std::chrono::milliseconds(100),
                   Clock clock = std::chrono::steady_clock::now);

  void begin(const std::vector<ColumnInfo>& /*columns*/) override {}
  void append(double t, std::span<const double> values) override;
  void end() override;
  /// Counts every event but the one at t0.
  void on_event(const EventRecord& event) override;

  /// How many lines were printed so far.
  [[nodiscard]] std::size_t lines() const { return lines_; }

 private:
  void print();

  std::ostream& out_;
  double start_s_;
  double stop_s_;
  std::chrono::milliseconds interval_;
  Clock clock_;
  std::chrono::steady_clock::time_point last_print_{};
  double t_;
  std::size_t events_ = 0;
  std::size_t lines_ = 0;
  std::size_t width_ = 0;  ///< length of the last line, overwritten with blanks if longer
};

}  // namespace hdae::examples
