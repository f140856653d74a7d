#include "structure/probe_groups.hpp"

#include <algorithm>

#include "reinit/rank_diagnosis.hpp"
#include "sparsity/sparsity_pattern.hpp"

namespace hdae::structure {

std::size_t ProbeGroups::owner(std::size_t group, std::size_t row) const {
  const auto& columns = groups[group];
  if (rows_of_col.empty()) return columns.front();
  for (const std::size_t j : columns) {
    const auto& rows = rows_of_col[j];
    if (std::binary_search(rows.begin(), rows.end(), row)) return j;
  }
  return n;
}

std::vector<std::size_t> ProbeGroups::owners(std::size_t group) const {
  const auto& columns = groups[group];
  if (rows_of_col.empty()) return std::vector<std::size_t>(n, columns.front());
  std::vector<std::size_t> owner_of_row(n, n);
  for (const std::size_t j : columns) {
    for (const std::size_t i : rows_of_col[j]) owner_of_row[i] = j;
  }
  return owner_of_row;
}

std::string ProbeGroups::names(const ModelStructure& s, std::size_t group) const {
  const auto& columns = groups[group];
  if (columns.size() == 1) return "variable '" + s.variables[columns.front()].name + "'";
  return "variables " + reinit::variable_list(s, columns);
}

ProbeGroups probe_groups(const SystemResidual& f) {
  const ModelStructure& s = f.structure();
  ProbeGroups g;
  g.n = s.num_unknowns();
  if (s.sparsity.empty()) {
    for (std::size_t j = 0; j < g.n; ++j) g.groups.push_back({j});
    return g;
  }
  // Row-wise copy of the declared entries, so that a combined row can take the union of the
  // rows it combines (in the order the corrections were made).
  std::vector<std::vector<std::size_t>> cols_of_row(g.n);
  for (const SparsityEntry& e : s.sparsity) cols_of_row[e.row].push_back(e.col);
  for (const RowCombination& c : f.corrections()) {
    std::vector<std::size_t> merged;
    for (const std::size_t i : c.rows) {
      merged.insert(merged.end(), cols_of_row[i].begin(), cols_of_row[i].end());
    }
    cols_of_row[c.replaced_row] = std::move(merged);
  }
  std::vector<sparsity::Entry> entries;
  for (std::size_t i = 0; i < g.n; ++i) {
    for (const std::size_t j : cols_of_row[i]) entries.emplace_back(i, j);
  }
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  const sparsity::SparsityPattern pattern = sparsity::build_pattern(g.n, entries);
  g.groups = pattern.columns_of_color;
  g.rows_of_col.resize(g.n);
  for (std::size_t j = 0; j < g.n; ++j) {
    g.rows_of_col[j].assign(
        pattern.row_index.begin() + static_cast<std::ptrdiff_t>(pattern.col_start[j]),
        pattern.row_index.begin() + static_cast<std::ptrdiff_t>(pattern.col_start[j + 1]));
  }
  return g;
}

}  // namespace hdae::structure
