#include "reinit/workspace.hpp"

#include <utility>

namespace hdae::reinit {

const ColouredPattern* Workspace::pattern(const ModelStructure& structure) {
  const bool current = structure_ == &structure && unknowns_ == structure.num_unknowns() &&
                       declared_entries_ == structure.sparsity.size();
  if (!current) {
    structure_ = &structure;
    unknowns_ = structure.num_unknowns();
    declared_entries_ = structure.sparsity.size();
    pattern_.reset();
    if (std::optional<detail::SparsityPattern> p = sparse_pattern_for(structure)) {
      pattern_.emplace(std::move(*p));
    }
    ++pattern_builds_;
  }
  return pattern_ ? &*pattern_ : nullptr;
}

}  // namespace hdae::reinit
