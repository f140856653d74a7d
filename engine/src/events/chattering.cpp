#include "events/chattering.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace hdae::detail {

std::optional<ChatteringVerdict> ChatteringDetector::add(
    double t, const std::vector<std::string>& crossings) {
  times_.push_back(t);
  for (const std::string& c : crossings) {
    if (std::find(crossings_.begin(), crossings_.end(), c) == crossings_.end()) {
      crossings_.push_back(c);
    }
  }
  const auto w = static_cast<std::size_t>(window_);
  // Keep window + 1 times, i.e. `window` spacings.
  if (times_.size() > w + 1) {
    times_.erase(times_.begin());
  }
  if (times_.size() < w + 1) return std::nullopt;

  bool shrinking = true;
  bool all_tiny = true;
  for (std::size_t k = 1; k < times_.size(); ++k) {
    const double d = times_[k] - times_[k - 1];
    if (d >= min_spacing_s_) all_tiny = false;
    if (k >= 2 && !(d < times_[k - 1] - times_[k - 2])) shrinking = false;
  }
  const double first = times_[1] - times_[0];
  const double last = times_.back() - times_[times_.size() - 2];
  const double before_last = times_[times_.size() - 2] - times_[times_.size() - 3];
  const bool geometric = shrinking && last < first / 100.0;
  if (!geometric && !all_tiny) {
    if (!shrinking) {
      // A new regime starts: only crossings of the current window are reported.
      crossings_ = crossings;
    }
    return std::nullopt;
  }

  ChatteringVerdict v;
  std::string names;
  for (const std::string& c : crossings_)
    names += fmt::format("{}'{}'", names.empty() ? "" : ", ", c);
  if (geometric) {
    const double ratio = last / before_last;
    v.accumulation_time_s = t + last * ratio / (1.0 - ratio);
    v.message = fmt::format(
        "events accumulate at t = {:.9g} s (Zeno behaviour): {} consecutive events of crossing {} "
        "with spacing shrinking from {:.3g} s to {:.3g} s (factor {:.3g} per event); estimated "
        "accumulation time {:.9g} s",
        t, window_, names, first, last, ratio, v.accumulation_time_s);
  } else {
    v.accumulation_time_s = t;
    v.message = fmt::format(
        "events accumulate at t = {:.9g} s (chattering): {} consecutive events of crossing {} "
        "less than {:.3g} s apart",
        t, window_, names, min_spacing_s_);
  }
  return v;
}

}  // namespace hdae::detail
