#include "reduced_pattern.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace hdae::reduction {

SparsityTable reduced_pattern(const SlotLayout& layout, const SignatureMatrix& signature,
                              const StateSelection& selection) {
  // At every change of states: sorted once rather than kept in a tree. An unknown shared by
  // several slots (an alias) appears once per row.
  std::vector<std::pair<std::size_t, std::size_t>> entries;
  for (const SignatureEntry& e : signature.entries) {
    for_each_derivative_entry(layout, e, [&](int q, int k) {
      entries.emplace_back(layout.row(e.row, q), layout.slot(e.col, k));
    });
  }
  for (std::size_t m = 0; m < selection.states.size(); ++m) {
    const std::size_t row = layout.num_equation_rows + m;
    entries.emplace_back(row, selection.states[m]);
    entries.emplace_back(row, selection.next[m]);
  }
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  SparsityTable table;
  for (const auto& [row, col] : entries) table.add({row, col});
  return table;
}

bool same_pattern(const SparsityTable& a, const SparsityTable& b) {
  const auto x = a.entries();
  const auto y = b.entries();
  return a.families().empty() && b.families().empty() &&
         std::equal(x.begin(), x.end(), y.begin(), y.end(),
                    [](const SparsityEntry& p, const SparsityEntry& q) {
                      return p.row == q.row && p.col == q.col;
                    });
}

}  // namespace hdae::reduction
