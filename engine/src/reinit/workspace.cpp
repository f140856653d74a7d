#include "reinit/workspace.hpp"

#include <utility>

namespace hdae::reinit {

Workspace::Workspace(sparsity::SparsityPattern pattern)
    : pattern_(std::in_place, std::move(pattern)) {}

}  // namespace hdae::reinit
