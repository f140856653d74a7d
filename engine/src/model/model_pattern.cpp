#include "model/model_pattern.hpp"

#include <vector>

namespace hdae::detail {

sparsity::SparsityPattern pattern_of(const ModelStructure& structure) {
  std::vector<sparsity::Entry> entries;
  entries.reserve(structure.sparsity.size());
  for (const SparsityEntry& e : structure.sparsity) entries.emplace_back(e.row, e.col);
  return sparsity::build_pattern(structure.num_unknowns(), entries);
}

}  // namespace hdae::detail
