#include "model/name_template.hpp"

#include <charconv>
#include <limits>

namespace hdae::detail {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// The placeholder at the start of text ("{i}", "{i+3}", "{i-1}"): its length and offset, or
/// length 0 when text does not start with one.
std::size_t placeholder_at(std::string_view text, long long& offset) {
  if (text.size() < 3 || text[0] != '{' || text[1] != 'i') return 0;
  offset = 0;
  if (text[2] == '}') return 3;
  if (text[2] != '+' && text[2] != '-') return 0;
  std::size_t end = 3;
  while (end < text.size() && is_digit(text[end])) ++end;
  // At most 18 digits: the offset fits a long long with room for the number added to it.
  if (end == 3 || end - 3 > 18 || end >= text.size() || text[end] != '}') return 0;
  unsigned long long magnitude = 0;
  std::from_chars(text.data() + 3, text.data() + end, magnitude);
  offset = static_cast<long long>(magnitude);
  if (text[2] == '-') offset = -offset;
  return end + 1;
}

void append_number(long long value, std::string& out) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

}  // namespace

std::vector<TemplatePiece> parse_template(std::string_view name_template) {
  std::vector<TemplatePiece> pieces;
  std::size_t literal = 0;  // where the current literal piece began
  std::size_t k = 0;
  while (k < name_template.size()) {
    long long offset = 0;
    const std::size_t length =
        name_template[k] == '{' ? placeholder_at(name_template.substr(k), offset) : 0;
    if (length == 0) {
      ++k;
      continue;
    }
    if (k > literal) pieces.push_back({name_template.substr(literal, k - literal), false, 0});
    pieces.push_back({{}, true, offset});
    k += length;
    literal = k;
  }
  if (k > literal) pieces.push_back({name_template.substr(literal, k - literal), false, 0});
  return pieces;
}

void append_expanded(std::string_view name_template, std::size_t number, std::string& out) {
  for (const TemplatePiece& piece : parse_template(name_template)) {
    if (piece.placeholder) {
      append_number(static_cast<long long>(number) + piece.offset, out);
    } else {
      out.append(piece.text);
    }
  }
}

std::string expand_template(std::string_view name_template, std::size_t number) {
  std::string out;
  append_expanded(name_template, number, out);
  return out;
}

std::string member_name(std::string_view family, std::size_t number) {
  std::string out;
  out.reserve(family.size() + 8);
  out.append(family);
  out.push_back('[');
  append_number(static_cast<long long>(number), out);
  out.push_back(']');
  return out;
}

}  // namespace hdae::detail
