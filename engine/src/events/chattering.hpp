// Detection of accumulating events (Zeno behaviour, e.g. a bouncing ball without a rest
// rule). Two signs are watched over consecutive state events:
//  - the spacing between events shrinks at every event, and over the window of
//    `window` events it has shrunk by more than a factor 100 (a slowly drifting oscillator
//    does not qualify; a geometric sequence with ratio below ~0.83 does), or
//  - every spacing in the window is below the integrator's useful resolution min_spacing_s.
// For a geometric sequence t_k with ratio r the accumulation point is
// t_acc = t_k + d_k r / (1 - r); it is reported as an estimate.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace hdae::detail {

struct ChatteringVerdict {
  double accumulation_time_s = 0.0;
  std::string message;
};

class ChatteringDetector {
 public:
  ChatteringDetector(int window, double min_spacing_s)
      : window_(window), min_spacing_s_(min_spacing_s) {}

  /// Records a state event at t caused by the named crossings; returns a verdict when the
  /// events accumulate.
  std::optional<ChatteringVerdict> add(double t, const std::vector<std::string>& crossings);

 private:
  int window_;
  double min_spacing_s_;
  std::vector<double> times_;
  std::vector<std::string> crossings_;  ///< crossings involved in the current window
};

}  // namespace hdae::detail
