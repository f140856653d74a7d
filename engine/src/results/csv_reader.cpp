// Reading a result CSV (csv.hpp) written by hdae or by another tool: ',' or ';' separated,
// first column "time" or "t", names optionally quoted and each given once, '#' lines and blank
// lines skipped, a UTF-8 byte order mark at the start skipped; only a regular file is read.
// Numbers are parsed with std::from_chars, which rounds correctly (subnormals and long
// decimal expansions included), so a file from write_csv reads back bit for bit; a number
// too small for a subnormal reads as the nearest double, zero, and only one too large for a
// double is an error. Every malformed input is an IoError "<file>:<line>: <problem>" quoting
// the offending text escaped and cut to a readable length (quoted_text.hpp).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>

#include <fmt/format.h>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "results/quoted_text.hpp"
#include "results/regular_file.hpp"

namespace hdae {
namespace {

using detail::quoted;

/// Where a problem was found, to prefix the message with "<file>:<line>: ".
struct Location {
  std::string file;
  int line = 0;

  [[noreturn]] void fail(std::string_view problem) const {
    throw IoError(fmt::format("{}:{}: {}", file, line, problem));
  }
};

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

/// The separator is whichever of ',' and ';' first appears outside quotes in the header;
/// a header with a single column has none, and ',' is as good as any.
char detect_separator(std::string_view header) {
  bool quoted = false;
  for (const char c : header) {
    if (c == '"') quoted = !quoted;
    if (!quoted && (c == ',' || c == ';')) return c;
  }
  return ',';
}

/// Splits one line into fields (RFC 4180 quoting within a line, spaces around fields
/// stripped). The fields are views into `line`: a quoted field is unquoted in place (its
/// text is never longer than the quoted form), so a row of 10^5 fields costs no allocation.
void split(std::string& line, char separator, const Location& where,
           std::vector<std::string_view>& fields) {
  fields.clear();
  std::size_t i = 0;
  while (true) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i < line.size() && line[i] == '"') {
      const std::size_t start = ++i;
      std::size_t end = start;  // the unquoted text is line[start, end)
      while (true) {
        if (i == line.size()) where.fail("unterminated quoted field");
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            line[end++] = '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        line[end++] = line[i++];
      }
      const std::string_view field = std::string_view(line).substr(start, end - start);
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i < line.size() && line[i] != separator) {
        where.fail(fmt::format("unexpected text after the quoted field {}", quoted(field)));
      }
      fields.push_back(field);
    } else {
      const std::size_t end = std::min(line.find(separator, i), line.size());
      fields.push_back(trim(std::string_view(line).substr(i, end - i)));
      i = end;
    }
    if (i == line.size()) return;
    ++i;  // past the separator; a separator at the end of the line opens an empty field
  }
}

/// Whether a decimal number (sign, digits with at most one point, an optional exponent: text
/// that from_chars read whole) has a magnitude below 1, from the position of its first
/// non-zero digit and its exponent. Exponents are saturated, so "1e-99999999999999999999"
/// is below one and its opposite is not.
bool below_one(std::string_view text) {
  constexpr long long kSaturated = 1'000'000'000'000'000;  // far beyond any double's exponent
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  bool found = false;
  long long integer_digits = 0;  // after leading zeros
  long long zeros_after_point = 0;
  bool after_point = false;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.') {
      after_point = true;
    } else if (!found && text[i] == '0') {
      if (after_point) ++zeros_after_point;
    } else if (!found) {
      found = true;
      if (!after_point) ++integer_digits;
    } else if (!after_point) {
      ++integer_digits;
    }
  }
  // The decimal exponent of the first non-zero digit, as written before the exponent part.
  const long long lead = integer_digits > 0 ? integer_digits - 1 : -(zeros_after_point + 1);
  long long exponent = 0;
  bool negative = false;
  if (i < text.size()) {
    ++i;  // 'e' or 'E'
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    for (; i < text.size(); ++i) {
      if (exponent < kSaturated) exponent = exponent * 10 + (text[i] - '0');
    }
  }
  return lead + (negative ? -exponent : exponent) < 0;
}

double parse_number(std::string_view text, std::string_view column, const Location& where) {
  std::string_view digits = text;
  // from_chars rejects a leading '+', which other tools may write.
  if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-') digits.remove_prefix(1);
  double v = 0.0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec == std::errc::result_out_of_range && end == digits.data() + digits.size()) {
    // from_chars rounds correctly and reports out of range only when the result would be
    // infinite or zero: zero is the nearest double to a number that small, as a subnormal is
    // to a number a little larger (which from_chars returns without complaint).
    if (below_one(digits)) return digits.front() == '-' ? -0.0 : 0.0;
    where.fail(
        fmt::format("column {}: {} is out of the range of double", quoted(column), quoted(text)));
  }
  if (ec != std::errc() || end != digits.data() + digits.size()) {
    where.fail(fmt::format("column {}: {} is not a number", quoted(column), quoted(text)));
  }
  return v;
}

/// A name given to two columns makes every reader of that name pick one of them silently (a
/// comparison of the first alone passed files whose second column differed): an error.
void require_unique_names(const std::vector<std::string_view>& names, const Location& where) {
  std::unordered_map<std::string_view, std::size_t> first_field;
  first_field.reserve(names.size());
  for (std::size_t j = 0; j < names.size(); ++j) {
    const auto [it, inserted] = first_field.try_emplace(names[j], j);
    if (!inserted) {
      where.fail(fmt::format("column {} appears twice (fields {} and {})", quoted(names[j]),
                             it->second + 1, j + 1));
    }
  }
}

