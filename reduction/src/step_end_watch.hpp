// Which step ends of a reduced model need a fresh judgement of its state selection
// (hdae/index_reduction.hpp, dynamic selection). A judgement evaluates Pryce's system Jacobian
// J, one model evaluation per group of columns, for two uses: the selection's quality, which
// matters only when it nears the switch ratio, and the change of J since IDA's Newton matrix
// was formed, which says when that matrix has aged. Both move smoothly along the solution
// between events. Where the largest exchange factor g, continued at twice the rate the last two
// judgements showed, stays below its threshold by the step end, and the step end lies no
// farther from the last judgement than that one from the one before, the last quality stands;
// the change of J is then continued at the rate the last judgement measured, and the matrix
// counts as aged once that continuation reaches the aged fraction. A new Newton matrix needs
// no judgement to be due: J is formed with it.
// The quality is watched through g, which it clips at 1 while g stays below 1.
#pragma once

#include <cmath>

namespace hdae::reduction {

class StepEndWatch {
 public:
  /// Whether a fresh judgement at t can wait: the largest exchange factor g (whose threshold
  /// is 1 / switch ratio), continued at twice its rate, stays below `growth_limit`.
  [[nodiscard]] bool can_wait(double t, double growth_limit) const {
    if (!has_growth_rate_ || !has_change_rate_) return false;
    // Rates say nothing beyond the span they were measured over (a pendulum released at rest
    // has none at first): no wait is longer than the span between the last two judgements.
    if (std::abs(t - t_) > span_) return false;
    return growth_ + 2.0 * growth_rate_ * std::abs(t - t_) < growth_limit;
  }
  /// The change of J since the Newton matrix at t, continued from the last judgement's rate
  /// (for a step end whose judgement waits).
  [[nodiscard]] double expected_change(double t) const {
    return change_rate_ * std::abs(t - t_matrix_);
  }
  /// A fresh judgement at t: the largest exchange factor (NaN where it is not known, which
  /// keeps every judgement fresh) and the change of J since the Newton matrix.
  void judged(double t, double growth, double change) {
    if (!std::isfinite(growth)) return forget();
    if (judged_ && t != t_) {
      span_ = std::abs(t - t_);
      growth_rate_ = std::abs(growth - growth_) / span_;
      has_growth_rate_ = true;
    }
    if (t != t_matrix_) {
      change_rate_ = change / std::abs(t - t_matrix_);
      has_change_rate_ = true;
    }
    t_ = t;
    growth_ = growth;
    judged_ = true;
  }
  /// IDA's Newton matrix was formed at t: the change of J counts from there.
  void newton_matrix(double t) { t_matrix_ = t; }
  /// After an event, a reset or a new selection the next two judgements are fresh.
  void forget() {
    judged_ = has_growth_rate_ = false;
    growth_rate_ = 0.0;
  }

 private:
  bool judged_ = false, has_growth_rate_ = false, has_change_rate_ = false;
  double t_ = 0.0, span_ = 0.0, growth_ = 0.0, growth_rate_ = 0.0;
  double t_matrix_ = 0.0, change_rate_ = 0.0;
};

}  // namespace hdae::reduction
