// Pryce's system Jacobian of the original model at the reduced system's slots, for the state
// selection (hdae/index_reduction.hpp, step 3).
#pragma once

#include <cstddef>
#include <functional>
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

/// d F_i^(q) / d x_j^(k) by forward differences of equation_derivatives, every slot's step
/// 1e-8 of its size (max(|slot|, scale)): the Newton matrix where the equations are
/// differentiated more often than exact Jacobians reach (reduced_jacobian.hpp).
void difference_jacobian(
    const PhysicsModel& model, const SlotLayout& layout, double t, std::span<const double> slots,
    std::span<const double> scale,
    const std::function<void(std::size_t row, std::size_t slot, double value)>& entry);

}  // namespace hdae::reduction
