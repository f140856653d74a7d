// The names of the members of an indexed family (hdae/declarations.hpp): member number k of a
// variable family "v" is "v[k]"; a family of rows has a name template whose placeholders
// "{i}", "{i+m}" and "{i-m}" stand for k, k + m and k - m ("m*der(v[{i}]) = f[{i+1}] - f[{i}]").
// Names are made when they are asked for (results, messages), not stored per member.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace hdae::detail {

/// One piece of a name template: literal text, or a placeholder for the number plus offset.
struct TemplatePiece {
  std::string_view text;  ///< the literal text; empty for a placeholder
  bool placeholder = false;
  long long offset = 0;  ///< of a placeholder: it stands for number + offset
};

/// The pieces of a template in order; a "{" that begins no placeholder is literal text.
[[nodiscard]] std::vector<TemplatePiece> parse_template(std::string_view name_template);

/// Appends the template filled in for member number `number` to out.
void append_expanded(std::string_view name_template, std::size_t number, std::string& out);

/// The template filled in for member number `number`.
[[nodiscard]] std::string expand_template(std::string_view name_template, std::size_t number);

/// "<family>[<number>]", the name of a variable family's member.
[[nodiscard]] std::string member_name(std::string_view family, std::size_t number);

}  // namespace hdae::detail
