// The hdae program in-process (tools/hdae/): list, info, run and its errors, plot's argument
// handling, and the progress lines (examples/program/progress.hpp) with a clock the test
// controls. tests/tools/hdae_program.sh runs the built program, on a terminal too.
#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/csv.hpp"
#include "hdae/hdae_program.hpp"
#include "hdae/models/catalog.hpp"
#include "hdae/plot_command.hpp"
#include "program/progress.hpp"
#include "results/temp_dir.hpp"

using namespace hdae;

namespace {

struct Output {
  int status = -1;
  std::string out;
  std::string err;
};

Output hdae_run(const std::vector<std::string>& args, bool show_progress = false) {
  std::ostringstream out;
  std::ostringstream err;
  examples::ProgramEnvironment env{out, err, nullptr};
  env.show_progress = show_progress;
  Output o;
  o.status = cli::run_hdae(args, env);
  o.out = out.str();
  o.err = err.str();
  return o;
}

}  // namespace

TEST_CASE("hdae list prints one line per bundled model with its description") {
  const Output o = hdae_run({"list"});
  CHECK(o.status == 0);
  for (const models::CatalogEntry& e : models::catalog()) {
    CAPTURE(e.name);
    CHECK(o.out.find("  " + e.name + " ") != std::string::npos);
    CHECK(o.out.find(e.description + "\n") != std::string::npos);
  }
  CHECK(hdae_run({"list", "extra"}).status == 2);
}

TEST_CASE("hdae info lists variables, parameters, equations, crossings and time events") {
  const Output o = hdae_run({"info", "bouncing_ball"});
  CHECK(o.status == 0);
  CHECK(o.out.starts_with("bouncing_ball: Ball bouncing with restitution e"));
  for (const char* line : {"variables (2):\n  name  unit  start  nominal\n  h     m     1      1\n",
                           "  e        -     0.7      [0, 1]    coefficient of restitution\n",
                           "crossings (1):\n  h < 0  rising\n", "time events (0):\n  none\n",
                           "equations (row kind at t0) (2):\n  f_d  der(h) = v\n"}) {
    CAPTURE(line);
    CHECK(o.out.find(line) != std::string::npos);
  }
  // The chain at N = 2000 lists the first 40 of its 6000 variables.
  CHECK(hdae_run({"info", "mass_spring_chain"}).out.find("  ... and 5960 more\n") !=
        std::string::npos);
  const Output missing = hdae_run({"info"});
  CHECK(missing.status == 2);
  CHECK(missing.err.find("model is required") != std::string::npos);
}

TEST_CASE("hdae run is the example's run under the name 'hdae run <model>'") {
  const test::TempDir dir;
  const Output o = hdae_run(
      {"run", "pendulum", "--set", "d=0", "--stop", "0.5", "-o", dir.file("p.csv").string()});
  INFO(o.err);
  CHECK(o.status == 0);
  CHECK(o.out.starts_with("status: reached stop time at t = 0.5\n"));
  CHECK(read_params_csv(dir.file("p.params.csv"))[2].value == 0.0);  // d
  CHECK(hdae_run({"run", "pendulum", "--help"}).out.find("Usage: hdae run pendulum [OPTIONS]") !=
        std::string::npos);
  Output bad = hdae_run({"run", "pendulum", "--set", "q=1", "-o", dir.file("q.csv").string()});
  CHECK(bad.status == 2);
  CHECK(bad.err.starts_with("hdae run pendulum: --set q=1: model 'pendulum' has no parameter 'q'"));
  bad = hdae_run({"run"});
  CHECK(bad.status == 2);
  CHECK(bad.err.starts_with("hdae run: name a model first."));
  bad = hdae_run({"frobnicate"});
  CHECK(bad.status == 2);
  CHECK(hdae_run({}).status == 2);
  CHECK(hdae_run({"--help"}).out.find("compare") != std::string::npos);
}

TEST_CASE("hdae compare is hdae-compare") {
  // A missing file is an error of hdae-compare's own, with its exit status 2.
  const Output o = hdae_run({"compare", "no_such_ref.csv", "no_such_res.csv"});
  CHECK(o.status == 2);
  CHECK(o.err.find("no_such_ref.csv") != std::string::npos);
  CHECK(hdae_run({"compare", "--help"}).out.find("--report") != std::string::npos);
}

