// Pryce's system Jacobian of the original model at the reduced system's slots, for the state
// selection (hdae/index_reduction.hpp, step 3).
#pragma once

#include <span>

#include <Eigen/Core>

#include "hdae/physics_model.hpp"
#include "slot_layout.hpp"

namespace hdae::reduction {

/// J_ij = d F_i / d x_j^(d_j - c_i) when d_j - c_i is 0 (d/dx_j) or 1 (d/d der(x_j)), else 0,
/// by forward differences of the double residual (the selection only compares determinants,
/// so their accuracy of about 1e-8 is plenty).
[[nodiscard]] Eigen::MatrixXd system_jacobian(const PhysicsModel& model, const SlotLayout& layout,
                                              double t, std::span<const double> slots);

}  // namespace hdae::reduction
