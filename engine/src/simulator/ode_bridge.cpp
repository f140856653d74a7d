#include "simulator/ode_bridge.hpp"

#include <cmath>
#include <utility>

namespace hdae::detail {

void OdeBridge::use(ExplicitForm form) {
  form_ = std::move(form);
  const std::size_t n = form_.variable_of_row.size();
  zero_.assign(n, 0.0);
  ones_.assign(n, 1.0);
  r0_.assign(n, 0.0);
  r1_.assign(n, 0.0);
  ydot_.assign(n, 0.0);
  unit_rows_ = form_.constant_coefficients;
  for (std::size_t i = 0; i < n && unit_rows_; ++i) {
    unit_rows_ = form_.variable_of_row[i] == i && form_.coefficient[i] == 1.0;
  }
}

int OdeBridge::rhs(double t, std::span<const double> y, std::span<double> ydot) {
  // F(t, y, der_x) = M der_x + F(t, y, 0) with M a scaled permutation: f = -M^-1 F(t, y, 0).
  if (unit_rows_) {
    // M = I, the common case (der(x) = f written as der(x) - f): no scatter, no division.
    if (const int flag = residuals_.residual(t, y, zero_, ydot); flag != 0) return flag;
    for (double& v : ydot) v = -v;
    return 0;
  }
  if (const int flag = residuals_.residual(t, y, zero_, r0_); flag != 0) return flag;
  const std::size_t n = r0_.size();
  if (form_.constant_coefficients) {
    for (std::size_t i = 0; i < n; ++i) {
      ydot[form_.variable_of_row[i]] = -r0_[i] / form_.coefficient[i];
    }
    return 0;
  }
  // M(t, y) 1 = F(t, y, 1) - F(t, y, 0): each row's coefficient at this point.
  if (const int flag = residuals_.residual(t, y, ones_, r1_); flag != 0) return flag;
  for (std::size_t i = 0; i < n; ++i) {
    const double m = r1_[i] - r0_[i];
    // A coefficient that vanishes here: the mode is not an explicit ODE at this point; the
    // integrator retries with a smaller step.
    if (m == 0.0 || !std::isfinite(m)) return 1;
    ydot[form_.variable_of_row[i]] = -r0_[i] / m;
  }
  return 0;
}

int OdeBridge::roots(double t, std::span<const double> y, std::span<double> g) {
  if (!form_.crossings_read_derivatives) return residuals_.roots(t, y, zero_, g);
  if (const int flag = rhs(t, y, ydot_); flag != 0) return flag < 0 ? flag : -1;
  return residuals_.roots(t, y, ydot_, g);
}

}  // namespace hdae::detail
