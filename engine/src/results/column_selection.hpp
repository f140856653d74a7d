// Which columns a run records (SimulationOptions::record_columns and record_kinds): names and
// globs, whole kinds, or everything when neither is given.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hdae/result.hpp"

namespace hdae::detail {

/// Whether name matches pattern, where '*' stands for any run of characters (also none) and
/// '?' for one character; every other character, '(' and '[' included, stands for itself, so
/// "der(*)" matches every derivative column.
[[nodiscard]] bool glob_match(std::string_view pattern, std::string_view name);

/// The columns a selection chooses from, read one at a time: a model's column names are made
/// only where a pattern or a message needs them (a chain of 10^6 masses has 6 10^6 columns, of
/// which a run may record one).
class ColumnSource {
 public:
  virtual ~ColumnSource() = default;
  [[nodiscard]] virtual std::size_t size() const = 0;
  [[nodiscard]] virtual ColumnKind kind(std::size_t c) const = 0;
  [[nodiscard]] virtual ColumnInfo column(std::size_t c) const = 0;
};

/// Indices, in column order, of the columns that match one of the patterns or whose kind is
/// one of kinds; all columns when both are empty. Throws OptionError naming a pattern that
/// matches no column, or a kind the model has no column of (model names the model).
[[nodiscard]] std::vector<std::size_t> select_columns(const ColumnSource& columns,
                                                      std::span<const std::string> patterns,
                                                      std::span<const ColumnKind> kinds,
                                                      std::string_view model);

}  // namespace hdae::detail
