// Text from an input file quoted in an error message (csv_reader.cpp). A message is a C
// string in the end (std::exception::what), so a NUL byte in a field would cut it short; a
// control byte would garble a terminal; a field of 100 MB would be echoed whole. So the
// quote shows such bytes escaped and cuts a long text, saying how long it was.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hdae::detail {

/// Bytes of a text shown before it is cut.
inline constexpr std::size_t kMaxQuotedBytes = 40;

/// The text in double quotes: '"' and '\' as \" and \\, a tab as \t, every other byte that
/// is not printable (control bytes, DEL, bytes outside well-formed UTF-8) as \xNN. A text of
/// more than kMaxQuotedBytes bytes shows its first kMaxQuotedBytes (fewer when that would
/// split a UTF-8 character) and then `... (N bytes)`, N its whole length.
[[nodiscard]] std::string quoted(std::string_view text);

}  // namespace hdae::detail
