#include "simulator/root_location.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace hdae::detail {

void RootLocation::note_roots(const sundials::Integrator& ida, double t,
                              std::span<const double> x_at_t, std::span<const double> der_x_at_t) {
  PhaseScope scope(model_, ModelPhase::kIntegration);
  // The values at t itself tell which reported crossings are exactly zero there; those have
  // crossed by their Booleans' rule only if their values just after t say so (below).
  model_.evaluate(t, x_at_t, der_x_at_t, r(), {}, EvaluationPhase::kContinuous);
  const std::vector<int> crossed = crossings_.note_reported(ida.root_info());
  // IDA brackets the first zero to 100 u (|t| + |h|) and reports only the crossings that
  // changed sign within that bracket; one whose zero lies just after t (two end stops closing
  // at the same instant, up to round-off) would be reported by the very next step, as a
  // second event at the same instant. Its value one such tolerance later tells: a crossing
  // whose Boolean disagrees with it there crosses at t as far as IDA can resolve time.
  const double ahead = t + tolerance(ida, t);
  ida.interpolate(ahead, x(), der_x());
  model_.evaluate(ahead, x(), der_x(), r(), {}, EvaluationPhase::kContinuous);
  crossings_.note_roots_ahead(crossed);
}

double RootLocation::tolerance(const sundials::Integrator& ida, double t) {
  // IDA's own time resolution of roots (ttol in IDARootfind).
  return 100.0 * std::numeric_limits<double>::epsilon() * (std::abs(t) + std::abs(ida.last_step()));
}

void RootLocation::locate_first_flip(sundials::Integrator& ida, double t_lo) {
  // IDA stops its root search where a root function is exactly zero: at a step end or at a
  // probe of its bracket. A value that reaches zero and stays there (max(0, 0.3 - t)) is
  // then reported anywhere on its flat part, not where it got there. Its Boolean (z > 0)
  // flips at the first instant z is no longer positive, so when a reported crossing is
  // exactly zero at the root, that first instant in (t_lo, t_r] at which any crossing left
  // the side of zero it had at t_lo is found by bisection on IDA's interpolating polynomial,
  // to IDA's own root tolerance, and becomes the root.
  const double t_r = ida.t();
  PhaseScope scope(model_, ModelPhase::kIntegration);
  const auto evaluate_at = [&](double t) {
    ida.interpolate(t, x(), der_x());
    model_.evaluate(t, x(), der_x(), r(), {}, EvaluationPhase::kContinuous);
  };
  model_.evaluate(t_r, ida.y(), ida.yp(), r(), {}, EvaluationPhase::kContinuous);
  if (!crossings_.any_at_zero(ida.root_info())) return;
  evaluate_at(t_lo);
  const std::vector<char> before = crossings_.sides();
  evaluate_at(t_r);
  // Reached from the negative side, zero leaves the Boolean false: nothing flipped before t_r.
  if (!crossings_.any_side_left(before)) return;
  double lo = t_lo;
  double hi = t_r;
  const double resolution = tolerance(ida, t_r);
  while (hi - lo > resolution) {
    const double mid = lo + 0.5 * (hi - lo);
    evaluate_at(mid);
    if (crossings_.any_side_left(before)) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  if (hi == t_r) return;
  evaluate_at(hi);
  ida.move_root(hi, crossings_.sides_left(before));
}

}  // namespace hdae::detail
