// The number text of result files (results/shortest_double.hpp): the same characters as
// fmt::format("{}"), which wrote every CSV before, so files do not change; the shortest text
// that reads back to the same bits; and the layout at the edges of fixed notation.
#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <system_error>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "results/shortest_double.hpp"

using hdae::detail::kMaxShortestChars;
using hdae::detail::write_shortest;

namespace {

std::string shortest(double v) {
  char text[kMaxShortestChars];
  return {text, write_shortest(text, v)};
}

/// What files held before: fmt's text, and "nan" for every NaN.
std::string fmt_text(double v) { return std::isnan(v) ? "nan" : fmt::format("{}", v); }

}  // namespace

TEST_CASE("a double's text is fmt's '{}' text, character for character") {
  std::mt19937_64 rng(20251125);
  int differing = 0;
  const auto compare = [&differing](double v) {
    if (shortest(v) != fmt_text(v)) ++differing;
  };
  // Any bit pattern: every exponent, subnormals, NaN payloads of either sign.
  for (int i = 0; i < 200000; ++i) compare(std::bit_cast<double>(rng()));
  // Values of the size a simulation writes, of every digit count, and their neighbours.
  std::uniform_real_distribution<double> mantissa(-10.0, 10.0);
  for (int i = 0; i < 200000; ++i) {
    const double v = mantissa(rng) * std::pow(10.0, static_cast<int>(rng() % 41) - 20);
    compare(v);
    compare(std::nextafter(v, 0.0));
  }
  // Integers and short decimals, where the digits end in zeros or are few.
  for (int i = -20000; i <= 20000; ++i) {
    compare(i);
    compare(i / 1000.0);
    compare(i * 1e10);
  }
  CHECK(differing == 0);
}

TEST_CASE("a double's text reads back to the same bits and is at most 24 characters") {
  std::mt19937_64 rng(7);
  int wrong = 0;
  std::size_t longest = 0;
  for (int i = 0; i < 200000; ++i) {
    const double v = std::bit_cast<double>(rng());
    if (std::isnan(v)) continue;
    const std::string text = shortest(v);
    longest = std::max(longest, text.size());
    double back = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), back);
    if (error != std::errc() || end != text.data() + text.size() ||
        std::bit_cast<std::uint64_t>(back) != std::bit_cast<std::uint64_t>(v)) {
      ++wrong;
    }
  }
  CHECK(wrong == 0);
  // Sign, 17 digits, point, "e-308": the bound callers make room for.
  CHECK(longest <= kMaxShortestChars);
  CHECK(shortest(-std::numeric_limits<double>::min()) == "-2.2250738585072014e-308");
  CHECK(shortest(-std::numeric_limits<double>::min()).size() == kMaxShortestChars);
}

TEST_CASE("fixed notation for first digits from 10^-4 to 10^15, exponent notation outside") {
  // The decimal forms are the values' shortest digits (as Python's repr gives them), laid out
  // as fmt does: fixed when the exponent of the first digit is in [-4, 16).
  CHECK(shortest(0.0) == "0");
  CHECK(shortest(-0.0) == "-0");
  CHECK(shortest(1.0) == "1");
  CHECK(shortest(-2.5) == "-2.5");
  CHECK(shortest(0.1) == "0.1");
  CHECK(shortest(123.456) == "123.456");
  CHECK(shortest(1.0 / 3.0) == "0.3333333333333333");
  CHECK(shortest(0.0001) == "0.0001");
  CHECK(shortest(0.00012345) == "0.00012345");
  CHECK(shortest(0.00001) == "1e-05");
  CHECK(shortest(-0.000012345) == "-1.2345e-05");
  CHECK(shortest(1e15) == "1000000000000000");
  CHECK(shortest(1234567890123456.0) == "1234567890123456");
  CHECK(shortest(1e16) == "1e+16");
  CHECK(shortest(12345678901234568.0) == "1.2345678901234568e+16");
  CHECK(shortest(1.5e300) == "1.5e+300");
  CHECK(shortest(std::numeric_limits<double>::denorm_min()) == "5e-324");
  CHECK(shortest(std::numeric_limits<double>::max()) == "1.7976931348623157e+308");
  CHECK(shortest(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(shortest(-std::numeric_limits<double>::infinity()) == "-inf");
  CHECK(shortest(-std::numeric_limits<double>::quiet_NaN()) == "nan");
}
