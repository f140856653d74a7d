// Matching the signals of both tables by name (signal_selection.hpp).
#include "signal_selection.hpp"

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>

#include "name_list.hpp"

namespace hdae::compare {
namespace {

/// The columns of a table by name (views into the table's names). A name carried by several
/// columns (read_csv rejects such a file, a table built in code may have one) is not compared:
/// which of them would the verdict be about?
struct ColumnIndex {
  std::unordered_map<std::string_view, std::size_t> first_column;
  std::unordered_map<std::string_view, std::size_t> columns_named;  ///< how many carry the name
  std::vector<std::string_view> repeated;  ///< names carried by several, in table order

  explicit ColumnIndex(const ResultTable& table) {
    first_column.reserve(table.num_columns());
    columns_named.reserve(table.num_columns());
    for (std::size_t j = 0; j < table.num_columns(); ++j) {
      const std::string_view name = table.columns()[j].name;
      first_column.try_emplace(name, j);
      if (++columns_named[name] == 2) repeated.push_back(name);
    }
  }
  [[nodiscard]] bool contains(std::string_view name) const { return first_column.contains(name); }
  [[nodiscard]] bool is_repeated(std::string_view name) const {
    const auto it = columns_named.find(name);
    return it != columns_named.end() && it->second > 1;
  }
  [[nodiscard]] bool is_first(std::string_view name, std::size_t column) const {
    return first_column.at(name) == column;
  }
};

/// The column indexes of the reference and of the result.
struct TableIndexes {
  ColumnIndex reference;
  ColumnIndex result;

  /// In both tables, and carried by a single column in each.
  [[nodiscard]] bool comparable(std::string_view name) const {
    return reference.contains(name) && result.contains(name) && !reference.is_repeated(name) &&
           !result.is_repeated(name);
  }
  [[nodiscard]] SignalColumns columns_of(std::string_view name) const {
    return SignalColumns{name, reference.first_column.at(name), result.first_column.at(name)};
  }
};

void report_repeated_names(const TableIndexes& tables, CompareReport& report) {
  for (const auto& [table, index] :
       {std::pair{"reference", &tables.reference}, std::pair{"result", &tables.result}}) {
    for (const std::string_view name : index->repeated) {
      report.problems.push_back(
          fmt::format("the {} has {} columns named \"{}\"; it is not compared", table,
                      index->columns_named.at(name), name));
    }
  }
}

/// Appends the names of `table` that `other` lacks, each once, in table order.
void list_one_sided(const ResultTable& table, const ColumnIndex& own, const ColumnIndex& other,
                    std::vector<std::string>& names) {
  for (std::size_t j = 0; j < table.num_columns(); ++j) {
    const std::string& name = table.columns()[j].name;
    if (!other.contains(name) && own.is_first(name, j)) names.push_back(name);
  }
}

/// Every reference signal the result carries too. The reference signals it lacks fail the
/// comparison or only warn, as options.missing_signals_fail says.
std::vector<SignalColumns> common_signals(const ResultTable& reference, const TableIndexes& tables,
                                          const CompareOptions& options, CompareReport& report) {
  std::vector<SignalColumns> signals;
  for (const ColumnInfo& c : reference.columns()) {
    if (tables.comparable(c.name)) signals.push_back(tables.columns_of(c.name));
  }
  if (!report.only_in_reference.empty()) {
    const std::string missing = fmt::format(
        "{} signal{} of the reference missing from the result: {}", report.only_in_reference.size(),
        report.only_in_reference.size() == 1 ? "" : "s", name_list(report.only_in_reference));
    if (options.missing_signals_fail) {
      report.problems.push_back(missing);
    } else {
      report.warnings.push_back(missing + " (not compared)");
    }
  }
  return signals;
}

/// The signals options.signals names, each once; a name that either table lacks is a problem.
std::vector<SignalColumns> named_signals(const TableIndexes& tables, const CompareOptions& options,
                                         CompareReport& report) {
  std::vector<SignalColumns> signals;
  std::unordered_set<std::string_view> named;
  for (const std::string& name : options.signals) {
    if (!named.insert(name).second) continue;  // named twice, compared once
    const bool in_both = tables.reference.contains(name) && tables.result.contains(name);
    if (tables.comparable(name)) {
      signals.push_back(tables.columns_of(name));
    } else if (!in_both) {
      report.problems.push_back(fmt::format(
          "signal \"{}\" is {}", name,
          tables.reference.contains(name)
              ? "not in the result"
              : (tables.result.contains(name) ? "not in the reference" : "in neither table")));
    }
  }
  return signals;
}

}  // namespace

std::vector<SignalColumns> select_signals(const ResultTable& reference, const ResultTable& result,
                                          const CompareOptions& options, CompareReport& report) {
  const TableIndexes tables{ColumnIndex(reference), ColumnIndex(result)};
  report_repeated_names(tables, report);
  list_one_sided(reference, tables.reference, tables.result, report.only_in_reference);
  list_one_sided(result, tables.result, tables.reference, report.only_in_result);
  if (options.signals.empty()) return common_signals(reference, tables, options, report);
  return named_signals(tables, options, report);
}

SignalColumns traced_columns(const ResultTable& reference, const ResultTable& result,
                             std::string_view signal) {
  const TableIndexes tables{ColumnIndex(reference), ColumnIndex(result)};
  const auto ref_it = tables.reference.first_column.find(signal);
  const auto res_it = tables.result.first_column.find(signal);
  if (ref_it == tables.reference.first_column.end() || res_it == tables.result.first_column.end()) {
    throw std::out_of_range(
        fmt::format("signal \"{}\" is not in the {}", signal,
                    ref_it == tables.reference.first_column.end() ? "reference" : "result"));
  }
  for (const auto& [table, index] :
       {std::pair{"reference", &tables.reference}, std::pair{"result", &tables.result}}) {
    if (index->is_repeated(signal)) {
      throw std::out_of_range(fmt::format("the {} has {} columns named \"{}\"", table,
                                          index->columns_named.at(signal), signal));
    }
  }
  return SignalColumns{signal, ref_it->second, res_it->second};
}

}  // namespace hdae::compare
