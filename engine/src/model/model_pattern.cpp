#include "model/model_pattern.hpp"

namespace hdae::detail {

sparsity::SparsityPattern pattern_of(const ModelStructure& structure) {
  return sparsity::build_pattern_of(
      structure.num_unknowns(), [&structure](auto&& visit) { structure.sparsity.for_each(visit); });
}

}  // namespace hdae::detail
