// Which unknowns the structure detection perturbs together (docs/design.md, "Structure and
// index"). Without a declared sparsity pattern every unknown is perturbed on its own. With
// one, the columns of one colour of that pattern share no row (sparsity/), so they are
// perturbed at once and a change of row i belongs to the one column of the colour that the
// pattern puts in row i.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "structure/system_residual.hpp"

namespace hdae::structure {

struct ProbeGroups {
  std::size_t n = 0;
  std::vector<std::vector<std::size_t>> groups;
  /// Rows of column j in the declared pattern (with the diagonal), compressed by columns:
  /// row_index[col_start[j] .. col_start[j + 1]); both empty when there is no pattern.
  std::vector<std::size_t> col_start, row_index;

  /// The column of `group` that row i depends on; n when the pattern has none (only possible
  /// with a pattern: then the model changes a row it declared independent of the group).
  [[nodiscard]] std::size_t owner(std::size_t group, std::size_t row) const;
  /// owner(group, i) for every row i at once, in time proportional to the group's entries
  /// (one owner() call per row would search the group's columns: quadratic for large models).
  [[nodiscard]] std::vector<std::size_t> owners(std::size_t group) const;
  /// "variable 'x'" or "variables {x, y}" for messages.
  [[nodiscard]] std::string names(const ModelStructure& s, std::size_t group) const;
};

/// Groups for the system: the model's declared pattern, with the rows of each correction
/// given the union of the patterns of the rows it combines, or single columns.
[[nodiscard]] ProbeGroups probe_groups(const SystemResidual& f);

}  // namespace hdae::structure
