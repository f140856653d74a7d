#include "results/column_selection.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "results/record_names.hpp"

namespace hdae::detail {

bool glob_match(std::string_view pattern, std::string_view name) {
  // Greedy matching with one backtrack point: the last '*' seen absorbs one more character
  // whenever the rest fails. Linear in practice, never exponential.
  std::size_t p = 0;
  std::size_t n = 0;
  std::size_t star = std::string_view::npos;
  std::size_t resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p;
      ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

namespace {

/// "x, der(x), w, ... (30 columns)": the first columns of a model, for a message.
std::string column_list(const ColumnSource& columns) {
  constexpr std::size_t kShown = 12;
  std::string list;
  for (std::size_t i = 0; i < std::min(columns.size(), kShown); ++i) {
    list += (i == 0 ? "" : ", ") + columns.column(i).name;
  }
  if (columns.size() > kShown) list += fmt::format(", ... ({} columns)", columns.size());
  return list;
}

}  // namespace

std::vector<std::size_t> select_columns(const ColumnSource& columns,
                                        std::span<const std::string> patterns,
                                        std::span<const ColumnKind> kinds, std::string_view model) {
  std::vector<std::size_t> selected;
  if (patterns.empty() && kinds.empty()) {
    selected.resize(columns.size());
    std::iota(selected.begin(), selected.end(), std::size_t{0});
    return selected;
  }
  std::vector<bool> pattern_used(patterns.size(), false);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    bool keep = std::find(kinds.begin(), kinds.end(), columns.kind(c)) != kinds.end();
    if (!patterns.empty()) {
      const std::string name = columns.column(c).name;
      for (std::size_t p = 0; p < patterns.size(); ++p) {
        if (glob_match(patterns[p], name)) keep = pattern_used[p] = true;
      }
    }
    if (keep) selected.push_back(c);
  }
  for (const ColumnKind kind : kinds) {
    bool any = false;
    for (std::size_t c = 0; c < columns.size() && !any; ++c) any = columns.kind(c) == kind;
    if (!any) {
      throw OptionError(fmt::format("SimulationOptions::record_kinds: model '{}' has no {} columns",
                                    model, kind_name(kind)));
    }
  }
  for (std::size_t p = 0; p < patterns.size(); ++p) {
    if (!pattern_used[p]) {
      throw OptionError(
          fmt::format("SimulationOptions::record_columns: \"{}\" matches no column of model '{}' "
                      "(columns: {})",
                      patterns[p], model, column_list(columns)));
    }
  }
  return selected;
}

}  // namespace hdae::detail
