// ResultTable (result.hpp): time plus named columns, stored row-major so that appending a row
// during a run is one contiguous insert and a row is one span.
#include <stdexcept>

#include <fmt/format.h>

#include "hdae/result.hpp"

namespace hdae {
namespace {

// Listing every column helps find a misspelt name; past this many it only buries the message.
constexpr std::size_t kMaxListedColumns = 12;

}  // namespace

ResultTable::ResultTable(std::vector<ColumnInfo> columns) : columns_(std::move(columns)) {
  // A wide table (10^5 columns) looked up name by name must not cost a scan per name.
  index_.reserve(columns_.size());
  for (std::size_t j = 0; j < columns_.size(); ++j) index_.try_emplace(columns_[j].name, j);
}

std::span<const double> ResultTable::row(std::size_t row) const {
  if (row >= num_rows()) {
    throw std::out_of_range(
        fmt::format("ResultTable::row: row {} does not exist ({} rows)", row, num_rows()));
  }
  return {values_.data() + row * num_columns(), num_columns()};
}

double ResultTable::value(std::size_t row, std::size_t column) const {
  if (column >= num_columns()) {
    throw std::out_of_range(fmt::format("ResultTable::value: column {} does not exist ({} columns)",
                                        column, num_columns()));
  }
  return this->row(row)[column];
}

std::size_t ResultTable::column_index(std::string_view name) const {
  if (const auto it = index_.find(name); it != index_.end()) return it->second;
  std::string message = fmt::format("no column \"{}\" in the result", name);
  if (columns_.empty()) {
    message += " (it has no columns)";
  } else if (columns_.size() <= kMaxListedColumns) {
    message += "; columns:";
    for (const ColumnInfo& c : columns_) message += fmt::format(" \"{}\"", c.name);
  } else {
    message += fmt::format(" ({} columns)", columns_.size());
  }
  throw std::out_of_range(message);
}

std::vector<double> ResultTable::column(std::string_view name) const {
  const std::size_t j = column_index(name);
  std::vector<double> values;
  values.reserve(num_rows());
  for (std::size_t i = 0; i < num_rows(); ++i)
    values.push_back(values_.data()[i * num_columns() + j]);
  return values;
}

double ResultTable::final_value(std::string_view name) const {
  const std::size_t j = column_index(name);
  if (num_rows() == 0) {
    throw std::out_of_range(fmt::format("no final value of \"{}\": the result has no rows", name));
  }
  return values_.data()[(num_rows() - 1) * num_columns() + j];
}

void ResultTable::reserve_rows(std::size_t rows) {
  time_.reserve(rows);
  values_.reserve(rows * num_columns());
}

void ResultTable::append(double t, std::span<const double> values) {
  if (values.size() != num_columns()) {
    throw std::invalid_argument(
        fmt::format("ResultTable::append: expected {} values (one per column), got {}",
                    num_columns(), values.size()));
  }
  time_.push_back(t);
  values_.append(values);
}

}  // namespace hdae
