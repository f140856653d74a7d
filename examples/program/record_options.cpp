#include "program/record_options.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

namespace hdae::examples {
namespace {

/// The comma-separated items of text, in order; false when one is empty.
bool split(const std::string& text, std::vector<std::string>& items) {
  items.clear();
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma - start);
    if (item.empty()) return false;
    items.push_back(item);
    if (comma == std::string::npos) return true;
    start = comma + 1;
  }
}

}  // namespace

std::string parse_column_list(const std::string& text, std::vector<std::string>& columns) {
  if (!split(text, columns)) {
    return fmt::format(
        "'{}' holds an empty column name (names and globs separated by commas, "
        "e.g. 'w*,tau')",
        text);
  }
  return {};
}

std::string parse_kind_list(const std::string& text, std::vector<ColumnKind>& kinds) {
  std::vector<std::string> words;
  if (!split(text, words)) return fmt::format("'{}' holds an empty kind", text);
  kinds.clear();
  for (const std::string& w : words) {
    if (w == "states" || w == "state") {
      kinds.push_back(ColumnKind::kState);
    } else if (w == "derivatives" || w == "derivative") {
      kinds.push_back(ColumnKind::kDerivative);
    } else if (w == "outputs" || w == "output") {
      kinds.push_back(ColumnKind::kOutput);
    } else {
      return fmt::format("'{}' is not a column kind (states, derivatives, outputs)", w);
    }
  }
  return {};
}

std::string parse_time_list(const std::string& text, std::vector<double>& times) {
  std::vector<std::string> items;
  if (!split(text, items)) {
    return fmt::format("'{}' holds an empty time (times separated by commas, e.g. '0.5,1,2.5')",
                       text);
  }
  times.clear();
  for (const std::string& item : items) {
    double t = 0.0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), t);
    if (ec != std::errc() || end != item.data() + item.size()) {
      return fmt::format("'{}' is not a number", item);
    }
    times.push_back(t);
  }
  return {};
}

std::string parse_time_argument(const std::string& text, std::vector<double>& times) {
  if (!text.starts_with('@')) return parse_time_list(text, times);
  // A file of times: any number of them, where a command line holds some ten thousand.
  const std::string path = text.substr(1);
  std::ifstream in(path);
  if (!in) return fmt::format("{}: cannot be read: {}", path, std::strerror(errno));
  std::string items, line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));  // a comment to the end of the line
    std::istringstream words(line);
    std::string word;
    while (words >> word) {
      for (char& c : word) {
        if (c == ',') c = ' ';
      }
      std::istringstream parts(word);
      std::string part;
      while (parts >> part) items += (items.empty() ? "" : ",") + part;
    }
  }
  if (in.bad()) return fmt::format("{}: cannot be read: {}", path, std::strerror(errno));
  if (items.empty()) return fmt::format("{}: holds no time", path);
  const std::string error = parse_time_list(items, times);
  return error.empty() ? error : fmt::format("{}: {}", path, error);
}

std::string parse_row_selection(const std::string& text, SimulationOptions& options) {
  if (text == "all") {
    options.record_rows = RecordedRows::kGrid;
    options.record_every = 1;
    return {};
  }
  if (text == "events") {
    options.record_rows = RecordedRows::kEventsOnly;
    options.record_every = 1;
    return {};
  }
  constexpr std::string_view kEvery = "every:";
  if (text.starts_with(kEvery)) {
    const std::string_view k = std::string_view(text).substr(kEvery.size());
    std::size_t value = 0;
    const auto [end, ec] = std::from_chars(k.data(), k.data() + k.size(), value);
    if (ec == std::errc() && end == k.data() + k.size() && value > 0) {
      options.record_rows = RecordedRows::kGrid;
      options.record_every = value;
      return {};
    }
  }
  return fmt::format(
      "'{}' is not a row selection (all, events, every:K with K a positive "
      "integer)",
      text);
}

}  // namespace hdae::examples
