// The example programs' options for what is recorded (examples/program/record_options.hpp:
// --columns, --kinds, --rows) and their HDF5 output (an output path ending in .h5).
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/stored_result.hpp"
#include "program/command_line.hpp"
#include "program/example_program.hpp"
#include "program/record_options.hpp"
#include "registry/registry.hpp"
#include "results/temp_dir.hpp"

using namespace hdae;
using namespace hdae::examples;

namespace {

struct ProgramOutcome {
  int status = -1;
  std::string out;
  std::string err;
};

ProgramOutcome run_program(const std::string& name, const std::vector<std::string>& args) {
  const Example* example = find_example(name);
  REQUIRE(example != nullptr);
  std::ostringstream out;
  std::ostringstream err;
  ProgramOutcome o;
  o.status = run_example_program(*example, program_name(*example), args, {out, err, nullptr});
  o.out = out.str();
  o.err = err.str();
  return o;
}

}  // namespace

TEST_CASE("--columns, --kinds and --rows fill the record options") {
  const Example* example = find_example("ideal_clutch");
  REQUIRE(example != nullptr);
  std::ostringstream out, err;
  const ParsedCommandLine p = parse_command_line(
      *example, "hdae-ideal-clutch",
      {"--columns", "w*,tau", "--kinds", "outputs,state", "--rows", "every:5"}, out, err);
  REQUIRE(p.invocation);
  const SimulationOptions& o = p.invocation->options;
  CHECK(o.record_columns == std::vector<std::string>{"w*", "tau"});
  CHECK(o.record_kinds == std::vector<ColumnKind>{ColumnKind::kOutput, ColumnKind::kState});
  CHECK(o.record_rows == RecordedRows::kGrid);
  CHECK(o.record_every == 5);
  SimulationOptions events;
  CHECK(parse_row_selection("events", events).empty());
  CHECK(events.record_rows == RecordedRows::kEventsOnly);
  CHECK(parse_row_selection("all", events).empty());
  CHECK(events.record_rows == RecordedRows::kGrid);
}

TEST_CASE("a bad record option exits with 2 naming the option and the bad part") {
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"--rows", "sometimes"},
       "--rows: 'sometimes' is not a row selection (all, events, every:K with K a positive "
       "integer)"},
      {{"--rows", "every:0"},
       "--rows: 'every:0' is not a row selection (all, events, every:K with K a positive "
       "integer)"},
      {{"--kinds", "inputs"},
       "--kinds: 'inputs' is not a column kind (states, derivatives, outputs)"},
      {{"--columns", "a,,b"},
       "--columns: 'a,,b' holds an empty column name (names and globs separated by commas, e.g. "
       "'w*,tau')"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.message);
    const ProgramOutcome o = run_program("pendulum", c.args);
    CHECK(o.status == 2);
    CHECK(o.err.starts_with("hdae-pendulum: " + c.message + "\n"));
  }
  const test::TempDir dir;
  const ProgramOutcome o =
      run_program("pendulum", {dir.file("p.csv").string(), "--columns", "omega*"});
  CHECK(o.status == 2);
  CHECK(o.err ==
        "hdae-pendulum: SimulationOptions::record_columns: \"omega*\" matches no column of model "
        "'pendulum' (columns: phi, w, der(phi), der(w), x, y)\n");
  CHECK_FALSE(std::filesystem::exists(dir.file("p.csv")));
}

TEST_CASE("an .h5 output is one HDF5 file with the chosen columns and rows") {
  const test::TempDir dir;
  const auto file = dir.file("pendulum.h5");
  const ProgramOutcome o =
      run_program("pendulum", {file.string(), "--columns", "phi", "--rows", "events"});
  CHECK(o.status == 0);
  // The key numbers need w, which was not recorded: left out with the reason.
  CHECK(o.out.find("key numbers left out: no column \"w\" in the result") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.file("pendulum.units.csv")));
  const StoredResult r = read_result(file);
  REQUIRE(r.table.num_columns() == 1);
  CHECK(r.table.columns()[0].name == "phi");
  // No events after t0: the t0 row and the last row. phi starts at 60 degrees and ends at the
  // published phi(10) = 0.120289 rad (docs/programs.md, the example programs' table).
  REQUIRE(r.table.num_rows() == 2);
  CHECK(r.table.value(0, 0) == doctest::Approx(3.14159265358979 / 3.0).epsilon(1e-12));
  CHECK(r.table.time(1) == 10.0);
  CHECK(r.table.value(1, 0) == doctest::Approx(0.120289).epsilon(5e-6 / 0.120289));
  CHECK(r.status == std::string("reached stop time"));
}
