// Per-signal tolerance files (read_tolerance_file, compare.hpp): "signal,rel,abs" lines, an
// empty field keeping the global value, and exact messages with file and line for bad lines.
#include <sys/stat.h>

#include <string>
#include <string_view>

#include <doctest/doctest.h>

#include "hdae/compare.hpp"
#include "hdae/errors.hpp"
#include "results/temp_dir.hpp"

using namespace hdae;

namespace {

/// The IoError message for content, with the path replaced by "F".
std::string error_of(std::string_view content) {
  const test::TempDir dir;
  const auto file = dir.write("tol.csv", content);
  try {
    static_cast<void>(read_tolerance_file(file));
  } catch (const IoError& e) {
    std::string message = e.what();
    if (message.starts_with(file.string())) message = "F" + message.substr(file.string().size());
    return message;
  }
  return "no error";
}

}  // namespace

TEST_CASE("a tolerance file sets rel and abs per signal, an empty field keeping the global one") {
  const test::TempDir dir;
  const auto file = dir.write("tol.csv",
                              "signal,rel,abs\n"
                              "# the clutch torque is an impulse integral: absolute only\n"
                              "tau_int,,1e-3\r\n"
                              "\n"
                              "w1;1e-2;\n"
                              "\"der(w2)\", 5e-3 , 0\n");
  const auto t = read_tolerance_file(file);
  REQUIRE(t.size() == 3);
  CHECK_FALSE(t.at("tau_int").rel.has_value());
  CHECK(t.at("tau_int").abs == 1e-3);
  CHECK(t.at("w1").rel == 1e-2);
  CHECK_FALSE(t.at("w1").abs.has_value());
  CHECK(t.at("der(w2)").rel == 5e-3);
  CHECK(t.at("der(w2)").abs == 0.0);
}

TEST_CASE("bad tolerance lines are reported with file and line") {
  CHECK(error_of("x,1e-3\n") == "F:1: expected 3 fields (signal,rel,abs), found 2");
  CHECK(error_of("# c\nx,abc,1\n") == "F:2: rel: \"abc\" is not a number");
  CHECK(error_of("x,1e-3,-1\n") == "F:1: abs: -1 must be finite and >= 0");
  CHECK(error_of("x,inf,1\n") == "F:1: rel: inf must be finite and >= 0");
  CHECK(error_of(",1,1\n") == "F:1: the signal name is empty");
  CHECK(error_of("x,1,1\ny,1,1\nx,2,2\n") == "F:3: signal \"x\" is listed twice");
  CHECK(error_of("\"x,1,1\n") == "F:1: unterminated quoted field");
  CHECK(error_of("") == "no error");
}

TEST_CASE("a missing tolerance file is reported by name") {
  const test::TempDir dir;
  const auto file = dir.file("absent.csv");
  CHECK_THROWS_WITH_AS(static_cast<void>(read_tolerance_file(file)),
                       (file.string() + ": no such file").c_str(), IoError);
}

TEST_CASE("a tolerance file that is a directory or a FIFO is rejected before it is opened") {
  const test::TempDir dir;
  CHECK_THROWS_WITH_AS(static_cast<void>(read_tolerance_file(dir.path())),
                       (dir.path().string() + ": is a directory").c_str(), IoError);
  // Opening a FIFO without a writer would block hdae-compare for ever.
  const auto fifo = dir.file("tol.csv");
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH_AS(static_cast<void>(read_tolerance_file(fifo)),
                       (fifo.string() + ": is not a regular file").c_str(), IoError);
}

TEST_CASE("a byte order mark before the header is skipped, as the result reader does") {
  // Without the skip the first field would read "\xef\xbb\xbfsignal", so the header would be
  // taken for a signal named so with rel "rel": an error on line 1.
  const test::TempDir dir;
  const auto file = dir.write("tol.csv", "\xef\xbb\xbfsignal,rel,abs\nw1,1e-2,1e-4\n");
  const auto t = read_tolerance_file(file);
  REQUIRE(t.size() == 1);
  CHECK(t.at("w1").rel == 1e-2);
  CHECK(t.at("w1").abs == 1e-4);
}
