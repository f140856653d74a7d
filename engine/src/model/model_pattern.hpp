// The sparsity pattern of a model (sparsity/sparsity_pattern.hpp) from its declared entries of
// dF/dx and dF/d(der_x), plus the diagonal.
#pragma once

#include "hdae/model.hpp"
#include "sparsity/sparsity_pattern.hpp"

namespace hdae::detail {

/// The declared pattern with the diagonal, coloured; structure.sparsity must not be empty.
[[nodiscard]] sparsity::SparsityPattern pattern_of(const ModelStructure& structure);

}  // namespace hdae::detail
