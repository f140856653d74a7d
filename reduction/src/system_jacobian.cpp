#include "system_jacobian.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "equation_derivatives.hpp"

namespace hdae::reduction {

Eigen::MatrixXd system_jacobian(const PhysicsModel& model, const SlotLayout& l, double t,
                                std::span<const double> slots) {
  const std::size_t n = l.n;
  const auto& vars = model.structure().variables;
  std::vector<double> x(n), der_x(n), base(n), r(n);
  original_point(l, slots, x, der_x);
  Equations<double> at_base(t, x, der_x, base, model.context());
  model.residuals_of(at_base);
  Eigen::MatrixXd j =
      Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  const auto column = [&](std::vector<double>& v, std::size_t col, int order) {
    const double saved = v[col];
    const double h = 1e-7 * std::max(std::abs(saved), vars.nominal(col));
    v[col] = saved + h;
    Equations<double> moved(t, x, der_x, r, model.context());
    model.residuals_of(moved);
    v[col] = saved;
    for (std::size_t i = 0; i < n; ++i) {
      if (l.d[col] - l.c[i] == order) {
        j(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(col)) = (r[i] - base[i]) / h;
      }
    }
  };
  for (std::size_t col = 0; col < n; ++col) {
    column(x, col, 0);
    if (l.d[col] >= 1) column(der_x, col, 1);
  }
  return j;
}

void difference_jacobian(
    const PhysicsModel& model, const SlotLayout& l, double t, std::span<const double> slots,
    std::span<const double> scale,
    const std::function<void(std::size_t row, std::size_t slot, double value)>& entry) {
  const std::size_t rows = l.num_equation_rows;
  std::vector<double> base(rows), moved(rows), y(slots.begin(), slots.end());
  equation_derivatives(model, l, t, y, base);
  for (std::size_t k = 0; k < y.size(); ++k) {
    const double saved = y[k];
    // About the square root of the unit round-off of the slot's size: the usual balance of
    // truncation and rounding for a forward difference.
    const double h = 1e-8 * std::max(std::abs(saved), scale[k]);
    y[k] = saved + h;
    equation_derivatives(model, l, t, y, moved);
    y[k] = saved;
    for (std::size_t i = 0; i < rows; ++i) {
      if (moved[i] != base[i]) entry(i, k, (moved[i] - base[i]) / h);
    }
  }
}

}  // namespace hdae::reduction
