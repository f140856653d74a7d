#include "reinit/workspace.hpp"

#include <stdexcept>
#include <utility>

namespace hdae::reinit {

Workspace::Workspace(sparsity::SparsityPattern pattern)
    : pattern_(std::in_place, std::move(pattern)) {}

void Workspace::change_pattern(sparsity::SparsityPattern pattern) {
  if (!pattern_) throw std::logic_error("Workspace::change_pattern on the dense path");
  pattern_->pattern = std::move(pattern);
}

}  // namespace hdae::reinit
