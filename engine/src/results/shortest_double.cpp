#include "results/shortest_double.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

namespace hdae::detail {
namespace {

// fmt::format("{}", v) writes fixed notation when the exponent of the first digit is in
// [-4, 16) (do_write_float's exp_lower and exp_upper for a double without precision).
constexpr int kFixedFirst = -4;
constexpr int kFixedEnd = 16;

constexpr char kDigitPairs[] =
    "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546"
    "4748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293"
    "949596979899";

char* write_pair(char* out, unsigned pair) {
  std::memcpy(out, kDigitPairs + 2 * static_cast<std::size_t>(pair), 2);
  return out + 2;
}

/// Number of decimal digits of s, at least one.
int count_digits(std::uint64_t s) {
  static constexpr auto kPowers = [] {
    std::array<std::uint64_t, 20> p{};  // 10^0 ... 10^19, all a uint64_t holds
    p[0] = 1;
    for (std::size_t k = 1; k < p.size(); ++k) p[k] = 10 * p[k - 1];
    return p;
  }();
  // log10(2) ~ 1233 / 4096: an estimate from the bit length, one below the count or exact.
  // s | 1 has as many digits as s (10^k is even), and one for zero.
  const std::uint64_t t = s | 1;
  const auto estimate = static_cast<int>((std::bit_width(t) * 1233) >> 12);
  return estimate + (t >= kPowers[static_cast<std::size_t>(estimate)] ? 1 : 0);
}

/// Writes the n digits of s (n = count_digits(s)) at out.
void write_digits(char* out, std::uint64_t s, int n) {
  char* end = out + n;
  while (s >= 100000000) {  // eight digits at a time, in cheaper 32-bit arithmetic
    const std::uint64_t next = s / 100000000;
    auto low = static_cast<std::uint32_t>(s - 100000000 * next);
    for (int i = 0; i < 4; ++i) {
      end -= 2;
      write_pair(end, low % 100);
      low /= 100;
    }
    s = next;
  }
  auto rest = static_cast<std::uint32_t>(s);
  while (rest >= 100) {
    end -= 2;
    write_pair(end, rest % 100);
    rest /= 100;
  }
  if (rest >= 10) {
    write_pair(end - 2, rest);
  } else {
    end[-1] = static_cast<char>('0' + rest);
  }
}

/// The n digits of s with a decimal point after the first `integer` of them (0 < integer < n):
/// the digits go one place to the right, and the integer part moves back over the gap.
char* write_with_point(char* out, std::uint64_t s, int n, int integer) {
  write_digits(out + 1, s, n);
  std::memmove(out, out + 1, static_cast<std::size_t>(integer));
  out[integer] = '.';
  return out + n + 1;
}

char* write_zeros(char* out, int n) {
  std::memset(out, '0', static_cast<std::size_t>(n));
  return out + n;
}

/// d.ddde+XX: the point only when there is more than one digit, at least two exponent digits.
char* write_exponent_form(char* out, std::uint64_t s, int n, int exponent) {
  if (n > 1) {
    out = write_with_point(out, s, n, 1);
  } else {
    *out++ = static_cast<char>('0' + s);
  }
  *out++ = 'e';
  *out++ = exponent < 0 ? '-' : '+';
  auto e = static_cast<unsigned>(exponent < 0 ? -exponent : exponent);
  if (e >= 100) {  // a double's decimal exponent has at most three digits
    *out++ = static_cast<char>('0' + e / 100);
    e %= 100;
  }
  return write_pair(out, e);
}

/// The n digits of s with the decimal point after the first `point` of them: zeros appended
/// when point >= n (no point then), "0." and zeros in front when point <= 0.
char* write_fixed_form(char* out, std::uint64_t s, int n, int point) {
  if (point >= n) {
    write_digits(out, s, n);
    return write_zeros(out + n, point - n);
  }
  if (point > 0) return write_with_point(out, s, n, point);
  *out++ = '0';
  *out++ = '.';
  out = write_zeros(out, -point);
  write_digits(out, s, n);
  return out + n;
}

char* write_text(char* out, const char* text) {
  const std::size_t n = std::strlen(text);
  std::memcpy(out, text, n);  // NOLINT(bugprone-not-null-terminated-result): digits, no string
  return out + n;
}

}  // namespace

char* write_shortest(char* out, double v) noexcept {
  if (std::isnan(v)) return write_text(out, "nan");
  if (std::signbit(v)) {
    *out++ = '-';
    v = -v;
  }
  if (std::isinf(v)) return write_text(out, "inf");
  // v = significand * 10^exponent with the fewest significand digits that read back to v:
  // the function fmt::format("{}") itself calls (fmt 9 offers its digits through no public
  // function; tests/results/test_shortest_double.cpp holds the two to the same text).
  const auto decimal = fmt::detail::dragonbox::to_decimal(v);
  const int n = count_digits(decimal.significand);
  const int point = decimal.exponent + n;  // digits before the decimal point
  const int first_exponent = point - 1;    // v = d.ddd * 10^first_exponent
  if (first_exponent < kFixedFirst || first_exponent >= kFixedEnd) {
    return write_exponent_form(out, decimal.significand, n, first_exponent);
  }
  return write_fixed_form(out, decimal.significand, n, point);
}

}  // namespace hdae::detail
