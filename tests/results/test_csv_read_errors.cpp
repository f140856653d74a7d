// Malformed result CSVs: each problem is an IoError "<file>:<line>: <problem>" with the exact
// text below, so a user can go straight to the offending line.
#include <sys/stat.h>

#include <cmath>
#include <limits>
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
  // Written back, the time column is "time": a data column of that name would appear twice in
  // every file written from the table (found by fuzzing the write/read round trip).
  CHECK(read_error("t,x,time\n0,0,0\n") ==
        "F:1: column \"time\" (field 3) would collide with the time column \"t\", which is "
        "written as \"time\"");
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

TEST_CASE("bytes that are not printable are shown escaped, so the message is whole") {
  using std::string_literals::operator""s;
  // A NUL byte ended the message there (a C string); now it shows, and so does what follows.
  CHECK(read_error("time,x\n0,1\n1,a\0b\n"s) == "F:3: column \"x\": \"a\\x00b\" is not a number");
  CHECK(read_error("time,\"x\x01\ty\"\n0,\x7f\n") ==
        "F:2: column \"x\\x01\\ty\": \"\\x7f\" is not a number");
  // Quotes and backslashes are escaped; well-formed UTF-8 is shown as it is, a stray byte not.
  CHECK(read_error("time,\"a\"\"b\\c\"\n0,?\n") ==
        "F:2: column \"a\\\"b\\\\c\": \"?\" is not a number");
  CHECK(read_error("time,\xcf\x86\n0,\xcf\n") ==
        "F:2: column \"\xcf\x86\": \"\\xcf\" is not a number");
  CHECK(read_error("x\0,time\n"s) ==
        "F:1: the first column must be \"time\" or \"t\", found \"x\\x00\"");
}

TEST_CASE("a long field is cut in the message after 40 bytes, with its length") {
  const std::string field = std::string(1000000, '7') + "x";  // a number with a typo at the end
  CHECK(read_error("time,x\n0," + field + "\n") ==
        "F:2: column \"x\": \"7777777777777777777777777777777777777777\"... (1000001 bytes) is "
        "not a number");
  // The cut does not split a UTF-8 character: 39 bytes, then a two-byte one across byte 40.
  const std::string name = std::string(39, 'n') + "\xcf\x86" + std::string(10, 'n');
  CHECK(read_error("time," + name + "\n0,?\n") ==
        "F:2: column \"" + std::string(39, 'n') + "\"... (51 bytes): \"?\" is not a number");
}

TEST_CASE("a UTF-8 byte order mark at the start of the file is skipped") {
  CHECK(read_error("\xef\xbb\xbftime,x\n0,1\n") == "no error");
  CHECK(read_error("\xef\xbb\xbf# written by a spreadsheet\ntime,x\n0,1\n") == "no error");
  const test::TempDir dir;
  const ResultTable table = read_csv(dir.write("bom.csv", "\xef\xbb\xbft;x\n0;1\n"));
  REQUIRE(table.num_columns() == 1);
  CHECK(table.columns()[0].name == "x");
  // Elsewhere it is part of the text (a name may start with U+FEFF).
  CHECK(read_error("time,x\n\xef\xbb\xbf"
                   "0,1\n") ==
        "F:2: column \"time\": \"\xef\xbb\xbf"
        "0\" is not a number");
}

TEST_CASE("a path that is not a regular file is rejected before it is opened, saying what it is") {
  const test::TempDir dir;
  const std::string path = dir.path().string();
  CHECK_THROWS_WITH_AS(static_cast<void>(read_csv(dir.path())), (path + ": is a directory").c_str(),
                       IoError);
  // A FIFO without a writer would block the reader for ever.
  const auto fifo = dir.file("fifo.csv");
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH_AS(static_cast<void>(read_csv(fifo)),
                       (fifo.string() + ": is a FIFO (named pipe), not a regular file").c_str(),
                       IoError);
  CHECK_THROWS_WITH_AS(static_cast<void>(read_csv("/dev/null")),
                       "/dev/null: is a character device, not a regular file", IoError);
}

TEST_CASE("a number below the smallest subnormal reads as zero, above the largest double fails") {
  using Limits = std::numeric_limits<double>;
  // Half the smallest subnormal, 2^-1075 = 2.4703282292062327208...e-324, is the boundary:
  // below it the nearest double is 0, above it 2^-1074 (IEEE 754 round to nearest).
  const test::TempDir dir;
  const ResultTable t = read_csv(dir.write(
      "tiny.csv",
      "time,a,b,c,d,e,f,g\n"
      "1e-400,1e-400,2e-324,-1e-400,2.4703282292062327e-324,2.4703282292062328e-324,4.9e-324,"
      "1000e-327\n"));
  CHECK(t.time(0) == 0.0);
  CHECK(t.value(0, 0) == 0.0);
  CHECK(t.value(0, 1) == 0.0);
  CHECK(t.value(0, 2) == 0.0);
  CHECK(std::signbit(t.value(0, 2)));  // the nearest double to -1e-400 is -0
  CHECK(t.value(0, 3) == 0.0);
  CHECK(t.value(0, 4) == Limits::denorm_min());
  CHECK(t.value(0, 5) == Limits::denorm_min());
  CHECK(t.value(0, 6) == 0.0);  // 1e-324, written with its digits before the point
  CHECK(read_error("time,x\n0,-1e400\n") ==
        "F:2: column \"x\": \"-1e400\" is out of the range of double");
  CHECK(read_error("time,x\n0,0.0001e313\n") ==
        "F:2: column \"x\": \"0.0001e313\" is out of the range of double");
  CHECK(read_error("time,x\n0,1e99999999999999999999\n") ==
        "F:2: column \"x\": \"1e99999999999999999999\" is out of the range of double");
  CHECK(read_error("time,x\n0,0.00001e313\n") == "no error");  // 1e308
}

TEST_CASE("writing to a directory that does not exist names the file") {
  const test::TempDir dir;
  const auto file = dir.path() / "missing" / "out.csv";
  const ResultTable table({{"x", "", ColumnKind::kOther}});
  CHECK_THROWS_WITH_AS(write_csv(table, file),
                       fmt::format("{}: cannot open for writing", file.string()).c_str(), IoError);
}
