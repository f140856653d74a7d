// IdaIntegrator at events (ida_integrator.hpp): restarting IDA from a new state, or going on
// at its order with its history shifted to it (history_shift.hpp), and the first step a
// restart may take from what IDA knew before the event.
#include <algorithm>
#include <cmath>

#include "sundials/history_shift.hpp"
#include "sundials/ida_integrator.hpp"

namespace hdae::sundials {

void IdaIntegrator::restart(double t, std::span<const double> y, std::span<const double> yp,
                            const std::vector<bool>& is_algebraic, double initial_step,
                            bool quick_climb) {
  std::copy(y.begin(), y.end(), view(y_.get()).begin());
  std::copy(yp.begin(), yp.end(), view(yp_.get()).begin());
  at_.t = t;
  if (!at_.initialized) {
    create(t);
  } else {
    harvest();
    climb_.finish(ida_.get());
    check_ida(IDAReInit(ida_.get(), t, y_.get(), yp_.get()), "IDAReInit");
    if (quick_climb) {
      climb_.start(ida_.get(), at_.free_step, setup_.nonlinear_convergence_coef);
    }
  }
  set_algebraic(is_algebraic);
  check_ida(IDASetInitStep(ida_.get(), initial_step), "IDASetInitStep");
}

void IdaIntegrator::set_algebraic(const std::vector<bool>& is_algebraic) {
  auto id = view(id_.get());
  for (std::size_t i = 0; i < setup_.n; ++i) id[i] = is_algebraic[i] ? 0.0 : 1.0;
  check_ida(IDASetId(ida_.get(), id_.get()), "IDASetId");
  const bool any_algebraic =
      std::find(is_algebraic.begin(), is_algebraic.end(), true) != is_algebraic.end();
  check_ida(IDASetSuppressAlg(ida_.get(), any_algebraic ? SUNTRUE : SUNFALSE), "IDASetSuppressAlg");
  suppress_algebraic_ = any_algebraic;
}

bool IdaIntegrator::continue_from_history(double t, std::span<const double> y,
                                          std::span<const double> yp, double first_step,
                                          std::span<const double> ypp) {
  if (!at_.initialized || !(first_step > 0.0)) return false;  // no step yet: no history
  std::copy(y.begin(), y.end(), view(y_.get()).begin());
  std::copy(yp.begin(), yp.end(), view(yp_.get()).begin());
  RightLimit limit{.t = t, .y = y_.get(), .yp = yp_.get()};
  if (!ypp.empty()) {
    std::copy(ypp.begin(), ypp.end(), view(work_.yp.get()).begin());
    limit.ypp = work_.yp.get();
  }
  climb_.finish(ida_.get());
  if (!shift_history(ida_.get(), limit, first_step, work_.y.get(), work_.r.get())) return false;
  // No quick climb: IDA is at its order already, and grows the step by its own rule.
  at_.t = t;
  return true;
}

int IdaIntegrator::history_order() const {
  void* mem = ida_.get();
  long steps = 0;
  if (mem == nullptr || IDAGetNumSteps(mem, &steps) != IDA_SUCCESS || steps == 0) return 0;
  int order = 0;
  check_ida(IDAGetLastOrder(mem, &order), "IDAGetLastOrder");
  return order;
}

double IdaIntegrator::step_from_history(double t, double error_fraction) const {
  const int order = history_order();
  if (order == 0) return 0.0;  // no step yet: nothing is known
  double h = at_.free_step;
  if (order < 2) return h;  // an order-1 polynomial has no second derivative to go by
  void* mem = ida_.get();
  // IDA's weighted RMS norm of y'' at t, over the components its error test sees.
  check_ida(IDAGetDky(mem, t, 2, work_.y.get()), "IDAGetDky");
  check_ida(IDAGetErrWeights(mem, work_.r.get()), "IDAGetErrWeights");
  const auto d2 = view(work_.y.get());
  const auto w = view(work_.r.get());
  const auto id = view(id_.get());
  double sum = 0.0;
  for (std::size_t i = 0; i < setup_.n; ++i) {
    if (suppress_algebraic_ && id[i] == 0.0) continue;
    sum += (d2[i] * w[i]) * (d2[i] * w[i]);
  }
  const double norm = std::sqrt(sum / static_cast<double>(setup_.n));
  // Backward Euler's local error is h^2/2 y'' to leading order.
  if (norm > 0.0) h = std::min(h, std::sqrt(2.0 * error_fraction / norm));
  return h;
}

}  // namespace hdae::sundials
