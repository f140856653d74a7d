// The files beside a result CSV: units (name,unit,kind per column, time first) and the event
// log (one line per event with crossings, time events, iterations and jumps), written beside
// a regular file only.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>

#include <doctest/doctest.h>

#include "hdae/csv.hpp"
#include "results/temp_dir.hpp"

using namespace hdae;

TEST_CASE("the units file lists time and every column with unit and kind") {
  const ResultTable table({{"w1", "rad/s", ColumnKind::kState},
                           {"der(w1)", "rad/s2", ColumnKind::kDerivative},
                           {"power, shaft", "W", ColumnKind::kOutput},
                           {"flag", "", ColumnKind::kOther}});
  const test::TempDir dir;
  write_units_csv(table, dir.file("r.units.csv"));
  CHECK(dir.read("r.units.csv") ==
        "time,s,time\n"
        "w1,rad/s,state\n"
        "der(w1),rad/s2,derivative\n"
        "\"power, shaft\",W,output\n"
        "flag,,other\n");
}

TEST_CASE("the event log writes crossings, time events, jumps and d(t)/d(p) at full precision") {
  // The ideal clutch locking at t = 0 (docs/design.md, "The jump solve"): both speeds jump
  // to 6.4 rad/s.
  EventRecord initial;
  initial.t = 0.0;
  initial.kind = EventKind::kInitial;
  initial.iterations = 2;
  initial.jumps = {{"w1", 0.0, 6.4}, {"w2", 10.0, 6.4}};

  EventRecord state;
  state.t = 0.1 + 0.2;  // 0.30000000000000004: must not be rounded to 0.3
  state.kind = EventKind::kState;
  state.crossings = {{"contact", CrossingDirection::kFalling},
                     {"stop", CrossingDirection::kRising}};
  state.time_events = {"release", "sample"};
  state.iterations = 1;
  state.jumps = {{"v", -1.0 / 3.0, std::numeric_limits<double>::infinity()}};
  state.time_sensitivities = {{"J2", 0.25}, {"start(w2)", -1.5}};

  EventRecord terminal;
  terminal.t = 500.0;
  terminal.kind = EventKind::kTerminal;
  terminal.note = "stopped: \"done\", as asked";

  const test::TempDir dir;
  write_event_log_csv({initial, state, terminal}, dir.file("r.events.csv"));
  CHECK(dir.read("r.events.csv") ==
        "time,kind,crossings,time_events,iterations,jumps,time_sensitivities,note\n"
        "0,initial,,,2,w1:0->6.4|w2:10->6.4,,\n"
        "0.30000000000000004,state,contact(falling)|stop(rising),release|sample,1,"
        "v:-0.3333333333333333->inf,J2:0.25|start(w2):-1.5,\n"
        "500,terminal,,,0,,,\"stopped: \"\"done\"\", as asked\"\n");
}

TEST_CASE("write_result_files writes the table, units and event log beside each other") {
  SimulationResult result;
  result.table = ResultTable({{"x", "m", ColumnKind::kState}});
  result.table.append(0.0, std::vector{1.0});
  const test::TempDir dir;
  const ResultFiles files = write_result_files(result, dir.file("run.csv"));
  CHECK(dir.read("run.csv") == "time,x\n0,1\n");
  CHECK(dir.read("run.units.csv") == "time,s,time\nx,m,state\n");
  CHECK(dir.read("run.events.csv") ==
        "time,kind,crossings,time_events,iterations,jumps,time_sensitivities,note\n");
  CHECK(files.table == dir.file("run.csv"));
  CHECK(files.units == dir.file("run.units.csv"));
  CHECK(files.events == dir.file("run.events.csv"));
  CHECK(files.side_files_written());
}

TEST_CASE("write_result_files writes only the table to a path that is not a regular file") {
  // A named pipe stands for every non-regular output (/dev/null, /dev/stdout, a socket): the
  // table goes through it, and no run.units.csv or run.events.csv appear beside it.
  SimulationResult result;
  result.table = ResultTable({{"x", "m", ColumnKind::kState}});
  result.table.append(0.0, std::vector{1.0});
  const test::TempDir dir;
  const std::filesystem::path pipe = dir.file("run.csv");
  REQUIRE(mkfifo(pipe.c_str(), 0600) == 0);
  std::string received;
  std::thread reader([&pipe, &received] {
    std::ifstream in(pipe, std::ios::binary);
    received.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  });
  ResultFiles files;
  try {
    files = write_result_files(result, pipe);
  } catch (...) {
    reader.join();
    throw;
  }
  reader.join();
  CHECK(received == "time,x\n0,1\n");
  CHECK(files.table == pipe);
  CHECK(files.units.empty());
  CHECK(files.events.empty());
  CHECK_FALSE(files.side_files_written());
  CHECK_FALSE(std::filesystem::exists(dir.file("run.units.csv")));
  CHECK_FALSE(std::filesystem::exists(dir.file("run.events.csv")));
}
