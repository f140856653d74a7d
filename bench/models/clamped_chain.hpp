// A mass-spring chain (as hdae::models::MassSpringChain) whose masses are all clamped at
// once by a time event and released by a second one: the benchmark of a jump solve with
// many constraints switching together on the sparse path (docs/benchmarks.md, "Jump solve").
//   free:     der(s_i) = v_i,  m der(v_i) = f_{i+1} - f_i - d v_i,  0 = f_i - k (s_i - s_{i-1})
//   clamped:  the dynamics rows become f_c rows 0 = v_i (a brake on every mass)
// At the clamp every v_i jumps to zero through an impulse of the brake (the jump solve finds
// v^+ = 0, s^+ = s^-, f^+ = f^-); at the release the rows switch back and nothing jumps.
// The model counts its residual evaluations from the clamp's event call to the first
// evaluation more than 1e-6 s past the event instant (the first IDA step after the restart),
// and the time of the last one before it, so the cost of the event handling can be read off without
// engine hooks.
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

#include "hdae/model_builder.hpp"

namespace hdae::bench {

struct ClampedChainParameters {
  std::size_t masses = 100;
  double mass_kg = 1.0;
  double stiffness_npm = 100.0;
  double damping_nspm = 0.5;
  double end_displacement_m = 1.0;
  double clamp_s = 0.5;     ///< all masses clamped at this time
  double release_s = 0.75;  ///< and released at this one
  /// Time events every pulse_period_s (0: none) switch a force push_n on the free end on
  /// and off (bench/restart_main.cpp): with push_n = 0 they change nothing IDA sees.
  double pulse_period_s = 0.0;
  double push_n = 0.0;
};

/// What the model saw of the clamp event.
struct ClampEventCost {
  long residual_evaluations = 0;  ///< from the clamp's event call to the first IDA step after it
  double seconds = 0.0;           ///< from the event call to the last of those evaluations
  double max_speed_before = 0.0;  ///< largest |v_i| when the clamp fired
};

class ClampedChain final : public Model {
 public:
  explicit ClampedChain(ClampedChainParameters p = {});
  void evaluate(Evaluation& e) override;
  void on_event(EventContext& event) override;
  void reset() override;

  [[nodiscard]] const ClampEventCost& clamp_cost() const { return cost_; }

 private:
  using Clock = std::chrono::steady_clock;

  ClampedChainParameters p_;
  Vars s_, v_, f_;
  Eqs kinematics_, dynamics_, springs_;
  TimeEvent clamp_, release_, pulse_;
  bool clamped_ = false;
  bool pushing_ = false;
  bool counting_ = false;
  Clock::time_point event_start_;
  ClampEventCost cost_;
};

}  // namespace hdae::bench
