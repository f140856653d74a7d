// Quantities of a point mass in the vertical plane, for the models that state pendulums in
// Cartesian coordinates (y up, pivot at the origin).
#pragma once

#include <cmath>

namespace hdae::models::detail {

/// The angle of the rod from the pivot to (x, y), from the downward vertical: the angle
/// pendulum's phi.
[[nodiscard]] inline double angle_from_vertical(double x, double y) { return std::atan2(x, -y); }

/// Kinetic and potential energy of mass m at height y moving at (vx, vy) under gravity g.
[[nodiscard]] inline double mechanical_energy(double m, double g, double y, double vx, double vy) {
  return 0.5 * m * (vx * vx + vy * vy) + m * g * y;
}

}  // namespace hdae::models::detail
