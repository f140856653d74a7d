// The text of a double in result files (csv.hpp): the shortest decimal that reads back to the
// same bits, laid out as fmt::format("{}", v) lays it out, so files written before and after
// are byte for byte the same. Written straight into a caller's buffer, without fmt's format
// string machinery: a CSV of a large run is tens of millions of numbers, and the generic path
// spent three times the digit generation itself on layout and iterator plumbing.
#pragma once

#include <cstddef>

namespace hdae::detail {

/// The longest text write_shortest writes: "-2.2250738585072014e-308" (sign, 17 digits, point,
/// exponent of three digits).
inline constexpr std::size_t kMaxShortestChars = 24;

/// Writes v at out and returns the end: the shortest round-trip digits (fmt's Dragonbox), in
/// fixed notation when the decimal exponent is in [-4, 16) and as d.ddde+XX otherwise, "-" for
/// a negative value (-0 too), every NaN as "nan", infinities as "inf" and "-inf". out must
/// have room for kMaxShortestChars characters.
char* write_shortest(char* out, double v) noexcept;

}  // namespace hdae::detail
