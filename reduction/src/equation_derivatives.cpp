#include "equation_derivatives.hpp"

#include <array>
#include <vector>

namespace hdae::reduction {
namespace {

/// Jets of depth D along the curve: t + h, x_j(t + h), der_x_j(t + h).
template <int D>
void derivatives_with_jets(const PhysicsModel& model, const SlotLayout& layout, double t,
                           std::span<const double> slots, std::span<double> out,
                           std::span<const double> left_limits) {
  const std::size_t n = layout.n;
  // Several times per step: the jets' storage is kept between calls (one set per thread, as
  // a model runs on one thread at a time), the residuals cleared as fresh jets would be.
  thread_local std::vector<Jet<D>> x, der_x, r;
  x.resize(n), der_x.resize(n), r.assign(n, Jet<D>());
  std::array<double, D + 2> d{};
  for (std::size_t j = 0; j < n; ++j) {
    // d holds x_j, x_j', ..., up to D + 1 derivatives; those beyond d_j stay 0 (no row of
    // the reduced system reads an output derivative they influence).
    d.fill(0.0);
    for (int k = 0; k <= layout.d[j] && k < D + 2; ++k) {
      d[static_cast<std::size_t>(k)] = slots[layout.slot(j, k)];
    }
    x[j] = Jet<D>::from_derivatives(d.data());
    der_x[j] = Jet<D>::from_derivatives(d.data() + 1);
  }
  std::array<double, D + 1> time{};
  time[0] = t;
  time[1] = 1.0;
  const Jet<D> tj = Jet<D>::from_derivatives(time.data());
  EquationsContext context = model.context();
  context.left_limits = left_limits;
  Equations<Jet<D>> eqs(tj, x, der_x, r, context);
  model.residuals_of(eqs);
  for (std::size_t i = 0; i < n; ++i) {
    if (!layout.has_rows(i)) continue;  // an alias: it holds by construction
    for (int q = 0; q <= layout.c[i]; ++q) out[layout.row(i, q)] = r[i].derivative(q);
  }
}

}  // namespace

void original_point(const SlotLayout& layout, std::span<const double> slots, std::span<double> x,
                    std::span<double> der_x) {
  for (std::size_t j = 0; j < layout.n; ++j) {
    x[j] = slots[layout.slot(j, 0)];
    der_x[j] = layout.d[j] >= 1 ? slots[layout.slot(j, 1)] : 0.0;
  }
}

void original_residual(const PhysicsModel& model, const SlotLayout& layout, double t,
                       std::span<const double> slots, std::span<double> r,
                       std::span<const double> left_limits) {
  std::vector<double> x(layout.n), der_x(layout.n);
  original_point(layout, slots, x, der_x);
  EquationsContext context = model.context();
  context.left_limits = left_limits;
  Equations<double> eqs(t, x, der_x, r, context);
  model.residuals_of(eqs);
}

void equation_derivatives(const PhysicsModel& model, const SlotLayout& layout, double t,
                          std::span<const double> slots, std::span<double> out,
                          std::span<const double> left_limits) {
  switch (layout.max_c) {
    case 0: {
      std::vector<double> r(layout.n);
      original_residual(model, layout, t, slots, r, left_limits);
      for (std::size_t i = 0; i < layout.n; ++i) {
        if (layout.has_rows(i)) out[layout.row(i, 0)] = r[i];
      }
      return;
    }
    case 1:
      return derivatives_with_jets<1>(model, layout, t, slots, out, left_limits);
    case 2:
      return derivatives_with_jets<2>(model, layout, t, slots, out, left_limits);
    default:
      return derivatives_with_jets<3>(model, layout, t, slots, out, left_limits);
  }
}

}  // namespace hdae::reduction
