// ResultTable: rows, named columns, and the messages for a missing column or a wrong row size.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/result.hpp"

using namespace hdae;

namespace {

ResultTable two_column_table() {
  ResultTable table({{"x", "m", ColumnKind::kState}, {"der(x)", "m/s", ColumnKind::kDerivative}});
  table.append(0.0, std::vector{1.0, 2.0});
  table.append(0.5, std::vector{3.0, 4.0});
  table.append(0.5, std::vector{5.0, 6.0});  // right limit at an event at t = 0.5
  return table;
}

}  // namespace

TEST_CASE("a result table returns rows, values and columns as appended") {
  const ResultTable table = two_column_table();
  REQUIRE(table.num_rows() == 3);
  REQUIRE(table.num_columns() == 2);
  CHECK(table.time() == std::vector{0.0, 0.5, 0.5});
  CHECK(table.time(2) == 0.5);
  CHECK(std::vector(table.row(1).begin(), table.row(1).end()) == std::vector{3.0, 4.0});
  CHECK(table.value(2, 1) == 6.0);
  CHECK(table.column_index("der(x)") == 1);
  CHECK(table.column("x") == std::vector{1.0, 3.0, 5.0});
  CHECK(table.final_value("der(x)") == 6.0);
  CHECK(table.columns()[1].unit == "m/s");
}

TEST_CASE("asking for a missing column names it and lists the columns that exist") {
  const ResultTable table = two_column_table();
  CHECK_THROWS_WITH_AS(static_cast<void>(table.column_index("y")),
                       "no column \"y\" in the result; columns: \"x\" \"der(x)\"",
                       std::out_of_range);
  CHECK_THROWS_WITH_AS(static_cast<void>(table.column("y")),
                       "no column \"y\" in the result; columns: \"x\" \"der(x)\"",
                       std::out_of_range);
  CHECK_THROWS_WITH_AS(static_cast<void>(ResultTable().final_value("y")),
                       "no column \"y\" in the result (it has no columns)", std::out_of_range);
}

TEST_CASE("a missing column in a wide table is reported with the column count, not a list") {
  std::vector<ColumnInfo> columns;
  for (int i = 0; i < 40; ++i) columns.push_back({"x" + std::to_string(i), "", ColumnKind::kState});
  const ResultTable table(columns);
  CHECK_THROWS_WITH_AS(static_cast<void>(table.column_index("y")),
                       "no column \"y\" in the result (40 columns)", std::out_of_range);
}

TEST_CASE("every column of a wide table is found by name, and a copy finds them too") {
  std::vector<ColumnInfo> columns;
  for (int i = 0; i < 100000; ++i)
    columns.push_back({"x" + std::to_string(i), "", ColumnKind::kState});
  const ResultTable table(columns);
  for (std::size_t j = 0; j < columns.size(); ++j) {
    if (table.column_index(columns[j].name) != j) FAIL_CHECK("column ", columns[j].name);
  }
  // The copy's index refers to its own names, not to those of the table it came from.
  const ResultTable copy = [&] {
    const ResultTable original(columns);
    return original;
  }();
  CHECK(copy.column_index("x99999") == 99999);
}

TEST_CASE("reserving rows changes neither the rows nor what is appended afterwards") {
  ResultTable table({{"x", "", ColumnKind::kState}, {"y", "", ColumnKind::kState}});
  table.reserve_rows(1000);
  CHECK(table.num_rows() == 0);
  table.append(0.0, std::vector{1.0, 2.0});
  table.reserve_rows(0);  // less than there is: nothing changes
  table.append(1.0, std::vector{3.0, 4.0});
  CHECK(table.num_rows() == 2);
  CHECK(table.column("y") == std::vector{2.0, 4.0});
}

TEST_CASE("a name that several columns of a table built in code carry finds the first") {
  const ResultTable table({{"x", "", ColumnKind::kState},
                           {"y", "", ColumnKind::kState},
                           {"x", "", ColumnKind::kOutput}});
  CHECK(table.column_index("x") == 0);
  CHECK(table.column_index("y") == 1);
}

TEST_CASE("the final value of an empty table is an error naming the column") {
  const ResultTable table({{"x", "", ColumnKind::kOther}});
  CHECK_THROWS_WITH_AS(static_cast<void>(table.final_value("x")),
                       "no final value of \"x\": the result has no rows", std::out_of_range);
}

TEST_CASE("rows and columns out of range are errors, not undefined behaviour") {
  const ResultTable table = two_column_table();
  CHECK_THROWS_WITH_AS(static_cast<void>(table.row(3)),
                       "ResultTable::row: row 3 does not exist (3 rows)", std::out_of_range);
  CHECK_THROWS_WITH_AS(static_cast<void>(table.value(0, 2)),
                       "ResultTable::value: column 2 does not exist (2 columns)",
                       std::out_of_range);
}

TEST_CASE("appending a row of the wrong size names the expected and actual sizes") {
  ResultTable table = two_column_table();
  CHECK_THROWS_WITH_AS(table.append(1.0, std::vector{1.0, 2.0, 3.0}),
                       "ResultTable::append: expected 2 values (one per column), got 3",
                       std::invalid_argument);
  CHECK(table.num_rows() == 3);  // the table is unchanged
}

TEST_CASE("a table grown far past its first block keeps every value, and so do its copies") {
  // 3000 rows of 500 columns: 12 MB, past the C library's mmap threshold, so the values are
  // regrown many times, small blocks and large. Value (i, j) = i * 500 + j is exact in double.
  constexpr std::size_t kRows = 3000;
  constexpr std::size_t kColumns = 500;
  std::vector<ColumnInfo> columns;
  for (std::size_t j = 0; j < kColumns; ++j) {
    columns.push_back({"x" + std::to_string(j), "", ColumnKind::kState});
  }
  ResultTable table(columns);
  std::vector<double> row(kColumns);
  for (std::size_t i = 0; i < kRows; ++i) {
    for (std::size_t j = 0; j < kColumns; ++j) row[j] = static_cast<double>(i * kColumns + j);
    table.append(static_cast<double>(i), row);
  }
  const auto holds_every_value = [](const ResultTable& t) {
    if (t.num_rows() != kRows) return false;
    for (std::size_t i = 0; i < kRows; ++i) {
      if (t.time(i) != static_cast<double>(i)) return false;
      for (std::size_t j = 0; j < kColumns; ++j) {
        if (t.row(i)[j] != static_cast<double>(i * kColumns + j)) return false;
      }
    }
    return true;
  };
  CHECK(holds_every_value(table));

  ResultTable copy = table;
  CHECK(copy.row(0).data() != table.row(0).data());  // its own values
  CHECK(holds_every_value(copy));
  const ResultTable& same = copy;
  copy = same;  // assigning a table to itself keeps it
  CHECK(holds_every_value(copy));

  ResultTable moved = std::move(copy);
  CHECK(holds_every_value(moved));
  ResultTable assigned(columns);
  assigned.append(-1.0, row);
  assigned = table;  // replaces the row it had
  CHECK(holds_every_value(assigned));
  assigned = std::move(moved);
  CHECK(holds_every_value(assigned));

  // A table without columns counts its rows all the same.
  ResultTable times_only(std::vector<ColumnInfo>{});
  times_only.append(0.5, {});
  CHECK(times_only.num_rows() == 1);
  CHECK(times_only.row(0).empty());
}
