#include "support/timing.hpp"

#include <sys/resource.h>

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

double median(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const std::size_t m = values.size() / 2;
  return values.size() % 2 == 1 ? values[m] : 0.5 * (values[m - 1] + values[m]);
}

double InterleavedTimes::median_of_ratios() const {
  std::vector<double> ratios;
  for (std::size_t i = 0; i < a_s.size() && i < b_s.size(); ++i) ratios.push_back(a_s[i] / b_s[i]);
  return median(ratios);
}

InterleavedTimes interleave(std::size_t rounds, const std::function<void()>& a,
                            const std::function<void()>& b) {
  InterleavedTimes times;
  for (std::size_t round = 0; round < rounds; ++round) {
    if (round % 2 == 0) {
      times.a_s.push_back(time_call(a));
      times.b_s.push_back(time_call(b));
    } else {
      times.b_s.push_back(time_call(b));
      times.a_s.push_back(time_call(a));
    }
  }
  return times;
}

std::size_t calls_per_sample(const std::function<void()>& f, double min_sample_s) {
  const double once = std::max(time_call(f), 1e-9);
  return static_cast<std::size_t>(std::max(1.0, std::ceil(min_sample_s / once)));
}

}  // namespace hdae::bench
