// The benchmark problems written as a raw-IDA user writes them: plain structs of parameters
// and residual/root callbacks over N_Vector arrays (bench/raw/raw_ida.hpp). Each residual
// evaluates the same expressions in the same order as its hdae model (hdae::models::Pendulum,
// MassSpringChain, BouncingBall, bench/models/robertson.hpp), so both programs hand IDA
// bit-identical residuals and IDA's counters must agree exactly.
#pragma once

#include <cstddef>

#include <ida/ida.h>

#include "raw/colored_jacobian.hpp"

namespace hdae::bench::raw {

/// y = (phi, w): der(phi) = w, m L^2 der(w) = -m g L sin(phi) - d w.
struct RawPendulum {
  double length_m = 0.5;
  double mass_kg = 1.0;
  double damping_nms = 0.1;
  double gravity_mps2 = 9.81;
  static int residual(sunrealtype t, N_Vector y, N_Vector yp, N_Vector r, void* self);
  /// The model's outputs: bob position x = L sin(phi), y = -L cos(phi).
  static void outputs(const double* y, double* w, const void* self);
};

/// y = (y1, y2, y3): Robertson's reactions as an index-1 DAE with the mass balance as f_c row.
struct RawRobertson {
  double k1 = 0.04;
  double k2 = 3e7;
  double k3 = 1e4;
  static int residual(sunrealtype t, N_Vector y, N_Vector yp, N_Vector r, void* self);
};

/// y = (s_1, v_1, f_1, s_2, ...): the mass-spring chain of hdae::models::MassSpringChain.
struct RawChain {
  std::size_t masses = 100;
  double mass_kg = 1.0;
  double stiffness_npm = 100.0;
  double damping_nspm = 0.5;
  double push_n = 0.0;                  ///< force on the free end (bench/restart_main.cpp)
  ColoredJacobian* jacobian = nullptr;  ///< for colored_jacobian_fn<RawChain>
  static int residual(sunrealtype t, N_Vector y, N_Vector yp, N_Vector r, void* self);
  /// The model's output: energy sum(m v^2 / 2 + f^2 / (2 k)).
  static void outputs(const double* y, double* w, const void* self);
  /// The structural entries of the chain's residual rows (row, col), as the model declares.
  [[nodiscard]] CscPattern pattern() const;
};

/// y = (h, v): der(h) = v, der(v) = -g; the impact root is -h + offset rising through zero.
/// As in hdae (events/crossing_table.hpp) the root function is the crossing value itself,
/// moved off zero after each impact by the least offset that puts it strictly on the side the
/// impact left it on (set_offset_after_impact), so IDA neither loses nor repeats the root.
struct RawBall {
  double gravity_mps2 = 9.81;
  double offset_m = 0.0;
  void set_offset_after_impact(double h);
  static int residual(sunrealtype t, N_Vector y, N_Vector yp, N_Vector r, void* self);
  static int roots(sunrealtype t, N_Vector y, N_Vector yp, sunrealtype* g, void* self);
};

}  // namespace hdae::bench::raw
