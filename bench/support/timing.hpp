// Wall-clock measurement for the benchmarks (docs/benchmarks.md): the machine is shared, so
// a comparison runs both contenders alternately in the same process (interleaved, the order
// swapped every round) and reports medians; the ratio of medians and the median of the
// per-round ratios are both given, and they agree when the load was steady.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

namespace hdae::bench {

using Clock = std::chrono::steady_clock;

[[nodiscard]] inline double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

/// User plus system CPU time of this process so far, all its threads together (getrusage):
/// less sensitive to the machine's load than wall time, and it shows what extra threads burn.
[[nodiscard]] double cpu_seconds();

/// Seconds taken by one call of f.
[[nodiscard]] double time_call(const std::function<void()>& f);

/// CPU time of the calling thread so far (CLOCK_THREAD_CPUTIME_ID, nanosecond resolution):
/// the time the thread ran, without the time other processes held its core.
[[nodiscard]] double thread_cpu_seconds();

/// Median of the values (the mean of the two middle ones for an even count); NaN when empty.
[[nodiscard]] double median(std::vector<double> values);

struct InterleavedTimes {
  std::vector<double> a_s;      ///< seconds per round, contender a
  std::vector<double> b_s;      ///< seconds per round, contender b
  std::vector<double> a_cpu_s;  ///< the thread's CPU seconds in the same rounds, contender a
  std::vector<double> b_cpu_s;  ///< the same, contender b

  [[nodiscard]] double median_a_s() const { return median(a_s); }
  [[nodiscard]] double median_b_s() const { return median(b_s); }
  /// median(a) / median(b)
  [[nodiscard]] double ratio_of_medians() const { return median_a_s() / median_b_s(); }
  /// median over rounds of a_i / b_i
  [[nodiscard]] double median_of_ratios() const;
  /// median over rounds of a_cpu_i / b_cpu_i
  [[nodiscard]] double median_of_cpu_ratios() const;
};

/// rounds x (a, b), a first in even rounds and b first in odd ones.
[[nodiscard]] InterleavedTimes interleave(std::size_t rounds, const std::function<void()>& a,
                                          const std::function<void()>& b);

/// How many calls of f make one timed sample of at least min_sample_s (at least one), from
/// one trial call.
[[nodiscard]] std::size_t calls_per_sample(const std::function<void()>& f, double min_sample_s);

}  // namespace hdae::bench
