// `hdae list` and `hdae info` (model_info.hpp).
#include "model_info.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "hdae/models/catalog.hpp"

namespace hdae::cli {
namespace {

using Row = std::vector<std::string>;

/// Rows as columns padded to their widest cell (the last column unpadded), two blanks before
/// each.
std::string table(const std::vector<Row>& rows) {
  std::vector<std::size_t> width;
  for (const Row& row : rows) {
    width.resize(std::max(width.size(), row.size()), 0);
    for (std::size_t j = 0; j < row.size(); ++j) width[j] = std::max(width[j], row[j].size());
  }
  std::string text;
  for (const Row& row : rows) {
    std::string line;
    for (std::size_t j = 0; j < row.size(); ++j) {
      line += "  ";
      line += j + 1 < row.size() ? fmt::format("{:<{}}", row[j], width[j]) : row[j];
    }
    line.erase(line.find_last_not_of(' ') + 1);
    text += line + '\n';
  }
  return text;
}

/// A model as large as the chain at N = 2000 has 6000 of each; the first few show the pattern.
constexpr std::size_t kMaxListed = 40;

/// "<title> (<count>):" and a table of header (when given) and one row per item, row_of(i),
/// for the first kMaxListed items.
template <typename F>
std::string section(const char* title, std::size_t count, Row header, F row_of) {
  std::string text = fmt::format("{} ({}):\n", title, count);
  if (count == 0) return text + "  none\n";
  std::vector<Row> rows;
  if (!header.empty()) rows.push_back(std::move(header));
  for (std::size_t i = 0; i < std::min(count, kMaxListed); ++i) rows.push_back(row_of(i));
  text += table(rows);
  if (count > kMaxListed) text += fmt::format("  ... and {} more\n", count - kMaxListed);
  return text;
}

/// The same for a list of items, one row f(item) each.
template <typename Item, typename F>
std::string section(const char* title, const std::vector<Item>& items, Row header, F f) {
  return section(title, items.size(), std::move(header),
                 [&](std::size_t i) { return f(items[i]); });
}

std::string unit_or_dash(const std::string& unit) { return unit.empty() ? "-" : unit; }

std::string variables(const ModelStructure& s) {
  return section("variables", s.variables.size(), {"name", "unit", "start", "nominal"},
                 [&s](std::size_t j) -> Row {
                   const VariableInfo v = s.variables.info(j);
                   return {v.name, unit_or_dash(v.unit),
                           fmt::format("{}{}", v.start, v.fixed ? " (fixed)" : ""),
                           fmt::format("{}", v.nominal)};
                 });
}

std::string parameters(const ModelStructure& s) {
  return section("parameters", s.parameters, {"name", "unit", "default", "range", "description"},
                 [](const ParameterInfo& p) -> Row {
                   return {p.name, unit_or_dash(p.unit), fmt::format("{}", p.value),
                           fmt::format("[{}, {}]", p.min, p.max), p.description};
                 });
}

std::string equations(const ModelStructure& s) {
  return section("equations (row kind at t0)", s.equations.size(), {}, [&s](std::size_t i) -> Row {
    return {s.equations.kind(i) == RowKind::kDifferential ? "f_d" : "f_c", s.equations.name(i)};
  });
}

std::string crossings(const ModelStructure& s) {
  return section("crossings", s.crossings, {}, [](const CrossingInfo& c) -> Row {
    const char* direction = c.direction == CrossingDirection::kRising    ? "rising"
                            : c.direction == CrossingDirection::kFalling ? "falling"
                                                                         : "both";
    return {c.name, direction};
  });
}

std::string time_events(const ModelStructure& s) {
  return section("time events", s.time_events, {},
                 [](const TimeEventInfo& t) -> Row { return {t.name}; });
}

}  // namespace

std::string model_list() {
  std::vector<Row> rows;
  for (const models::CatalogEntry& e : models::catalog()) rows.push_back({e.name, e.description});
  return table(rows);
}

std::string model_info(const SimulationModel& model, const std::string& description) {
  const ModelStructure& s = model.structure();
  return fmt::format("{}: {}\n\n{}\n{}\n{}\n{}\n{}", s.name, description, variables(s),
                     parameters(s), equations(s), crossings(s), time_events(s));
}

}  // namespace hdae::cli
