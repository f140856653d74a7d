#include "raw/raw_problems.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include <nvector/nvector_serial.h>

namespace hdae::bench::raw {

int RawPendulum::residual(sunrealtype /*t*/, N_Vector y, N_Vector yp, N_Vector r, void* self) {
  const auto& p = *static_cast<const RawPendulum*>(self);
  const double* x = N_VGetArrayPointer(y);
  const double* dx = N_VGetArrayPointer(yp);
  double* res = N_VGetArrayPointer(r);
  const double phi = x[0];
  const double w = x[1];
  const double m = p.mass_kg;
  const double L = p.length_m;
  res[0] = dx[0] - w;
  res[1] = m * L * L * dx[1] + m * p.gravity_mps2 * L * std::sin(phi) + p.damping_nms * w;
  return 0;
}

void RawPendulum::outputs(const double* y, double* w, const void* self) {
  const auto& p = *static_cast<const RawPendulum*>(self);
  w[0] = p.length_m * std::sin(y[0]);
  w[1] = -p.length_m * std::cos(y[0]);
}

int RawRobertson::residual(sunrealtype /*t*/, N_Vector y, N_Vector yp, N_Vector r, void* self) {
  const auto& p = *static_cast<const RawRobertson*>(self);
  const double* x = N_VGetArrayPointer(y);
  const double* dx = N_VGetArrayPointer(yp);
  double* res = N_VGetArrayPointer(r);
  res[0] = dx[0] + p.k1 * x[0] - p.k3 * x[1] * x[2];
  res[1] = dx[1] - p.k1 * x[0] + p.k3 * x[1] * x[2] + p.k2 * x[1] * x[1];
  res[2] = x[0] + x[1] + x[2] - 1.0;
  return 0;
}

int RawChain::residual(sunrealtype /*t*/, N_Vector y, N_Vector yp, N_Vector r, void* self) {
  const auto& p = *static_cast<const RawChain*>(self);
  const double* x = N_VGetArrayPointer(y);
  const double* dx = N_VGetArrayPointer(yp);
  double* res = N_VGetArrayPointer(r);
  const std::size_t n = p.masses;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t s = 3 * i;
    const std::size_t v = s + 1;
    const std::size_t f = s + 2;
    const double f_next = i + 1 < n ? x[f + 3] : 0.0;
    const double s_prev = i > 0 ? x[s - 3] : 0.0;
    res[s] = dx[s] - x[v];
    res[v] =
        p.mass_kg * dx[v] + x[f] - f_next + p.damping_nspm * x[v] - (i + 1 < n ? 0.0 : p.push_n);
    res[f] = x[f] - p.stiffness_npm * (x[s] - s_prev);
  }
  return 0;
}

void RawChain::outputs(const double* y, double* w, const void* self) {
  const auto& p = *static_cast<const RawChain*>(self);
  double energy = 0.0;
  for (std::size_t i = 0; i < p.masses; ++i) {
    const double v = y[3 * i + 1];
    const double f = y[3 * i + 2];
    energy += 0.5 * p.mass_kg * v * v + f * f / (2.0 * p.stiffness_npm);
  }
  w[0] = energy;
}

CscPattern RawChain::pattern() const {
  std::vector<std::pair<std::size_t, std::size_t>> entries;
  for (std::size_t i = 0; i < masses; ++i) {
    const std::size_t s = 3 * i;
    entries.emplace_back(s, s);  // der(s_i) = v_i
    entries.emplace_back(s, s + 1);
    entries.emplace_back(s + 1, s + 1);  // m der(v_i) = f_{i+1} - f_i - d v_i
    entries.emplace_back(s + 1, s + 2);
    if (i + 1 < masses) entries.emplace_back(s + 1, s + 5);
    entries.emplace_back(s + 2, s + 2);  // 0 = f_i - k (s_i - s_{i-1})
    entries.emplace_back(s + 2, s);
    if (i > 0) entries.emplace_back(s + 2, s - 3);
  }
  return CscPattern::from_entries(3 * masses, entries);
}

int RawBall::residual(sunrealtype /*t*/, N_Vector y, N_Vector yp, N_Vector r, void* self) {
  const auto& p = *static_cast<const RawBall*>(self);
  const double* x = N_VGetArrayPointer(y);
  const double* dx = N_VGetArrayPointer(yp);
  double* res = N_VGetArrayPointer(r);
  res[0] = dx[0] - x[1];
  res[1] = dx[1] + p.gravity_mps2;
  return 0;
}

int RawBall::roots(sunrealtype /*t*/, N_Vector y, N_Vector /*yp*/, sunrealtype* g, void* self) {
  const auto& p = *static_cast<const RawBall*>(self);
  g[0] = -N_VGetArrayPointer(y)[0] + p.offset_m;
  return 0;
}

void RawBall::set_offset_after_impact(double h) {
  // After an impact the condition h < 0 is true, so -h must start strictly positive.
  const double c = -h;
  offset_m = c > 0.0 ? 0.0
                     : std::abs(c) + 4.0 * std::numeric_limits<double>::epsilon() *
                                         std::max(std::abs(c), 1.0);
}

}  // namespace hdae::bench::raw
