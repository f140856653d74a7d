#include "structure/probe_groups.hpp"

#include <algorithm>
#include <span>

#include "linalg/rank_diagnosis.hpp"
#include "sparsity/sparsity_pattern.hpp"

namespace hdae::structure {

namespace {

/// Rows of column j: a range of the compressed pattern.
std::span<const std::size_t> rows_of(const ProbeGroups& g, std::size_t j) {
  return std::span(g.row_index).subspan(g.col_start[j], g.col_start[j + 1] - g.col_start[j]);
}

}  // namespace

std::size_t ProbeGroups::owner(std::size_t group, std::size_t row) const {
  const auto& columns = groups[group];
  if (col_start.empty()) return columns.front();
  for (const std::size_t j : columns) {
    const auto rows = rows_of(*this, j);
    if (std::binary_search(rows.begin(), rows.end(), row)) return j;
  }
  return n;
}

std::vector<std::size_t> ProbeGroups::owners(std::size_t group) const {
  const auto& columns = groups[group];
  if (col_start.empty()) return std::vector<std::size_t>(n, columns.front());
  std::vector<std::size_t> owner_of_row(n, n);
  for (const std::size_t j : columns) {
    for (const std::size_t i : rows_of(*this, j)) owner_of_row[i] = j;
  }
  return owner_of_row;
}

std::string ProbeGroups::names(const ModelStructure& s, std::size_t group) const {
  const auto& columns = groups[group];
  if (columns.size() == 1) return "variable '" + s.variables.name(columns.front()) + "'";
  return "variables " + linalg::variable_list(s, columns);
}

ProbeGroups probe_groups(const SystemResidual& f) {
  const ModelStructure& s = f.structure();
  ProbeGroups g;
  g.n = s.num_unknowns();
  if (s.sparsity.empty()) {
    for (std::size_t j = 0; j < g.n; ++j) g.groups.push_back({j});
    return g;
  }
  std::vector<sparsity::Entry> entries;
  entries.reserve(s.sparsity.size());
  s.sparsity.for_each(
      [&entries](std::size_t row, std::size_t col) { entries.emplace_back(row, col); });
  // A combined row gets the union of the patterns of the rows it combines (itself among
  // them), in the order the corrections were made; build_pattern drops repeated entries.
  for (const RowCombination& c : f.corrections()) {
    std::vector<char> combined(g.n, 0);
    for (const std::size_t i : c.rows) combined[i] = 1;
    const std::size_t before = entries.size();
    for (std::size_t k = 0; k < before; ++k) {
      if (combined[entries[k].first] != 0) entries.emplace_back(c.replaced_row, entries[k].second);
    }
  }
  sparsity::SparsityPattern pattern = sparsity::build_pattern(g.n, entries);
  for (const auto& columns : pattern.columns_of_color)
    g.groups.emplace_back(columns.begin(), columns.end());
  g.col_start.assign(pattern.col_start.begin(), pattern.col_start.end());
  g.row_index.assign(pattern.row_index.begin(), pattern.row_index.end());
  return g;
}

}  // namespace hdae::structure
