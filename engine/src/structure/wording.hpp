// The index analysis in words (IndexAnalysis::describe and the notes of analyze_index), with
// equation and variable names from the model.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "hdae/structure.hpp"

namespace hdae::structure {

/// "'a', 'b', 'c'" for the given rows: the first dozen, then a count of the rest.
[[nodiscard]] std::string equation_names(const IndexAnalysis& a,
                                         const std::vector<std::size_t>& rows);
/// "x, y, z" for the given columns, cut like equation_names.
[[nodiscard]] std::string variable_names(const IndexAnalysis& a,
                                         const std::vector<std::size_t>& cols);
/// "1*'a' - 0.5*'b'".
[[nodiscard]] std::string combination_text(const IndexAnalysis& a, const RowCombination& c);

}  // namespace hdae::structure