TEST_CASE("hdae plot takes an image name second, else writes <stem>.png and all are signals") {
  CHECK(cli::plot_arguments({"r.csv"}) == std::vector<std::string>{"r.csv", "r.png"});
  CHECK(cli::plot_arguments({"d/r.csv", "a.svg", "x"}) ==
        std::vector<std::string>{"d/r.csv", "a.svg", "x"});
  CHECK(cli::plot_arguments({"d/r.csv", "x", "y"}) ==
        std::vector<std::string>{"d/r.csv", "d/r.png", "x", "y"});
  const Output o = hdae_run({"plot"});
  CHECK(o.status == 2);
  CHECK(o.err == "hdae plot: usage: hdae plot result.csv [out.png] [signal ...]\n");
  // --help is a request, not an error: the usage on standard output, exit 0.
  for (const char* help : {"--help", "-h"}) {
    const Output h = hdae_run({"plot", help});
    CHECK(h.status == 0);
    CHECK(h.err.empty());
    CHECK(h.out.starts_with("usage: hdae plot result.csv [out.png] [signal ...]\n\nDraws a "));
    CHECK(h.out.find("Exit status: 0 drawn, 2 an error") != std::string::npos);
  }
  CHECK(hdae_run({"plot", "--bogus"}).status == 2);
}

TEST_CASE("hdae names an unknown command or option and lists the commands") {
  const std::string hint = "\nRun 'hdae --help' for the usage.\n";
  // `hdae fmu export` comes with the FMI libraries (HDAE_BUILD_FMI).
#ifdef HDAE_WITH_FMI
  const std::string commands = "list, info, run, compare, plot, fmu";
#else
  const std::string commands = "list, info, run, compare, plot";
#endif
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"bogus"}, "hdae: unknown command 'bogus'; the commands are: " + commands},
      {{"--bogus"}, "hdae: unknown option '--bogus'; the commands are: " + commands},
      {{"-x", "list"}, "hdae: unknown option '-x'; the commands are: " + commands},
      {{}, "hdae: name a command: " + commands},
  };
  for (const auto& c : cases) {
    CAPTURE(c.message);
    const Output o = hdae_run(c.args);
    CHECK(o.status == 2);
    CHECK(o.out.empty());
    CHECK(o.err == c.message + hint);
  }
  CHECK(hdae_run({"--version"}).status == 0);
}

TEST_CASE("hdae run: the chain's N given as the positional argument and with --set exits 2") {
  const test::TempDir dir;
  const Output o =
      hdae_run({"run", "mass_spring_chain", "--set", "N=3", dir.file("o.csv").string(), "4"});
  CHECK(o.status == 2);
  CHECK(o.err ==
        "hdae run mass_spring_chain: N is given twice: as the positional argument 4 and as --set "
        "N=3\nRun 'hdae run mass_spring_chain --help' for the usage.\n");
  CHECK_FALSE(std::filesystem::exists(dir.file("o.csv")));
}

TEST_CASE("progress lines: time, stop time, percentage and events") {
  CHECK(examples::progress_line(125.0, 0.0, 500.0, 0) == "t = 125 / 500 s (25%), 0 events");
  CHECK(examples::progress_line(3.0, 1.0, 3.0, 1) == "t = 3 / 3 s (100%), 1 event");
  CHECK(examples::progress_line(0.1234567, 0.0, 10.0, 12) == "t = 0.123457 / 10 s (1%), 12 events");
}

TEST_CASE("the progress reporter prints at most once per interval, and where the run ended") {
  using namespace std::chrono;
  steady_clock::time_point now{};
  std::ostringstream out;
  examples::ProgressReporter progress(out, 0.0, 10.0, milliseconds(100), [&now] { return now; });
  progress.append(0.0, {});  // the first row is shown at once
  for (int i = 1; i <= 50; ++i) {
    now += milliseconds(1);  // 50 rows within 50 ms: no new line
    progress.append(0.1 * i, {});
  }
  CHECK(progress.lines() == 1);
  progress.on_event(EventRecord{.t = 5.0, .kind = EventKind::kState});
  now += milliseconds(60);  // 110 ms since the first line
  progress.append(6.0, {});
  CHECK(progress.lines() == 2);
  progress.end();
  CHECK(out.str() ==
        "\rt = 0 / 10 s (0%), 0 events\rt = 6 / 10 s (60%), 1 event\rt = 6 / 10 s (60%), 1 "
        "event\n");
}

TEST_CASE("a run shows progress on err only when asked (standard error a terminal)") {
  const test::TempDir dir;
  const Output quiet = hdae_run({"run", "bouncing_ball", "-o", dir.file("a.csv").string()});
  CHECK(quiet.status == 0);
  CHECK(quiet.err.empty());
  const Output shown = hdae_run({"run", "bouncing_ball", "-o", dir.file("b.csv").string()}, true);
  CHECK(shown.status == 0);
  CHECK(shown.err.starts_with("\rt = 0 / 3 s (0%), 0 events"));
  // The last line, after the last '\r', padded with blanks when an earlier line was longer.
  const std::string last = shown.err.substr(shown.err.rfind('\r') + 1);
  CHECK(last.starts_with("t = 3 / 3 s (100%), 18 events"));  // 18 impacts (docs/programs.md)
  CHECK(last.find_first_not_of(' ', 29) == last.size() - 1);
  CHECK(last.ends_with('\n'));
}
