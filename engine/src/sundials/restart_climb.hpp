// RestartClimb: how IDA gets back to its step size and order after an IDAReInit that follows
// earlier steps (docs/design.md, "Restarts"). IDAReInit starts again at order 1; IDA then
// doubles the step and raises the order each step until an error test fails or its estimates
// favour a lower order, and from there raises the order only after k + 2 steps of one size
// and grows the step by at most 2 per step. Early in that climb its error estimates lie far
// below the tolerance, where what the Newton iteration left (up to 0.33 of the tolerance,
// IDASetNonlinConvCoef's default) decides between neighbouring orders; and each doubling
// starts the k + 2 steps again. So until the step is back at the one IDA had before the event,
// the climb asks for a converged corrector (coefficient 0.01) and lets the step grow by up to
// 10 per step (IDASetEtaMax; CVODE's own limit early in a run), then restores both. Each step
// still passes IDA's error test, and the larger growth is IDA's own step estimate (with its
// safety factor) rather than a doubling.
#pragma once

namespace hdae::sundials {

class RestartClimb {
 public:
  /// Growth limit per step during the climb (IDASetEtaMax).
  static constexpr double kEtaMax = 10.0;
  /// IDA's default growth limit, restored afterwards.
  static constexpr double kDefaultEtaMax = 2.0;
  /// Newton convergence coefficient during the climb (IDASetNonlinConvCoef).
  static constexpr double kConvergenceCoef = 0.01;
  /// Most steps the climb lasts, should the step never reach the one before the event.
  static constexpr long kMaxSteps = 50;

  /// Starts a climb on a freshly re-initialized IDA towards the step it had before
  /// (target_step > 0); normal_coef is the run's Newton coefficient, restored afterwards.
  void start(void* ida_mem, double target_step, double normal_coef);
  /// After each step: ends the climb once the step is back (or kMaxSteps have passed).
  void after_step(void* ida_mem);
  [[nodiscard]] bool active() const { return target_step_ > 0.0; }
  /// Ends a climb under way (the restored settings take effect at once).
  void finish(void* ida_mem);

 private:
  double target_step_ = 0.0;
  double normal_coef_ = 0.33;
  long start_steps_ = 0;  ///< IDA's step count when the climb started
};

}  // namespace hdae::sundials
