// Two equal names among all a model declares (ModelStructure::validate), found without making
// every name: a family of 10^6 rows is one template, and two families can share a name only
// when their templates have the same text between their numbers (their "signature"), which is
// compared once per family. Names declared one by one are hashed and sorted, as are the members
// of a family whose template does not allow that reasoning (a placeholder next to a digit).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace hdae::detail {

/// The names of one declaration: number 1 .. count, each made by joining the parts, of which
/// the templated ones have their placeholders filled in for the number (name_template.hpp).
/// A single name has count 1 and no templated part.
struct NameSource {
  std::array<std::string_view, 3> parts{};
  std::array<bool, 3> templated{};
  std::size_t count = 1;
  std::size_t position = 0;  ///< where name number 1 stands in the caller's order
  std::size_t stride = 1;    ///< the distance between the positions of numbers k and k + 1

  /// A single literal name at position.
  static NameSource literal(std::string_view name, std::size_t position) {
    return {{name, {}, {}}, {}, 1, position, 1};
  }
};

/// Name number `number` of a source.
[[nodiscard]] std::string name_of(const NameSource& source, std::size_t number);

/// Two positions that carry one name, and that name.
struct RepeatedName {
  std::size_t first = 0;  ///< the smaller position
  std::size_t second = 0;
  std::string name;
};

/// A name two positions share, if any (which pair, when several do, is unspecified).
[[nodiscard]] std::optional<RepeatedName> find_repeat(std::span<const NameSource> sources);

}  // namespace hdae::detail
