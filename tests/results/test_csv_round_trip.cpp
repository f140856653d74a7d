// Result CSV out and in: a write/read round trip gives back every double bit for bit, event
// limits (equal times) survive, and files from other tools (';', "t", quotes, CRLF) are read.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "results/temp_dir.hpp"

using namespace hdae;

namespace {

using Limits = std::numeric_limits<double>;

/// Bitwise equality; every NaN is written as "nan", so for NaN only NaN-ness can survive.
bool same_bits(double a, double b) {
  if (std::isnan(a)) return std::isnan(b);
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

/// Doubles that stress the shortest-representation writer and the reader: signed zeros,
/// subnormals, the extremes, and values whose shortest decimal has 17 digits.
std::vector<double> special_values() {
  return {0.0,
          -0.0,
          Limits::denorm_min(),
          -Limits::denorm_min(),
          std::bit_cast<double>(std::uint64_t{0x000FFFFFFFFFFFFF}),  // largest subnormal
          Limits::min(),
          Limits::max(),
          Limits::lowest(),
          1e308,
          Limits::epsilon(),
          1.0 + Limits::epsilon(),
          0.1,
          1.0 / 3.0,
          Limits::infinity(),
          -Limits::infinity(),
          Limits::quiet_NaN()};
}

/// A random double of one of three kinds: any bit pattern (NaN excluded), a subnormal, or a
/// "typical" value in [-1e3, 1e3].
double random_value(std::mt19937_64& rng) {
  const std::uint64_t bits = rng();
  switch (bits % 3) {
    case 0: {
      const double v = std::bit_cast<double>(rng());
      return std::isnan(v) ? 0.5 : v;
    }
    case 1:
      return std::bit_cast<double>(rng() & 0x800FFFFFFFFFFFFF);  // exponent field 0
    default:
      return std::uniform_real_distribution<double>(-1e3, 1e3)(rng);
  }
}

}  // namespace

TEST_CASE("a CSV write/read round trip is bit exact for every double") {
  std::mt19937_64 rng(20240601);
  ResultTable table({{"a", "m", ColumnKind::kState},
                     {"b", "", ColumnKind::kDerivative},
                     {"c", "N", ColumnKind::kOutput}});
  // Times: non-decreasing random doubles of all magnitudes, with repeats (event limits).
  std::vector<double> times;
  for (int i = 0; i < 3000; ++i) times.push_back(random_value(rng));
  for (const double v : special_values()) {
    if (std::isfinite(v)) times.push_back(v);
  }
  std::sort(times.begin(), times.end());
  for (std::size_t i = 0; i < times.size(); i += 7) times[i] = times[i > 0 ? i - 1 : 0];
  std::vector<double> values;
  for (const double v : special_values()) values.push_back(v);
  while (values.size() < times.size() * 3) values.push_back(random_value(rng));
  for (std::size_t i = 0; i < times.size(); ++i) {
    table.append(times[i], std::span<const double>(values).subspan(3 * i, 3));
  }

  const test::TempDir dir;
  write_csv(table, dir.file("round_trip.csv"));
  const ResultTable back = read_csv(dir.file("round_trip.csv"));

  REQUIRE(back.num_rows() == table.num_rows());
  REQUIRE(back.num_columns() == 3);
  CHECK(back.columns()[0].name == "a");
  CHECK(back.columns()[2].name == "c");
  CHECK(back.columns()[0].kind == ColumnKind::kOther);  // units and kinds are not in the CSV
  CHECK(back.columns()[0].unit.empty());
  int mismatches = 0;
  for (std::size_t i = 0; i < table.num_rows(); ++i) {
    if (!same_bits(table.time(i), back.time(i))) ++mismatches;
    for (std::size_t j = 0; j < 3; ++j) {
      if (!same_bits(table.value(i, j), back.value(i, j))) ++mismatches;
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("write_csv uses the shortest exact form and nan/inf for non-finite values") {
  ResultTable table({{"x", "", ColumnKind::kState}, {"y", "", ColumnKind::kState}});
  table.append(0.0, std::vector{-0.0, Limits::denorm_min()});
  table.append(0.1, std::vector{1e308, Limits::quiet_NaN()});
  table.append(0.1, std::vector{Limits::infinity(), -Limits::infinity()});
  table.append(0.25, std::vector{-Limits::quiet_NaN(), 1.0 / 3.0});
  std::ostringstream out;
  write_csv(table, out);
  // 2^-1074 = 4.94...e-324 is the only double in (0, 7.4e-324), so "5e-324" reads back to it;
  // 1/3 needs 16 digits (IEEE 754: 15 to 17 significant digits identify a double).
  CHECK(out.str() ==
        "time,x,y\n"
        "0,-0,5e-324\n"
        "0.1,1e+308,nan\n"
        "0.1,inf,-inf\n"
        "0.25,nan,0.3333333333333333\n");
}

TEST_CASE("rows with equal time, the two limits at an event, survive a round trip") {
  ResultTable table({{"w1", "rad/s", ColumnKind::kState}});
  table.append(0.0, std::vector{0.0});
  table.append(0.0, std::vector{6.4});
  table.append(100.0, std::vector{6.4});
  const test::TempDir dir;
  write_csv(table, dir.file("limits.csv"));
  const ResultTable back = read_csv(dir.file("limits.csv"));
  CHECK(back.time() == std::vector{0.0, 0.0, 100.0});
  CHECK(back.column("w1") == std::vector{0.0, 6.4, 6.4});
}

TEST_CASE("column names with separators, quotes or outer spaces are quoted and round-trip") {
  ResultTable table({{"a,b", "", ColumnKind::kOther},
                     {"say \"hi\"", "", ColumnKind::kOther},
                     {"p;q", "", ColumnKind::kOther},
                     {" padded ", "", ColumnKind::kOther},
                     {"der(x)", "", ColumnKind::kOther}});
  table.append(1.0, std::vector{1.0, 2.0, 3.0, 4.0, 5.0});
  const test::TempDir dir;
  write_csv(table, dir.file("names.csv"));
  CHECK(dir.read("names.csv") ==
        "time,\"a,b\",\"say \"\"hi\"\"\",\"p;q\",\" padded \",der(x)\n1,1,2,3,4,5\n");
  const ResultTable back = read_csv(dir.file("names.csv"));
  REQUIRE(back.num_columns() == 5);
  CHECK(back.columns()[0].name == "a,b");
  CHECK(back.columns()[1].name == "say \"hi\"");
  CHECK(back.columns()[2].name == "p;q");
  CHECK(back.columns()[3].name == " padded ");
  CHECK(back.final_value("a,b") == 1.0);
  CHECK(back.final_value("der(x)") == 5.0);
}

TEST_CASE("a semicolon-separated file with a \"t\" column, comments and CRLF line ends is read") {
  const test::TempDir dir;
  const auto file = dir.write("other_tool.csv",
                              "# exported by another tool\r\n"
                              "T; \"x;1\" ;y\r\n"
                              "0; 1.5 ;-2\r\n"
                              "\r\n"
                              "# a comment between rows\r\n"
                              "0.5;+3;1e-3\r\n");
  const ResultTable table = read_csv(file);
  REQUIRE(table.num_columns() == 2);
  CHECK(table.columns()[0].name == "x;1");
  CHECK(table.columns()[1].name == "y");
  CHECK(table.time() == std::vector{0.0, 0.5});
  CHECK(table.column("x;1") == std::vector{1.5, 3.0});
  CHECK(table.column("y") == std::vector{-2.0, 1e-3});
}

TEST_CASE("reading rounds decimal text correctly near and below the smallest normal double") {
  const test::TempDir dir;
  // Exact decimal expansions: of 2^-1074 (the smallest subnormal) and of DBL_MIN = 2^-1022.
  // fmt prints the exact binary value when asked for more digits than it has.
  const std::string exact_denorm_min = fmt::format("{:.760e}", Limits::denorm_min());
  const std::string exact_min = fmt::format("{:.800e}", Limits::min());
  const auto file = dir.write("subnormals.csv",
                              fmt::format("time,a,b,c,d,e\n"
                                          "0,{},{},2.2250738585072014e-308,2.2250738585072012e-308,"
                                          "2.2250738585072011e-308\n",
                                          exact_denorm_min, exact_min));
  const ResultTable table = read_csv(file);
  CHECK(same_bits(table.value(0, 0), Limits::denorm_min()));
  CHECK(same_bits(table.value(0, 1), Limits::min()));
  CHECK(same_bits(table.value(0, 2), Limits::min()));  // DBL_MIN's printed 17-digit form
  // The two values that hung the Java and PHP parsers (Rick Regan, "Java Hangs When
  // Converting 2.2250738585072012e-308", Exploring Binary, 2011): the first rounds up to
  // 2^-1022, the second to the largest subnormal 0x0.fffffffffffffp-1022.
  CHECK(same_bits(table.value(0, 3), Limits::min()));
  CHECK(same_bits(table.value(0, 4), std::bit_cast<double>(std::uint64_t{0x000FFFFFFFFFFFFF})));
}

TEST_CASE("reading rounds a decimal exactly halfway between two doubles to the even one") {
  // 1 + 2^-53 lies exactly halfway between 1 and 1 + 2^-52 (IEEE 754 round-half-to-even
  // gives 1); one more unit in the last decimal place is above halfway and rounds up.
  const test::TempDir dir;
  const auto file = dir.write("halfway.csv",
                              "time,a,b\n"
                              "0,1.00000000000000011102230246251565404236316680908203125,"
                              "1.00000000000000011102230246251565404236316680908203126\n");
  const ResultTable table = read_csv(file);
  CHECK(same_bits(table.value(0, 0), 1.0));
  CHECK(same_bits(table.value(0, 1), 1.0 + Limits::epsilon()));
}

TEST_CASE("NaN and infinite signal values are accepted on reading") {
  const test::TempDir dir;
  const auto file = dir.write("nonfinite.csv", "time,a,b,c\n0,nan,inf,-inf\n1,NaN,Infinity,-1\n");
  const ResultTable table = read_csv(file);
  CHECK(std::isnan(table.value(0, 0)));
  CHECK(table.value(0, 1) == Limits::infinity());
  CHECK(table.value(0, 2) == -Limits::infinity());
  CHECK(std::isnan(table.value(1, 0)));
  CHECK(table.value(1, 1) == Limits::infinity());
}
