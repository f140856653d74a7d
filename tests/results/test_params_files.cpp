// The parameters file beside a result (<stem>.params.csv: name,value,unit): written at full
// precision, read back to the same values, only beside a regular file, malformed input named
// by file and line.
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "results/temp_dir.hpp"

using namespace hdae;

namespace {

std::string read_error(const test::TempDir& dir, const char* text) {
  try {
    static_cast<void>(read_params_csv(dir.write("p.params.csv", text)));
  } catch (const IoError& e) {
    return std::string(e.what()).substr(dir.file("p.params.csv").string().size());
  }
  return "no error";
}

}  // namespace

TEST_CASE("a parameters file reads back to the same names, values and units") {
  // Values whose shortest decimal form is long (1/3), subnormal (5e-324), or needs quotes in
  // its name or unit: the round trip must give the same bits and text.
  const std::vector<ParameterInfo> written = {
      {.name = "J2", .unit = "kg.m2", .value = 0.5},
      {.name = "third", .value = 1.0 / 3.0},
      {.name = "tiny", .unit = "m", .value = std::numeric_limits<double>::denorm_min()},
      {.name = "a,b", .unit = "\"quoted\" unit", .value = -1e300},
  };
  const test::TempDir dir;
  write_params_csv(written, dir.file("r.params.csv"));
  CHECK(dir.read("r.params.csv") ==
        "name,value,unit\nJ2,0.5,kg.m2\nthird,0.3333333333333333,\ntiny,5e-324,m\n"
        "\"a,b\",-1e+300,\"\"\"quoted\"\" unit\"\n");
  const std::vector<ParameterInfo> read = read_params_csv(dir.file("r.params.csv"));
  REQUIRE(read.size() == written.size());
  for (std::size_t i = 0; i < read.size(); ++i) {
    CHECK(read[i].name == written[i].name);
    CHECK(read[i].unit == written[i].unit);
    CHECK(read[i].value == written[i].value);  // bit for bit: shortest round-trip text
  }
}

TEST_CASE("write_result_files puts the parameters beside a regular file only") {
  SimulationResult result;
  result.table = ResultTable({{"x", "m", ColumnKind::kState}});
  result.table.append(0.0, std::vector{1.0});
  const std::vector<ParameterInfo> parameters = {{.name = "k", .unit = "N/m", .value = 2.5}};
  const test::TempDir dir;
  const ResultFiles files = write_result_files(result, dir.file("run.csv"), parameters);
  CHECK(files.params == dir.file("run.params.csv"));
  CHECK(dir.read("run.params.csv") == "name,value,unit\nk,2.5,N/m\n");
  CHECK(dir.read("run.units.csv") == "time,s,time\nx,m,state\n");

  const ResultFiles to_device = write_result_files(result, "/dev/null", parameters);
  CHECK(to_device.params.empty());
  CHECK_FALSE(std::filesystem::exists("/dev/null.params.csv"));
  // Without parameters (the older overload) no parameters file is written.
  CHECK(write_result_files(result, dir.file("plain.csv")).params.empty());
  CHECK_FALSE(std::filesystem::exists(dir.file("plain.params.csv")));
}

TEST_CASE("a malformed parameters file is an error naming the line") {
  const test::TempDir dir;
  CHECK(read_error(dir, "") == ": empty file (no header line)");
  CHECK(read_error(dir, "name,value\nk,1\n") ==
        ":1: the header must be name,value,unit, found \"name,value\"");
  CHECK(read_error(dir, "name,value,unit\nk,1\n") == ":2: expected 3 fields, found 2");
  CHECK(read_error(dir, "name,value,unit\nk,stiff,N/m\n") ==
        ":2: column \"k\": \"stiff\" is not a number");
  CHECK(read_error(dir, "name,value,unit\nk,inf,N/m\n") == ":2: value \"inf\" is not finite");
  CHECK(read_error(dir, "name,value,unit\nk,1,\n# note\nk,2,\n") ==
        ":4: parameter \"k\" given twice");
}
