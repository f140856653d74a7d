// Which signals a comparison covers (compare.hpp): the columns matched by name across both
// tables, the names found in one table only, and the names that several columns of one table
// carry (never compared: which of them would the verdict be about?).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "hdae/compare.hpp"

namespace hdae::compare {

/// One signal to compare: its name and its column in either table.
struct SignalColumns {
  std::string_view name;
  std::size_t reference_column = 0;
  std::size_t result_column = 0;
};

/// The signals to compare (options.signals, else every reference signal in the result), and
/// the report's one-sided lists and problems about names. The names are views into the
/// tables' or the options' names.
[[nodiscard]] std::vector<SignalColumns> select_signals(const ResultTable& reference,
                                                        const ResultTable& result,
                                                        const CompareOptions& options,
                                                        CompareReport& report);

/// The columns of the one signal a trace follows; throws std::out_of_range naming it when it
/// is absent from either table or carried by several columns of one.
[[nodiscard]] SignalColumns traced_columns(const ResultTable& reference, const ResultTable& result,
                                           std::string_view signal);

}  // namespace hdae::compare
