// The exact time derivatives F_i^(q) of the original equations at the reduced system's slots
// (hdae/index_reduction.hpp, step 2), by Taylor jets (hdae/jet.hpp).
#pragma once

#include <span>

#include "hdae/physics_model.hpp"
#include "slot_layout.hpp"

namespace hdae::reduction {

/// out[layout.row(i, q)] = d^q F_i / dt^q for q = 0..c_i, where x_j^(k) is the slot
/// layout.slot(j, k) (derivatives above d_j do not enter these rows, by Pryce's offsets).
/// One evaluation of the model with jets of depth max c_i (with doubles when it is 0).
/// left_limits: the original's variables just before the jump being solved (an impact's),
/// for Equations::left_limit; empty elsewhere.
void equation_derivatives(const PhysicsModel& model, const SlotLayout& layout, double t,
                          std::span<const double> slots, std::span<double> out,
                          std::span<const double> left_limits = {});

/// The original model's residual F(t, x, der_x) at the slots: x_j = x_j^(0),
/// der_x_j = x_j^(1) (0 when d_j = 0, where no row holds der(x_j)).
void original_residual(const PhysicsModel& model, const SlotLayout& layout, double t,
                       std::span<const double> slots, std::span<double> r,
                       std::span<const double> left_limits = {});

/// x and der_x of the original model from the slots, as original_residual reads them.
void original_point(const SlotLayout& layout, std::span<const double> slots, std::span<double> x,
                    std::span<double> der_x);

}  // namespace hdae::reduction
