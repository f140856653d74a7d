// CompareOptions::validate and the per-signal tolerance file (compare.hpp).
#include <charconv>
#include <cmath>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "hdae/compare.hpp"
#include "hdae/errors.hpp"

namespace hdae {
namespace {

void require(bool ok, std::string_view field, std::string_view rule, double value) {
  if (!ok) {
    throw OptionError(fmt::format("CompareOptions::{} must be {}, got {}", field, rule, value));
  }
}

bool finite_non_negative(double v) { return std::isfinite(v) && v >= 0.0; }

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

/// Splits a line at the separator, honouring double quotes around a field ("" inside a
/// quoted field is one quote). Returns false on an unterminated quote.
bool split_fields(std::string_view line, char separator, std::vector<std::string>& fields) {
  fields.clear();
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == separator) {
      fields.emplace_back(trim(field));
      field.clear();
    } else {
      field += c;
    }
  }
  if (quoted) return false;
  fields.emplace_back(trim(field));
  return true;
}

/// Throws IoError for a path that is missing or not a regular file. Checked before opening:
/// opening a FIFO without a writer blocks for ever, a directory opens and then reads as an
/// error.
void require_regular_file(const std::filesystem::path& file) {
  std::error_code status_error;
  switch (std::filesystem::status(file, status_error).type()) {
    case std::filesystem::file_type::regular:
    case std::filesystem::file_type::none:  // status failed otherwise: opening says why
      break;
    case std::filesystem::file_type::not_found:
      throw IoError(fmt::format("{}: no such file", file.string()));
    case std::filesystem::file_type::directory:
      throw IoError(fmt::format("{}: is a directory", file.string()));
    default:
      throw IoError(fmt::format("{}: is not a regular file", file.string()));
  }
}

/// A line of a tolerance file, for the messages about it.
struct LineOfFile {
  const std::filesystem::path& file;
  int number = 0;

  [[noreturn]] void fail(std::string_view problem) const {
    throw IoError(fmt::format("{}:{}: {}", file.string(), number, problem));
  }
};

/// ';' for a line that holds semicolons and no comma, ',' otherwise.
char separator_of(std::string_view content) {
  return content.find(';') != std::string_view::npos && content.find(',') == std::string_view::npos
             ? ';'
             : ',';
}

/// The tolerance in a field (`what` names it), or none for an empty field.
std::optional<double> parse_tolerance(const std::string& text, std::string_view what,
                                      const LineOfFile& at) {
  if (text.empty()) return std::nullopt;
  double v = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    at.fail(fmt::format("{}: \"{}\" is not a number", what, text));
  }
  if (!finite_non_negative(v)) at.fail(fmt::format("{}: {} must be finite and >= 0", what, text));
  return v;
}

}  // namespace

void CompareOptions::validate() const {
  require(finite_non_negative(rel_value), "rel_value", "finite and >= 0", rel_value);
  require(finite_non_negative(abs_floor), "abs_floor", "finite and >= 0", abs_floor);
  require(rel_time >= 0.0 && rel_time < 1.0, "rel_time", "in [0, 1)", rel_time);
  require(finite_non_negative(event_time_tol_s), "event_time_tol_s", "finite and >= 0",
          event_time_tol_s);
  for (const std::string& name : signals) {
    if (name.empty()) throw OptionError("CompareOptions::signals must not hold an empty name");
  }
  for (const auto& [name, tol] : signal_tolerances) {
    if (tol.rel) {
      require(finite_non_negative(*tol.rel), fmt::format("signal_tolerances[\"{}\"].rel", name),
              "finite and >= 0", *tol.rel);
    }
    if (tol.abs) {
      require(finite_non_negative(*tol.abs), fmt::format("signal_tolerances[\"{}\"].abs", name),
              "finite and >= 0", *tol.abs);
    }
  }
}

std::map<std::string, SignalTolerance, std::less<>> read_tolerance_file(
    const std::filesystem::path& file) {
  require_regular_file(file);
  std::ifstream in(file);
  if (!in) throw IoError(fmt::format("{}: cannot open for reading", file.string()));
  std::map<std::string, SignalTolerance, std::less<>> tolerances;
  std::string line;
  std::vector<std::string> fields;
  int line_number = 0;
  bool first_data_line = true;
  while (std::getline(in, line)) {
    ++line_number;
    const LineOfFile at{file, line_number};
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // A UTF-8 byte order mark (EF BB BF), as editors on Windows write, is no part of the text.
    if (line_number == 1 && line.starts_with("\xef\xbb\xbf")) line.erase(0, 3);
    const std::string_view content = trim(line);
    if (content.empty() || content.front() == '#') continue;
    if (!split_fields(content, separator_of(content), fields)) at.fail("unterminated quoted field");
    if (fields.size() != 3) {
      at.fail(fmt::format("expected 3 fields (signal,rel,abs), found {}", fields.size()));
    }
    if (first_data_line) {
      first_data_line = false;
      if (fields[0] == "signal" && fields[1] == "rel" && fields[2] == "abs") continue;
    }
    if (fields[0].empty()) at.fail("the signal name is empty");
    if (tolerances.contains(fields[0])) {
      at.fail(fmt::format("signal \"{}\" is listed twice", fields[0]));
    }
    tolerances[fields[0]] = SignalTolerance{parse_tolerance(fields[1], "rel", at),
                                            parse_tolerance(fields[2], "abs", at)};
  }
  if (in.bad()) throw IoError(fmt::format("{}: read error", file.string()));
  return tolerances;
}

}  // namespace hdae
