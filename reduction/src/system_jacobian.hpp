// The reduction's matrices by difference quotients: Pryce's system Jacobian of the original
// model for the fresh selection of small models, and both it and the reduced equations'
// Jacobian for models without exact Jacobians (evaluated with doubles only, or differentiated
// three times). Columns that share no row move together, so a matrix costs one evaluation per
// group of columns rather than one per column, and a large model needs no dense matrix.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "hdae/physics_model.hpp"
#include "hdae/structure.hpp"
#include "slot_layout.hpp"
#include "state_selection.hpp"

namespace hdae::reduction {

/// Columns grouped greedily, in order, so that no two columns of a group share a row;
/// rows_of[c] lists the rows of column c (columns without rows join no group).
[[nodiscard]] std::vector<std::vector<std::size_t>> disjoint_groups(
    const std::vector<std::vector<std::size_t>>& rows_of, std::size_t num_rows);

/// J_ij = d F_i / d x_j^(d_j - c_i) of the rows differentiated at least once (c_i >= 1), at
/// the signature's entries sigma_ij = d_j - c_i, kept also where they vanish at this point:
/// the block triangular forms of the selection follow the structure (block_selection.hpp). By
/// forward differences of the double residual, steps 1e-7 of each unknown's size (the
/// selection only compares determinants, so their accuracy of about 1e-8 is plenty).
[[nodiscard]] SystemJacobian system_jacobian(const PhysicsModel& model, const SlotLayout& layout,
                                             const SignatureMatrix& signature, double t,
                                             std::span<const double> slots);

/// d F_i^(q) / d x_j^(k) by forward differences of equation_derivatives at the reduced
/// pattern's entries (reduced_pattern.hpp), every slot's step 1e-8 of its size
/// (max(|slot|, scale)): the Newton matrix and the consistent start's Jacobian where the
/// equations are differentiated more often than exact Jacobians reach (reduced_jacobian.hpp).
void difference_jacobian(
    const PhysicsModel& model, const SlotLayout& layout, const SignatureMatrix& signature, double t,
    std::span<const double> slots, std::span<const double> scale,
    const std::function<void(std::size_t row, std::size_t slot, double value)>& entry);

}  // namespace hdae::reduction
