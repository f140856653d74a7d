// hdae-compare's behaviour, run in-process through run_compare (compare_cli.hpp): exit
// codes 0 agree / 1 differ / 2 error, and the exact message for each bad argument or file.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "compare/compare_cli.hpp"
#include "hdae/csv.hpp"
#include "results/temp_dir.hpp"

using namespace hdae;
using compare::run_compare;

namespace {

struct Run {
  int code = -1;
  std::string out;
  std::string err;
};

Run run(const std::vector<std::string>& args, const compare::PlotEnvironment& plots = {}) {
  std::ostringstream out;
  std::ostringstream err;
  Run r;
  r.code = run_compare(args, out, err, plots);
  r.out = out.str();
  r.err = err.str();
  return r;
}

const char* const kReference = "time,x,y\n0,0,1\n1,1,1\n2,2,1\n";
const char* const kDiffering = "time,x,y\n0,0,1\n1,1.5,1\n2,2,1\n";
const std::string kUsageHint = "\n(hdae-compare --help prints the usage)\n";

/// The exact decimal expansion of 2^-1074 (= 5^1074 / 10^1074), all 751 digits.
std::string denorm_min_exact() {
  std::vector<int> digits = {1};  // little-endian decimal digits of 5^k
  for (int k = 0; k < 1074; ++k) {
    int carry = 0;
    for (int& d : digits) {
      const int v = d * 5 + carry;
      d = v % 10;
      carry = v / 10;
    }
    while (carry > 0) {
      digits.push_back(carry % 10);
      carry /= 10;
    }
  }
  std::string s;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    s += static_cast<char>('0' + *it);
    if (it == digits.rbegin()) s += '.';
  }
  // 5^1074 has 751 digits, so 2^-1074 = d.ddd... * 10^(751 - 1 - 1074).
  return s + "e" + std::to_string(static_cast<int>(digits.size()) - 1 - 1074);
}

}  // namespace

TEST_CASE("hdae-compare exits 0 when the files agree and 1 when they differ") {
  const test::TempDir dir;
  const auto ref = dir.write("ref.csv", kReference).string();
  const auto same = dir.write("same.csv", kReference).string();
  const auto diff = dir.write("diff.csv", kDiffering).string();
  // Another tool's spelling: ';' separated, the time column called "t".
  const auto other = dir.write("other.csv", "t;x;y\n0;0;1\n1;1;1\n2;2;1\n").string();

  const Run agree = run({ref, same});
  CHECK(agree.code == 0);
  CHECK(agree.err.empty());
  CHECK(agree.out.ends_with("verdict: agree\n"));
  CHECK(run({ref, other}).code == 0);

  const Run differ = run({ref, diff});
  CHECK(differ.code == 1);
  CHECK(differ.out.find("  x: outside from t = 1,") != std::string::npos);
  CHECK(differ.out.ends_with("verdict: differ\n"));
}

TEST_CASE("hdae-compare options select signals and tolerances") {
  const test::TempDir dir;
  const auto ref = dir.write("ref.csv", kReference).string();
  const auto diff = dir.write("diff.csv", kDiffering).string();
  CHECK(run({ref, diff, "--signals", "y"}).code == 0);                   // x is not compared
  CHECK(run({ref, diff, "--abs", "1"}).code == 0);                       // 0.5 off: inside 1
  CHECK(run({ref, diff, "--abs=0.4"}).code == 1);                        // 0.5 off: outside 0.4
  CHECK(run({ref, diff, "--rel", "0.5", "--rel-time", "0"}).code == 0);  // 0.5 * range 2
  const auto tol = dir.write("tol.csv", "signal,rel,abs\n# x may be 1 off\nx,,1\n").string();
  CHECK(run({ref, diff, "--tolerances", tol}).code == 0);

  // A reference signal (y) missing from the result fails by default, with a hint at the two
  // ways to compare the rest; --allow-missing makes it a warning on the verdict line.
  const auto fewer = dir.write("fewer.csv", "time,x\n0,0\n1,1\n2,2\n").string();
  const Run missing = run({ref, fewer});
  CHECK(missing.code == 1);
  CHECK(missing.out.find("\ndiffer: 0 of 1 signal outside the tube, 1 problem\n"
                         "  problem: 1 signal of the reference missing from the result: y\n") !=
        std::string::npos);
  CHECK(
      missing.out.ends_with("(--allow-missing compares the common signals only; --signals "
                            "names the ones to compare)\nverdict: differ\n"));
  CHECK(run({ref, fewer, "--require-all"}).code == 1);
  CHECK(run({ref, fewer, "--signals", "x"}).code == 0);
  const Run allowed = run({ref, fewer, "--allow-missing"});
  CHECK(allowed.code == 0);
  CHECK(allowed.out.find("\nagree: 1 signal within the tube (delta_t = 0.002 s, no events), 1 "
                         "warning\n  warning: 1 signal of the reference missing from the "
                         "result: y (not compared)\n") != std::string::npos);
  CHECK(allowed.out.find("only in the reference (not compared): y") != std::string::npos);
  CHECK(allowed.out.ends_with("verdict: agree\n"));

  // Files after "--" may start with '-'.
  CHECK(run({"--", ref, diff, "--abs", "1"}).code == 2);  // after "--", "--abs" is a third file
  CHECK(run({"--abs", "1", "--", ref, diff}).code == 0);
}

