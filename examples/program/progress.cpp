// Progress lines on a terminal (progress.hpp).
#include "program/progress.hpp"

#include <algorithm>
#include <ostream>

#include <fmt/format.h>

namespace hdae::examples {

std::string progress_line(double t, double start_s, double stop_s, std::size_t events) {
  const double span = stop_s - start_s;
  const double done = span > 0.0 ? std::clamp((t - start_s) / span, 0.0, 1.0) : 1.0;
  return fmt::format("t = {:.6g} / {:.6g} s ({:.0f}%), {} event{}", t, stop_s, 100.0 * done, events,
                     events == 1 ? "" : "s");
}

ProgressReporter::ProgressReporter(std::ostream& out, double start_s, double stop_s,
                                   std::chrono::milliseconds interval, Clock clock)
    : out_(out),
      start_s_(start_s),
      stop_s_(stop_s),
      interval_(interval),
      clock_(std::move(clock)),
      t_(start_s) {}

void ProgressReporter::append(double t, std::span<const double> /*values*/) {
  t_ = t;
  const auto now = clock_();
  if (lines_ > 0 && now - last_print_ < interval_) return;
  last_print_ = now;
  print();
}

void ProgressReporter::on_event(const EventRecord& event) {
  if (event.kind != EventKind::kInitial) ++events_;
}

void ProgressReporter::end() {
  if (lines_ == 0) return;
  print();  // where the run ended, whatever the interval
  out_ << '\n' << std::flush;
}

void ProgressReporter::print() {
  const std::string line = progress_line(t_, start_s_, stop_s_, events_);
  // '\r' returns to the line's start; blanks cover the rest of a longer previous line.
  out_ << '\r' << line << std::string(width_ > line.size() ? width_ - line.size() : 0, ' ')
       << std::flush;
  width_ = line.size();
  ++lines_;
}

}  // namespace hdae::examples
