#include "support/timing.hpp"

#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace hdae::bench {

double cpu_seconds() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double time_call(const std::function<void()>& f) {
  const Clock::time_point start = Clock::now();
  f();
  return seconds_between(start, Clock::now());
}

double thread_cpu_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double minimum(const std::vector<double>& values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  return *std::min_element(values.begin(), values.end());
}

namespace {

/// One timed call: wall and thread CPU seconds appended.
void timed(const std::function<void()>& f, std::vector<double>& wall_s,
           std::vector<double>& cpu_s) {
  const double cpu_start = thread_cpu_seconds();
  wall_s.push_back(time_call(f));
  cpu_s.push_back(thread_cpu_seconds() - cpu_start);
}

}  // namespace

InterleavedTimes interleave(std::size_t rounds, const std::function<void()>& a,
                            const std::function<void()>& b) {
  InterleavedTimes t;
  for (std::size_t round = 0; round < rounds; ++round) {
    if (round % 2 == 0) {
      timed(a, t.a_s, t.a_cpu_s);
      timed(b, t.b_s, t.b_cpu_s);
    } else {
      timed(b, t.b_s, t.b_cpu_s);
      timed(a, t.a_s, t.a_cpu_s);
    }
  }
  return t;
}

std::size_t calls_per_sample(const std::function<void()>& f, double min_sample_s) {
  const double once = std::max(time_call(f), 1e-9);
  return static_cast<std::size_t>(std::max(1.0, std::ceil(min_sample_s / once)));
}

}  // namespace hdae::bench
