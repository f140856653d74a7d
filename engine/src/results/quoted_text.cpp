// quoted() (quoted_text.hpp): escapes and the cut of a long text, by the UTF-8 rules of
// RFC 3629 section 4 (no overlong forms, no surrogates, nothing above U+10FFFF).
#include "results/quoted_text.hpp"

#include <fmt/format.h>

namespace hdae::detail {
namespace {

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

/// Length of the well-formed UTF-8 character of two to four bytes starting at text[i], or 0.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char lead = byte(0);
  std::size_t n = 0;
  unsigned char second_lo = 0x80;  // the second byte's range, narrower after some leads
  unsigned char second_hi = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
    if (lead == 0xE0) second_lo = 0xA0;  // overlong
    if (lead == 0xED) second_hi = 0x9F;  // surrogates U+D800..U+DFFF
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
    if (lead == 0xF0) second_lo = 0x90;  // overlong
    if (lead == 0xF4) second_hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + n > text.size() || byte(1) < second_lo || byte(1) > second_hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (!continuation(byte(k))) return 0;
  }
  return n;
}

}  // namespace

std::string quoted(std::string_view text) {
  std::string_view shown = text;
  if (text.size() > kMaxQuotedBytes) {
    std::size_t cut = kMaxQuotedBytes;
    // Back to the start of a character, unless these are not UTF-8 continuation bytes at all.
    while (cut > kMaxQuotedBytes - 3 && continuation(static_cast<unsigned char>(text[cut]))) {
      --cut;
    }
    if (continuation(static_cast<unsigned char>(text[cut]))) cut = kMaxQuotedBytes;
    shown = text.substr(0, cut);
  }
  std::string out = "\"";
  for (std::size_t i = 0; i < shown.size();) {
    const auto c = static_cast<unsigned char>(shown[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += "\\t";
    } else if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else if (const std::size_t n = c >= 0x80 ? utf8_length(shown, i) : 0; n > 0) {
      out += shown.substr(i, n);
      i += n;
      continue;
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
    ++i;
  }
  out += '"';
  if (shown.size() < text.size()) out += fmt::format("... ({} bytes)", text.size());
  return out;
}

}  // namespace hdae::detail
