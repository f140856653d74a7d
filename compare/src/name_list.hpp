// Signal names in a report line or a problem message (compare.hpp): joined with ", " and cut
// after a few, since a table may have thousands of columns (a chain of 2000 masses has 6000).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace hdae::compare {

/// Names listed before the rest are only counted.
inline constexpr std::size_t kMaxListedNames = 20;

/// "a, b, c", or "a, b, ... t and 5980 more" past kMaxListedNames.
inline std::string name_list(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size() && i < kMaxListedNames; ++i) {
    s += (i == 0 ? "" : ", ") + names[i];
  }
  if (names.size() > kMaxListedNames) {
    s += fmt::format(" and {} more", names.size() - kMaxListedNames);
  }
  return s;
}

}  // namespace hdae::compare