/// Makes room for the rows a file of this size holds if its rows are as long as the first
/// one: a table of 10^8 values grown by doubling would copy them and touch twice the memory.
/// A wrong guess costs address space that is never touched, or the doubling after all.
void reserve_rows(ResultTable& table, const std::filesystem::path& file,
                  std::size_t first_row_bytes) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(file, ec);
  if (ec) return;
  table.reserve_rows(static_cast<std::size_t>(size / (first_row_bytes + 1)) + 1);
}

/// A UTF-8 byte order mark (EF BB BF), which some programs write at the start of a text
/// file, is no part of the first line.
void skip_byte_order_mark(std::istream& in) {
  constexpr std::string_view kMark = "\xef\xbb\xbf";
  char start[3] = {};
  in.read(start, 3);
  if (in.gcount() == 3 && std::string_view(start, 3) == kMark) return;
  in.clear();
  in.seekg(0);
}

/// Reads the next line that carries data: strips a trailing '\r' (files from Windows),
/// skips comment lines starting with '#' and blank lines.
bool next_line(std::istream& in, std::string& line, Location& where) {
  while (std::getline(in, line)) {
    ++where.line;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line.front() == '#') continue;
    if (trim(line).empty()) continue;
    return true;
  }
  return false;
}

/// Opens a file for reading after require_regular_file, past a byte order mark.
std::ifstream open_for_reading(const std::filesystem::path& file) {
  detail::require_regular_file(file);
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(fmt::format("{}: cannot open for reading", file.string()));
  skip_byte_order_mark(in);
  return in;
}

}  // namespace

std::vector<ParameterInfo> read_params_csv(const std::filesystem::path& file) {
  Location where{file.string(), 0};
  std::ifstream in = open_for_reading(file);
  std::string line;
  std::vector<std::string_view> fields;
  if (!next_line(in, line, where)) {
    throw IoError(fmt::format("{}: empty file (no header line)", where.file));
  }
  split(line, ',', where, fields);
  if (fields != std::vector<std::string_view>{"name", "value", "unit"}) {
    where.fail(fmt::format("the header must be name,value,unit, found {}", detail::quoted(line)));
  }
  std::vector<ParameterInfo> parameters;
  while (next_line(in, line, where)) {
    split(line, ',', where, fields);
    if (fields.size() != 3) where.fail(fmt::format("expected 3 fields, found {}", fields.size()));
    const double value = parse_number(fields[1], fields[0], where);
    if (!std::isfinite(value)) where.fail(fmt::format("value {} is not finite", quoted(fields[1])));
    for (const ParameterInfo& p : parameters) {
      if (p.name == fields[0])
        where.fail(fmt::format("parameter {} given twice", detail::quoted(p.name)));
    }
    parameters.push_back(ParameterInfo{
        .name = std::string(fields[0]), .unit = std::string(fields[2]), .value = value});
  }
  if (in.bad()) where.fail("read error");
  return parameters;
}

namespace {

/// The columns of a result CSV from its header fields: the first is the time ("time" or "t",
/// any case), the others unique and none called "time".
std::vector<ColumnInfo> header_columns(const std::vector<std::string_view>& fields,
                                       const Location& where) {
  std::string lower(fields.front());
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower != "time" && lower != "t") {
    where.fail(fmt::format("the first column must be \"time\" or \"t\", found {}",
                           quoted(fields.front())));
  }
  require_unique_names(fields, where);
  // The time column is written back as "time" whatever its spelling here ("t", "Time"), so a
  // data column of that name would collide with it in every file written from this table.
  for (std::size_t j = 1; j < fields.size(); ++j) {
    if (fields[j] == "time") {
      where.fail(
          fmt::format("column \"time\" (field {}) would collide with the time column {}, "
                      "which is written as \"time\"",
                      j + 1, quoted(fields.front())));
    }
  }
  std::vector<ColumnInfo> columns;
  columns.reserve(fields.size() - 1);
  for (std::size_t j = 1; j < fields.size(); ++j) {
    columns.push_back(ColumnInfo{std::string(fields[j]), "", ColumnKind::kOther});
  }
  return columns;
}

}  // namespace

ResultTable read_csv(const std::filesystem::path& file) {
  Location where{file.string(), 0};
  std::ifstream in = open_for_reading(file);

  std::string line;
  if (!next_line(in, line, where)) {
    if (in.bad()) throw IoError(fmt::format("{}: read error", where.file));
    throw IoError(fmt::format("{}: empty file (no header line)", where.file));
  }
  const char separator = detect_separator(line);
  std::vector<std::string_view> fields;
  split(line, separator, where, fields);
  std::vector<ColumnInfo> columns = header_columns(fields, where);
  const std::string time_name(fields.front());
  ResultTable table(std::move(columns));

  const std::size_t num_fields = table.num_columns() + 1;
  std::vector<double> values(table.num_columns());
  while (next_line(in, line, where)) {
    if (table.num_rows() == 0) reserve_rows(table, file, line.size());
    split(line, separator, where, fields);
    if (fields.size() != num_fields) {
      where.fail(fmt::format("expected {} fields, found {}", num_fields, fields.size()));
    }
    const double t = parse_number(fields[0], time_name, where);
    if (!std::isfinite(t))
      where.fail(fmt::format("time must be finite, found {}", quoted(fields[0])));
    // Equal times are allowed: they are the left and right limits at an event.
    if (table.num_rows() > 0 && t < table.time().back()) {
      where.fail(fmt::format("time decreases from {} to {}", table.time().back(), t));
    }
    for (std::size_t j = 0; j < values.size(); ++j) {
      values[j] = parse_number(fields[j + 1], table.columns()[j].name, where);
    }
    table.append(t, values);
  }
  if (in.bad()) where.fail("read error");
  return table;
}

}  // namespace hdae
