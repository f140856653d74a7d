#include "events/chattering.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace hdae::detail {

ChatteringDetector::ChatteringDetector(const ChatteringSettings& settings,
                                       std::vector<std::string> crossing_names)
    : settings_(settings),
      crossing_names_(std::move(crossing_names)),
      capacity_(static_cast<std::size_t>(std::max(settings.window, settings.dense_window)) + 1),
      times_(capacity_, 0.0),
      causes_(capacity_) {}

double ChatteringDetector::time_back(std::size_t k) const {
  return times_[(next_ + capacity_ - 1 - k) % capacity_];
}

std::string ChatteringDetector::names_of_last(std::size_t events) const {
  std::vector<std::size_t> crossings;
  for (std::size_t k = 0; k < events; ++k) {
    for (const std::size_t c : causes_[(next_ + capacity_ - 1 - k) % capacity_]) {
      if (std::find(crossings.begin(), crossings.end(), c) == crossings.end()) {
        crossings.push_back(c);
      }
    }
  }
  std::sort(crossings.begin(), crossings.end());
  std::string names = crossings.size() == 1 ? "crossing " : "crossings ";
  for (std::size_t i = 0; i < crossings.size(); ++i) {
    names += fmt::format("{}'{}'", i == 0 ? "" : ", ", crossing_names_[crossings[i]]);
  }
  return names;
}

std::optional<ChatteringVerdict> ChatteringDetector::add(double t, std::span<const int> root_info) {
  record(t, root_info);
  if (std::optional<ChatteringVerdict> v = window_verdict(t)) return v;
  return dense_events_verdict(t);
}

void ChatteringDetector::record(double t, std::span<const int> root_info) {
  times_[next_] = t;
  std::vector<std::size_t>& causes = causes_[next_];
  causes.clear();
  for (std::size_t k = 0; k < root_info.size(); ++k) {
    if (root_info[k] != 0) causes.push_back(k);
  }
  next_ = (next_ + 1) % capacity_;
  count_ = std::min(count_ + 1, capacity_);
}

std::optional<ChatteringVerdict> ChatteringDetector::window_verdict(double t) const {
  const auto w = static_cast<std::size_t>(settings_.window);
  if (count_ < w + 1) return std::nullopt;
  // Spacings d_j = time_back(j) - time_back(j + 1), j = 0 (latest) .. w - 1 (oldest).
  const double tiny = settings_.min_relative_spacing * std::max(std::abs(t), settings_.interval_s);
  bool shrinking = true;
  bool all_tiny = true;
  double later = 0.0;
  for (std::size_t j = 0; j < w; ++j) {
    const double d = time_back(j) - time_back(j + 1);
    if (!(d < tiny)) all_tiny = false;
    if (j >= 1 && !(later < d)) shrinking = false;
    later = d;
  }
  if (shrinking) {
    if (std::optional<ChatteringVerdict> v = zeno_verdict(t)) return v;
  }
  if (all_tiny) return tiny_spacing_verdict(t, tiny);
  return std::nullopt;
}

std::optional<ChatteringVerdict> ChatteringDetector::zeno_verdict(double t) const {
  const auto w = static_cast<std::size_t>(settings_.window);
  const double last = time_back(0) - time_back(1);
  const double before_last = time_back(1) - time_back(2);
  const double first = time_back(w - 1) - time_back(w);
  if (!(last < first / 100.0)) return std::nullopt;
  ChatteringVerdict v;
  const double ratio = last / before_last;
  v.accumulation_time_s = t + last * ratio / (1.0 - ratio);
  v.message = fmt::format(
      "events accumulate at t = {:.9g} s (Zeno behaviour): {} consecutive events ({} spacings) "
      "of {} with spacing shrinking from {:.3g} s to {:.3g} s (factor {:.3g} per event); estimated "
      "accumulation time {:.9g} s",
      t, w + 1, w, names_of_last(w + 1), first, last, ratio, v.accumulation_time_s);
  return v;
}

ChatteringVerdict ChatteringDetector::tiny_spacing_verdict(double t, double tiny) const {
  const auto w = static_cast<std::size_t>(settings_.window);
  ChatteringVerdict v;
  v.accumulation_time_s = t;
  v.message = fmt::format(
      "events accumulate at t = {:.9g} s (chattering): {} consecutive events of {}, the {} "
      "spacings between them less than {:.3g} s (chattering_min_relative_spacing = {:g} times "
      "max(|t|, stop_s - "
      "start_s))",
      t, w + 1, names_of_last(w + 1), w, tiny, settings_.min_relative_spacing);
  return v;
}

std::optional<ChatteringVerdict> ChatteringDetector::dense_events_verdict(double t) const {
  const auto dense = static_cast<std::size_t>(settings_.dense_window);
  if (!(settings_.dense_span_fraction > 0.0 && count_ >= dense + 1)) return std::nullopt;
  const double span = t - time_back(dense);
  if (!(span < settings_.dense_span_fraction * settings_.interval_s)) return std::nullopt;
  ChatteringVerdict v;
  v.accumulation_time_s = t;
  const double spacing = span / static_cast<double>(dense);
  v.message = fmt::format(
      "events chatter at t = {:.9g} s: {} consecutive events of {} within {:.3g} s (mean "
      "spacing {:.3g} s), less than chattering_dense_span_fraction = {:g} of the simulation "
      "interval of {:g} s; at this rate the interval would take about {:.2g} events",
      t, dense + 1, names_of_last(dense + 1), span, spacing, settings_.dense_span_fraction,
      settings_.interval_s, settings_.interval_s / spacing);
  return v;
}

}  // namespace hdae::detail
