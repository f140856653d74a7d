#include "sundials/restart_climb.hpp"

#include <cmath>

#include <ida/ida.h>

#include "sundials/handles.hpp"

namespace hdae::sundials {

void RestartClimb::start(void* ida_mem, double target_step, double normal_coef) {
  normal_coef_ = normal_coef;
  if (!(target_step > 0.0)) return;
  target_step_ = target_step;
  // kMaxSteps counts from here, whatever IDA's own count (from its last IDAReInit) is.
  check_ida(IDAGetNumSteps(ida_mem, &start_steps_), "IDAGetNumSteps");
  check_ida(IDASetEtaMax(ida_mem, kEtaMax), "IDASetEtaMax");
  check_ida(IDASetNonlinConvCoef(ida_mem, kConvergenceCoef), "IDASetNonlinConvCoef");
}

void RestartClimb::after_step(void* ida_mem) {
  if (!active()) return;
  long steps = 0;
  double h = 0.0;
  check_ida(IDAGetNumSteps(ida_mem, &steps), "IDAGetNumSteps");
  check_ida(IDAGetCurrentStep(ida_mem, &h), "IDAGetCurrentStep");
  if (std::abs(h) >= target_step_ || steps - start_steps_ >= kMaxSteps) finish(ida_mem);
}

void RestartClimb::finish(void* ida_mem) {
  if (!active()) return;
  target_step_ = 0.0;
  check_ida(IDASetEtaMax(ida_mem, kDefaultEtaMax), "IDASetEtaMax");
  check_ida(IDASetNonlinConvCoef(ida_mem, normal_coef_), "IDASetNonlinConvCoef");
}

}  // namespace hdae::sundials
