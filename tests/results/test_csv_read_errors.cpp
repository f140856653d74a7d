// Malformed result CSVs: each problem is an IoError "<file>:<line>: <problem>" with the exact
// text below, so a user can go straight to the offending line.
#include <string>
#include <string_view>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "results/temp_dir.hpp"

using namespace hdae;

namespace {

/// The message of the IoError that reading `content` throws, with the file's path replaced
/// by "F" so expected texts stay short.
std::string read_error(std::string_view content) {
  const test::TempDir dir;
  const auto file = dir.write("bad.csv", content);
  try {
    static_cast<void>(read_csv(file));
  } catch (const IoError& e) {
    std::string message = e.what();
    const std::string path = file.string();
    if (message.starts_with(path)) message = "F" + message.substr(path.size());
    return message;
  }
  return "no error";
}

}  // namespace

TEST_CASE("a missing file is reported by name") {
  const test::TempDir dir;
  const auto file = dir.file("absent.csv");
  CHECK_THROWS_WITH_AS(static_cast<void>(read_csv(file)),
                       fmt::format("{}: no such file", file.string()).c_str(), IoError);
}

TEST_CASE("an empty file, or one with only comments, has no header line") {
  CHECK(read_error("") == "F: empty file (no header line)");
  CHECK(read_error("# only a comment\n\n") == "F: empty file (no header line)");
}

TEST_CASE("the first column must be time") {
  CHECK(read_error("x,time\n0,1\n") ==
        "F:1: the first column must be \"time\" or \"t\", found \"x\"");
  CHECK(read_error("# c\nTIME,x\n0,1\n") == "no error");  // case-insensitive
}

TEST_CASE("a column name given twice is an error naming it and both fields") {
  // Which of the two would a reader of "x" mean? A comparison that took the first one alone
  // passed files whose second x differed.
  CHECK(read_error("time,x,x\n0,0,0\n") == "F:1: column \"x\" appears twice (fields 2 and 3)");
  CHECK(read_error("time,a,x,b,\"x\"\n0,0,0,0,0\n") ==
        "F:1: column \"x\" appears twice (fields 3 and 5)");
  // The time column's name counts too.
  CHECK(read_error("t;x;t\n0;0;0\n") == "F:1: column \"t\" appears twice (fields 1 and 3)");
  // Names differ by case or by inner spaces are different names.
  CHECK(read_error("time,x,X,x y,xy\n0,0,0,0,0\n") == "no error");
}

TEST_CASE("a row with the wrong number of fields names both counts") {
  CHECK(read_error("time,x\n0,1\n1,2,3\n") == "F:3: expected 2 fields, found 3");
  CHECK(read_error("time,x,y\n0,1\n") == "F:2: expected 3 fields, found 2");
}

TEST_CASE("a field that is not a number names its column and quotes the text") {
  CHECK(read_error("time,x\n0,abc\n") == "F:2: column \"x\": \"abc\" is not a number");
  CHECK(read_error("time,x\n0,1.5 kg\n") == "F:2: column \"x\": \"1.5 kg\" is not a number");
  CHECK(read_error("time,x\n0,\n") == "F:2: column \"x\": \"\" is not a number");
  CHECK(read_error("t,x\nzero,1\n") == "F:2: column \"t\": \"zero\" is not a number");
  CHECK(read_error("time,x\n0,1e400\n") ==
        "F:2: column \"x\": \"1e400\" is out of the range of double");
}

TEST_CASE("time must be finite") {
  CHECK(read_error("time,x\n0,1\nnan,2\n") == "F:3: time must be finite, found \"nan\"");
  CHECK(read_error("time,x\n-inf,1\n") == "F:2: time must be finite, found \"-inf\"");
}

TEST_CASE("decreasing time is an error, equal consecutive times are not") {
  CHECK(read_error("time,x\n0,1\n2,1\n1.5,1\n") == "F:4: time decreases from 2 to 1.5");
  CHECK(read_error("time,x\n0,1\n2,1\n2,3\n") == "no error");
}

TEST_CASE("line numbers count comment and blank lines") {
  CHECK(read_error("# header follows\ntime,x\n\n# row follows\n0,?\n") ==
        "F:5: column \"x\": \"?\" is not a number");
}

TEST_CASE("broken quoting is reported") {
  CHECK(read_error("time,\"x\n0,1\n") == "F:1: unterminated quoted field");
  CHECK(read_error("time,\"x\"y\n0,1\n") == "F:1: unexpected text after the quoted field \"x\"");
}

TEST_CASE("writing to a directory that does not exist names the file") {
  const test::TempDir dir;
  const auto file = dir.path() / "missing" / "out.csv";
  const ResultTable table({{"x", "", ColumnKind::kOther}});
  CHECK_THROWS_WITH_AS(write_csv(table, file),
                       fmt::format("{}: cannot open for writing", file.string()).c_str(), IoError);
}
