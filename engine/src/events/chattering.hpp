// Detection of accumulating or chattering state events, so that no run crawls through an
// endless sequence of events (SimulationOptions, section "Events"). Three rules look at the
// times of consecutive state events:
//  - Zeno: over a window of `window` spacings the spacing shrinks at every event and by
//    more than a factor 100 in all (a bouncing ball without a rest rule; a slowly drifting
//    oscillator does not qualify, a geometric sequence with ratio below ~0.83 does). For a
//    geometric sequence t_k with ratio r the accumulation point is
//    t_acc = t_k + d_k r / (1 - r); it is reported as an estimate.
//  - tiny spacing: every spacing of that window is below min_relative_spacing times
//    max(|t|, interval), i.e. close to what IDA can resolve in time (its root location
//    tolerance is about 100 u (|t| + |h|), u = 2.2e-16).
//  - dense events: `dense_window` consecutive events lie within less than
//    dense_span_fraction of the simulation interval: at that rate the interval would take
//    more than dense_window / dense_span_fraction events (a sliding-mode relay switching
//    every few microseconds). Evenly spaced events of a legitimate model (an elastic ball,
//    10^5 impacts over 9e4 s) stay far below that rate, and a short burst of fewer than
//    dense_window events never triggers it.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace hdae::detail {

struct ChatteringSettings {
  int window = 25;                      ///< events of the Zeno and tiny-spacing rules
  double min_relative_spacing = 1e-10;  ///< 0 disables the tiny-spacing rule
  int dense_window = 1000;              ///< events of the dense-events rule
  double dense_span_fraction = 5e-4;    ///< 0 disables the dense-events rule
  double interval_s = 1.0;              ///< stop_s - start_s
};

struct ChatteringVerdict {
  double accumulation_time_s = 0.0;
  std::string message;
};

class ChatteringDetector {
 public:
  ChatteringDetector(const ChatteringSettings& settings, std::vector<std::string> crossing_names);

  /// Records a state event at t; root_info[k] != 0 marks the crossings IDA reported. Returns
  /// a verdict when the events accumulate or chatter. Allocates nothing once the history of
  /// events is full (the causes of an event re-use their storage).
  std::optional<ChatteringVerdict> add(double t, std::span<const int> root_info);

 private:
  /// Time of the k-th most recent event (k = 0: the latest).
  [[nodiscard]] double time_back(std::size_t k) const;
  /// "'a', 'b'": the crossings that caused the latest `events` events.
  [[nodiscard]] std::string names_of_last(std::size_t events) const;
  /// Stores the event in the ring of the latest events.
  void record(double t, std::span<const int> root_info);
  /// The Zeno and tiny-spacing rules, over the latest `window` spacings.
  [[nodiscard]] std::optional<ChatteringVerdict> window_verdict(double t) const;
  /// Zeno rule, for a window whose spacings shrink at every event: a verdict when they shrank
  /// by more than a factor 100 in all.
  [[nodiscard]] std::optional<ChatteringVerdict> zeno_verdict(double t) const;
  /// Tiny-spacing rule, for a window whose spacings are all below `tiny`.
  [[nodiscard]] ChatteringVerdict tiny_spacing_verdict(double t, double tiny) const;
  /// Dense-events rule: the latest `dense_window` events within a small part of the interval.
  [[nodiscard]] std::optional<ChatteringVerdict> dense_events_verdict(double t) const;

  ChatteringSettings settings_;
  std::vector<std::string> crossing_names_;
  std::size_t capacity_;  ///< events kept: max(window, dense_window) + 1
  std::vector<double> times_;
  std::vector<std::vector<std::size_t>> causes_;  ///< crossing indices of each event
  std::size_t next_ = 0;                          ///< ring position of the next event
  std::size_t count_ = 0;                         ///< events recorded, at most capacity_
};

}  // namespace hdae::detail
