#include "simulator/stop_watch.hpp"

#include <fmt/format.h>

namespace hdae::detail {

StopWatch::StopWatch(const std::atomic<bool>* cancel, double max_wall_time_s)
    : cancel_(cancel),
      max_wall_time_s_(max_wall_time_s),
      watched_(cancel != nullptr || max_wall_time_s > 0.0),
      start_(std::chrono::steady_clock::now()) {}

double StopWatch::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

bool StopWatch::poll(ClockRead clock) {
  if (request_) return true;
  // In residual calls the clock is read every 64th call: a clock read costs far less than a
  // residual, but not nothing.
  const bool read_clock = clock == ClockRead::kNow || (++calls_ & 63U) == 0U;
  if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) {
    request_ = Outcome::kInterrupted;
  } else if (max_wall_time_s_ > 0.0 && read_clock && elapsed_s() > max_wall_time_s_) {
    request_ = Outcome::kWallClockLimit;
  }
  return request_.has_value();
}

SimulationStatus StopWatch::status(double t) const {
  if (request_ == Outcome::kInterrupted) {
    return {Outcome::kInterrupted, t, fmt::format("interrupted at t = {}", t)};
  }
  return {Outcome::kWallClockLimit, t,
          fmt::format("wall-clock limit of {} s reached at t = {}", max_wall_time_s_, t)};
}

}  // namespace hdae::detail
