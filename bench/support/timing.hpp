// Measurement for the benchmarks (docs/benchmarks.md): the machine is shared, so a comparison
// runs both contenders alternately in the same process (interleaved, the order swapped every
// round) and reports the least CPU time of each over the rounds: the load only ever adds time,
// so the minimum is the run closest to what the code itself costs, and the ratio of minima the
// comparison least moved by other jobs.
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

/// The least of the values; NaN when empty.
[[nodiscard]] double minimum(const std::vector<double>& values);

struct InterleavedTimes {
  std::vector<double> a_s;      ///< wall seconds per round, contender a
  std::vector<double> b_s;      ///< wall seconds per round, contender b
  std::vector<double> a_cpu_s;  ///< the thread's CPU seconds in the same rounds, contender a
  std::vector<double> b_cpu_s;  ///< the same, contender b

  [[nodiscard]] double min_a_cpu_s() const { return minimum(a_cpu_s); }
  [[nodiscard]] double min_b_cpu_s() const { return minimum(b_cpu_s); }
  /// min(a_cpu) / min(b_cpu)
  [[nodiscard]] double ratio_of_min_cpu() const { return min_a_cpu_s() / min_b_cpu_s(); }
};

/// rounds x (a, b), a first in even rounds and b first in odd ones.
[[nodiscard]] InterleavedTimes interleave(std::size_t rounds, const std::function<void()>& a,
                                          const std::function<void()>& b);

/// How many calls of f make one timed sample of at least min_sample_s (at least one), from
/// one trial call.
[[nodiscard]] std::size_t calls_per_sample(const std::function<void()>& f, double min_sample_s);

}  // namespace hdae::bench