TEST_CASE("hdae-compare --help lists every option and --version prints the project's version") {
  const Run help = run({"--help"});
  CHECK(help.code == 0);
  CHECK(help.err.empty());
  CHECK(help.out == compare::usage());
  CHECK(run({"-h"}).out == help.out);
  CHECK(help.out.find("usage: hdae-compare reference.csv result.csv [options]") !=
        std::string::npos);
  for (const char* option :
       {"--rel NUMBER", "--abs NUMBER", "--rel-time NUMBER", "--event-time-tol NUMBER",
        "--tolerances FILE", "--signals a,b", "--ignore-events", "--require-all", "--allow-missing",
        "--report DIR", "--version", "-h,--help",
        "exit status: 0 the files agree, 1 they differ"}) {
    CHECK_MESSAGE(help.out.find(option) != std::string::npos, option);
  }

  const Run version = run({"--version"});
  CHECK(version.code == 0);
  CHECK(version.err.empty());
  // The version CMake's project() declares.
  CHECK(version.out == std::string("hdae-compare ") + HDAE_PROJECT_VERSION + "\n");
}

TEST_CASE("hdae-compare exits 2 for bad arguments, naming the option") {
  const test::TempDir dir;
  const auto ref = dir.write("ref.csv", kReference).string();
  auto error_of = [&](std::vector<std::string> args) {
    const Run r = run(args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    return r.err;
  };
  CHECK(error_of({}) ==
        "hdae-compare: expected two files (reference.csv result.csv), got 0" + kUsageHint);
  CHECK(error_of({ref}) ==
        "hdae-compare: expected two files (reference.csv result.csv), got 1" + kUsageHint);
  CHECK(error_of({ref, ref, "third.csv"}) ==
        "hdae-compare: unexpected argument \"third.csv\": expected two files (reference.csv "
        "result.csv)" +
            kUsageHint);
  CHECK(error_of({ref, ref, "--bogus"}) == "hdae-compare: unknown option \"--bogus\"" + kUsageHint);
  CHECK(error_of({ref, ref, "-x"}) == "hdae-compare: unknown option \"-x\"" + kUsageHint);
  CHECK(error_of({ref, ref, "--rel", "abc"}) ==
        "hdae-compare: --rel: expected a number, got \"abc\"" + kUsageHint);
  // CLI11's words for an option at the end of the line without its value.
  CHECK(error_of({ref, ref, "--abs"}) ==
        "hdae-compare: --abs: 1 required NUMBER missing" + kUsageHint);
  CHECK(error_of({ref, ref, "--rel-time", "2"}) ==
        "hdae-compare: --rel-time: CompareOptions::rel_time must be in [0, 1), got 2" + kUsageHint);
  CHECK(error_of({ref, ref, "--event-time-tol=-1"}) ==
        "hdae-compare: --event-time-tol: CompareOptions::event_time_tol_s must be finite and "
        ">= 0, got -1" +
            kUsageHint);
  CHECK(error_of({ref, ref, "--signals", "x,,y"}) ==
        "hdae-compare: --signals: empty signal name in \"x,,y\"" + kUsageHint);
  CHECK(error_of({ref, ref, "--ignore-events=yes"}) ==
        "hdae-compare: --ignore-events takes no value, got \"--ignore-events=yes\"" + kUsageHint);
  CHECK(error_of({ref, ref, "--allow-missing=1"}) ==
        "hdae-compare: --allow-missing takes no value, got \"--allow-missing=1\"" + kUsageHint);
  CHECK(error_of({ref, ref, "--require-all", "--allow-missing"}) ==
        "hdae-compare: --allow-missing contradicts --require-all" + kUsageHint);
  CHECK(error_of({ref, ref, "--allow-missing", "--require-all"}) ==
        "hdae-compare: --require-all contradicts --allow-missing" + kUsageHint);
  CHECK(error_of({ref, ref, "--allow-missing", "--allow-missing", "--require-all"}) ==
        "hdae-compare: --require-all contradicts --allow-missing" + kUsageHint);
  CHECK(error_of({ref, ref, "--report", ""}) ==
        "hdae-compare: --report: empty directory name" + kUsageHint);
  // A repeated option is an error, as in the example programs: which value was meant?
  CHECK(error_of({ref, ref, "--rel", "1", "--rel", "2"}) ==
        "hdae-compare: --rel is given 2 times; give it once" + kUsageHint);
  CHECK(error_of({ref, ref, "--abs", "1", "--abs=0.4", "--abs=3"}) ==
        "hdae-compare: --abs is given 3 times; give it once" + kUsageHint);
  CHECK(error_of({ref, ref, "--signals", "x", "--signals", "y"}) ==
        "hdae-compare: --signals is given 2 times; give it once" + kUsageHint);
  CHECK(error_of({ref, ref, "--report", "a", "--report", "b"}) ==
        "hdae-compare: --report is given 2 times; give it once" + kUsageHint);
  // A --signals name in neither file is a typo, and the time column is no signal: errors
  // about the argument, not differences between the files.
  CHECK(error_of({ref, ref, "--signals", "zz"}) ==
        "hdae-compare: --signals: \"zz\" is a signal of neither file" + kUsageHint);
  CHECK(error_of({ref, ref, "--signals", "x,time"}) ==
        "hdae-compare: --signals: \"time\" is the independent variable (the first column), not "
        "a signal" +
            kUsageHint);
}

TEST_CASE("hdae-compare exits 2 for a bad file, naming the file and the line") {
  const test::TempDir dir;
  const auto ref = dir.write("ref.csv", kReference).string();
  auto error_of = [&](std::string_view content) {
    const std::string bad = dir.write("bad.csv", content).string();
    const Run as_result = run({ref, bad});
    const Run as_reference = run({bad, ref});
    CHECK(as_result.code == 2);
    CHECK(as_reference.code == 2);
    CHECK(as_result.err == as_reference.err);
    std::string message = as_result.err;
    // "hdae-compare: <path>..." -> "F..." to keep the expected texts short.
    const std::string prefix = "hdae-compare: " + bad;
    if (message.starts_with(prefix)) message = "F" + message.substr(prefix.size());
    return message;
  };
  CHECK(error_of("") == "F: empty file (no header line)\n");
  CHECK(error_of("time,x,y\n") == "F: no data rows (only a header)\n");
  CHECK(error_of("x,y\n1,2\n") == "F:1: the first column must be \"time\" or \"t\", found \"x\"\n");
  CHECK(error_of("time,x,y\n0,0,1\n1,1\n") == "F:3: expected 3 fields, found 2\n");
  // The second x differs from the reference's: comparing the first one only would agree.
  CHECK(error_of("time,x,x\n0,0,0\n1,1,100\n2,2,2\n") ==
        "F:1: column \"x\" appears twice (fields 2 and 3)\n");
  CHECK(error_of("time,x,y\n0,0,1\n1,one,1\n") == "F:3: column \"x\": \"one\" is not a number\n");
  CHECK(error_of("time,x,y\n0,0,1\n2,1,1\n1,2,1\n") == "F:4: time decreases from 2 to 1\n");
  CHECK(error_of("time,x,y\n0,0,1\n1,nan,1\n2,2,1\n") ==
        "F:3: column \"x\": value nan at t = 1 is not finite\n");
  // Comment and blank lines count, as in read_csv's messages.
  CHECK(error_of("# written by hand\ntime,x,y\n0,0,1\n\n1,1,-inf\n2,2,1\n") ==
        "F:5: column \"y\": value -inf at t = 1 is not finite\n");

  const Run missing = run({ref, dir.file("absent.csv").string()});
  CHECK(missing.code == 2);
  CHECK(missing.err == "hdae-compare: " + dir.file("absent.csv").string() + ": no such file\n");

  const auto tol = dir.write("tol.csv", "x,1e-3\n").string();
  const Run bad_tol = run({ref, ref, "--tolerances", tol});
  CHECK(bad_tol.code == 2);
  CHECK(bad_tol.err ==
        "hdae-compare: " + tol + ":1: expected 3 fields (signal,rel,abs), found 2\n");
}

TEST_CASE("hdae-compare finds the one differing signal among 10^5 columns") {
  // A wide file (a chain of 33000 masses has 10^5 columns) is compared name by name; the
  // time it takes is a benchmark's business (docs/benchmarks.md), the verdict is tested here.
  constexpr int kColumns = 100000;
  const test::TempDir dir;
  std::string header = "time";
  for (int j = 0; j < kColumns; ++j) header += ",c" + std::to_string(j);
  std::string row;
  for (int j = 0; j < kColumns; ++j) row += ",1";
  const std::string same = header + "\n0" + row + "\n1" + row + "\n2" + row + "\n";
  std::string changed_row = row;
  changed_row.replace(changed_row.size() - 4, 4, ",2,1");  // c99998 = 2 at t = 1
  const std::string changed = header + "\n0" + row + "\n1" + changed_row + "\n2" + row + "\n";
  const auto ref = dir.write("ref.csv", same).string();
  const auto copy = dir.write("copy.csv", same).string();
  const auto diff = dir.write("diff.csv", changed).string();

  const Run agree = run({ref, copy});
  CHECK(agree.code == 0);
  CHECK(agree.out.find("\nagree: 100000 signals within the tube") != std::string::npos);
  const Run differ = run({ref, diff});
  CHECK(differ.code == 1);
  CHECK(differ.out.find("\ndiffer: 1 of 100000 signals outside the tube\n"
                        "  c99998: outside from t = 1,") != std::string::npos);
}

TEST_CASE("subnormal numbers written with every decimal digit read back exactly") {
  const test::TempDir dir;
  const std::string tiny = denorm_min_exact();
  REQUIRE(tiny.size() == 751 + 1 + 5);  // digits, the point, "e-324"
  // The largest subnormal, 2^-1022 - 2^-1074, to 17 significant digits.
  const auto file =
      dir.write("sub.csv", "time,x,y\n0," + tiny + ",2.2250738585072009e-308\n1," + tiny + ",0\n");
  const ResultTable t = read_csv(file);
  CHECK(t.value(0, 0) == std::numeric_limits<double>::denorm_min());
  CHECK(t.value(0, 1) ==
        std::numeric_limits<double>::min() - std::numeric_limits<double>::denorm_min());
  // And hdae-compare takes them as the ordinary (tiny) numbers they are.
  const auto zeros = dir.write("zeros.csv", "time,x,y\n0,0,0\n1,0,0\n");
  CHECK(run({file.string(), zeros.string()}).code == 0);
}

TEST_CASE("hdae-compare --report writes a summary and the tube data of each failing signal") {
  const test::TempDir dir;
  const auto ref = dir.write("ref.csv", kReference).string();
  const auto diff = dir.write("diff.csv", kDiffering).string();
  const auto report = dir.file("report");

  // No plot script: the report is still written; the missing plot is a warning only.
  const Run no_plots = run({ref, diff, "--report", report.string()});
  CHECK(no_plots.code == 1);
  CHECK(no_plots.err == "hdae-compare: warning: no plots: no plot script configured\n");
  const std::string summary = dir.read("report/summary.md");
  CHECK(summary.find("| x | FAIL |") != std::string::npos);
  CHECK(summary.find("| y | pass |") != std::string::npos);
  CHECK(summary.find("x: tube data in `x.compare.csv` (no plot: no plot script configured)") !=
        std::string::npos);
  CHECK(
      dir.read("report/x.compare.csv").starts_with("time,reference,lower,upper,result,outside\n"));
  CHECK_FALSE(std::filesystem::exists(report / "y.compare.csv"));

  // With Debian's python3 and matplotlib (when installed) the PNG appears beside it.
  compare::PlotEnvironment plots;
  plots.plot_script = std::filesystem::path(HDAE_REFERENCE_DIR).parent_path() / "scripts/plot.py";
  if (std::system("/usr/bin/python3 -c 'import matplotlib' > /dev/null 2>&1") == 0) {
    const Run with_plots = run({ref, diff, "--report", report.string()}, plots);
    CHECK(with_plots.code == 1);
    CHECK(with_plots.err.empty());
    CHECK(std::filesystem::file_size(report / "x.png") > 1000);
    CHECK(dir.read("report/summary.md").find("![x](x.png)") != std::string::npos);
  }
}

TEST_CASE("hdae-compare: a signal ranging over the whole double range keeps a finite tube") {
  const test::TempDir dir;
  // max - min = 2e308 overflows to inf; rel * inf would be an infinite tube in which any
  // result agrees. Formed without overflow, delta_y = 1e-300 * 2e308 = 2e8, and the result
  // (1 and 2 against 1e308 and -1e308) is outside by about 1e308.
  const auto big = dir.write("big.csv", "time,x\n0,1e308\n1,-1e308\n").string();
  const auto small = dir.write("a.csv", "time,x\n0,1\n1,2\n").string();
  const Run differ = run({big, small, "--rel", "1e-300", "--abs", "0"});
  CHECK(differ.code == 1);
  CHECK(differ.out.find("\ndiffer: 1 of 1 signal outside the tube\n  x: outside from t = 0,") !=
        std::string::npos);
  CHECK(differ.out.ends_with("verdict: differ\n"));
  // The same range in time: the tube's half-width stays rel_time * 2e308 = 2e305, finite,
  // and the result (the same values at the same times) agrees.
  const auto wide = dir.write("wide.csv", "time,x\n-1e308,0\n1e308,1\n").string();
  CHECK(run({wide, wide}).code == 0);
}

TEST_CASE("hdae-compare --report: long signal names, inputs in the directory, stale files") {
  const test::TempDir dir;
  const std::string ref = dir.write("ref.csv", kReference).string();
  const std::string diff = dir.write("diff.csv", kDiffering).string();
  const std::filesystem::path report = dir.file("report");

  // Two 300-byte names that differ only at their end: each gets a stem of 100 bytes (83
  // characters of the name, '-', a 16-digit hash of the whole name), below the file system's
  // 255 bytes a file name, and they stay apart.
  const std::string a(300, 'a');
  const std::string b = std::string(299, 'a') + "b";
  const std::string long_ref =
      dir.write("long_ref.csv", "time," + a + "," + b + "\n0,0,0\n1,1,1\n2,2,2\n").string();
  const std::string long_res =
      dir.write("long_res.csv", "time," + a + "," + b + "\n0,0,0\n1,9,9\n2,2,2\n").string();
  const Run long_names = run({long_ref, long_res, "--report", report.string()});
  CHECK(long_names.code == 1);
  CHECK(std::filesystem::exists(report / "summary.md"));
  std::vector<std::string> traces;
  for (const auto& entry : std::filesystem::directory_iterator(report)) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".compare.csv")) traces.push_back(name);
  }
  REQUIRE(traces.size() == 2);
  for (const std::string& name : traces) {
    CAPTURE(name);
    CHECK(name.size() == 100 + std::string(".compare.csv").size());
    CHECK(name.starts_with(std::string(83, 'a') + "-"));
  }
  CHECK(traces[0] != traces[1]);

  // A new report that agrees leaves none of the earlier failure's traces (or plots) behind;
  // other files in the directory stay.
  dir.write("report/notes.png", "not a report file");
  dir.write("report/old.png", "a plot of the earlier report");
  dir.write("report/old.compare.csv", "time,reference,lower,upper,result,outside\n");
  const Run agree = run({ref, ref, "--report", report.string()});
  CHECK(agree.code == 0);
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(report)) {
    left.push_back(entry.path().filename().string());
  }
  std::sort(left.begin(), left.end());
  CHECK(left == std::vector<std::string>{"notes.png", "summary.md"});
  CHECK(dir.read("report/summary.md").find("agree") != std::string::npos);

  // An input the report would overwrite (or remove as stale) is refused before anything is
  // written.
  const std::string inside = dir.write("report/h.compare.csv", kDiffering).string();
  const Run refused = run({ref, inside, "--report", report.string()});
  CHECK(refused.code == 2);
  CHECK(refused.out.empty());
  CHECK(refused.err == "hdae-compare: --report " + report.string() + ": the input " + inside +
                           " is in the report directory under the name of a report file "
                           "(summary.md, plot.log, *.compare.csv, *.png), which the report "
                           "would overwrite or remove; choose another directory" +
                           kUsageHint);
  CHECK(dir.read("report/h.compare.csv") == kDiffering);
  // The same input under a name the report does not use is fine.
  const std::string kept = dir.write("report/h.csv", kDiffering).string();
  CHECK(run({ref, kept, "--report", report.string()}).code == 1);
  CHECK(dir.read("report/h.csv") == kDiffering);
}
