// The run's stop conditions that come from outside the model: the cancel flag
// (SimulationOptions::cancel, e.g. set by a SIGINT handler) and the wall-clock limit
// (max_wall_time_s). Polled on every residual call, after every IDA step, between output rows
// and after every pass of an event iteration; once a request is noticed it stays.
#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <string>

#include "hdae/status.hpp"

namespace hdae::detail {

class StopWatch {
 public:
  StopWatch(const std::atomic<bool>* cancel, double max_wall_time_s);

  /// Starts the wall clock (at the beginning of the run).
  void start() { start_ = std::chrono::steady_clock::now(); }
  [[nodiscard]] double elapsed_s() const;
  /// Whether the run must stop, reading the clock every 64th call: on the hot path, where the
  /// common case (neither condition given) is decided inline.
  bool requested() { return watched_ && poll(ClockRead::kEvery64thCall); }
  /// The same, reading the clock now (where a call costs far more than a clock read).
  bool requested_now() { return watched_ && poll(ClockRead::kNow); }
  /// kInterrupted or kWallClockLimit once noticed.
  [[nodiscard]] const std::optional<Outcome>& request() const { return request_; }
  /// The status of the noticed request at t: "interrupted at t = ..." or "wall-clock limit of
  /// ... s reached at t = ...".
  [[nodiscard]] SimulationStatus status(double t) const;

 private:
  enum class ClockRead { kEvery64thCall, kNow };
  bool poll(ClockRead clock);

  const std::atomic<bool>* cancel_;
  double max_wall_time_s_;
  bool watched_;
  unsigned calls_ = 0;
  std::optional<Outcome> request_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace hdae::detail
