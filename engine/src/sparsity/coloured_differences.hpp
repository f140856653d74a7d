// The coloured forward-difference loop shared by the IDA Jacobian (sundials/) and the
// re-initialization's matrices (reinit/): for each colour of a SparsityPattern, perturb all of
// its columns at once by their increments, evaluate once, and read each entry of those columns
// from the one row it owns in that colour (no two columns of one colour share a row).
#pragma once

#include <cstddef>
#include <span>
#include <utility>

#include "sparsity/sparsity_pattern.hpp"

namespace hdae::sparsity {

/// For each colour: evaluate(columns), which evaluates g with the columns of that colour
/// stepped by their increments, then entry(k, i, j) for every entry (i, j) of those columns,
/// k its position in the pattern. evaluate returns 0 on success or a non-zero code, which stops
/// the loop and is returned (an IDA callback's recoverable or fatal failure).
///   Evaluate: int(std::span<const Index> columns)
///   Entry: void(std::size_t k, std::size_t row, std::size_t column)
template <class Evaluate, class Entry>
int for_each_coloured_entry(const SparsityPattern& pattern, Evaluate&& evaluate, Entry&& entry) {
  for (const auto& columns : pattern.columns_of_color) {
    const int flag = evaluate(std::span<const Index>(columns));
    if (flag != 0) return flag;
    for (const std::size_t j : columns) {
      for (std::size_t k = pattern.col_start[j]; k < pattern.col_start[j + 1]; ++k) {
        entry(k, static_cast<std::size_t>(pattern.row_index[k]), j);
      }
    }
  }
  return 0;
}

/// Fills values[k] (position k of the pattern) with (after_i - base_i) / increments[j] for every
/// entry (i, j), where evaluate(columns) writes g(x + step) into `after`, with the columns of one
/// colour stepped by their increments, and `base` holds g(x) (see for_each_coloured_entry).
template <class Evaluate>
int coloured_differences(const SparsityPattern& pattern, std::span<const double> increments,
                         std::span<const double> base, std::span<const double> after,
                         std::span<double> values, Evaluate&& evaluate) {
  return for_each_coloured_entry(pattern, std::forward<Evaluate>(evaluate),
                                 [&](std::size_t k, std::size_t i, std::size_t j) {
                                   values[k] = (after[i] - base[i]) / increments[j];
                                 });
}

}  // namespace hdae::sparsity
