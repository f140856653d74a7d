// Option validation: each violated rule throws OptionError with the field's name.
#include <cmath>
#include <limits>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "hdae/options.hpp"
#include "hdae/simulator.hpp"
#include "support/test_models.hpp"

using namespace hdae;

namespace {

std::string error_of(const SimulationOptions& options) {
  try {
    options.validate();
  } catch (const OptionError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("invalid options are rejected with a message naming the field") {
  SimulationOptions o;
  CHECK(error_of(o) == "no error");

  o = {};
  o.rel_tol = -1e-6;
  CHECK(error_of(o) == "SimulationOptions::rel_tol must be in (0, 1), got -1e-06");

  o = {};
  o.stop_s = -1.0;
  CHECK(error_of(o) == "SimulationOptions::stop_s must be > start_s (0), got -1");

  o = {};
  o.output_interval_s = 0.0;
  CHECK(error_of(o) ==
        "SimulationOptions::output_interval_s must be > 0 when set (unset selects "
        "(stop_s - start_s)/500), got 0");

  o = {};
  o.start_s = std::numeric_limits<double>::quiet_NaN();
  CHECK(error_of(o) == "SimulationOptions::start_s must be finite, got nan");

  o = {};
  o.max_event_iterations = 0;
  CHECK(error_of(o) == "SimulationOptions::max_event_iterations must be >= 1, got 0");
}

TEST_CASE("invalid solver, event and stop options are rejected with the field and its rule") {
  // Each rule as documented in options.hpp; the value is printed as given.
  SimulationOptions o;
  o.max_step_s = -1.0;
  CHECK(error_of(o) == "SimulationOptions::max_step_s must be >= 0 (0: no limit), got -1");
  o = {};
  o.max_step_s = std::numeric_limits<double>::infinity();
  CHECK(error_of(o) == "SimulationOptions::max_step_s must be >= 0 (0: no limit), got inf");

  o = {};
  o.max_steps_per_interval = 0;
  CHECK(error_of(o) == "SimulationOptions::max_steps_per_interval must be >= 1, got 0");

  o = {};
  o.sparse_min_unknowns = 0;
  CHECK(error_of(o) == "SimulationOptions::sparse_min_unknowns must be >= 1, got 0");

  o = {};
  o.max_jump_iterations = 0;
  CHECK(error_of(o) == "SimulationOptions::max_jump_iterations must be >= 1, got 0");

  o = {};
  o.jump_tol_factor = 0.0;
  CHECK(error_of(o) == "SimulationOptions::jump_tol_factor must be in (0, 1], got 0");
  o.jump_tol_factor = 2.0;
  CHECK(error_of(o) == "SimulationOptions::jump_tol_factor must be in (0, 1], got 2");
  o.jump_tol_factor = std::numeric_limits<double>::quiet_NaN();
  CHECK(error_of(o) == "SimulationOptions::jump_tol_factor must be in (0, 1], got nan");

  o = {};
  o.crossing_hysteresis = 0.0;
  CHECK(error_of(o) == "SimulationOptions::crossing_hysteresis must be in (0, 1e-3], got 0");
  o.crossing_hysteresis = 0.01;
  CHECK(error_of(o) == "SimulationOptions::crossing_hysteresis must be in (0, 1e-3], got 0.01");

  // The chattering options: tests/simulator/test_chattering_options.cpp.

  o = {};
  o.max_wall_time_s = -1.0;
  CHECK(error_of(o) == "SimulationOptions::max_wall_time_s must be >= 0 (0: no limit), got -1");
  o.max_wall_time_s = std::numeric_limits<double>::infinity();
  CHECK(error_of(o) == "SimulationOptions::max_wall_time_s must be >= 0 (0: no limit), got inf");

  o = {};
  o.stop_s = std::numeric_limits<double>::infinity();
  CHECK(error_of(o) == "SimulationOptions::stop_s must be finite, got inf");
}

TEST_CASE("the documented boundary values of the options are accepted") {
  SimulationOptions o;
  o.max_step_s = 0.0;  // no limit
  o.max_steps_per_interval = 1;
  o.sparse_min_unknowns = 1;
  o.max_jump_iterations = 1;
  o.jump_tol_factor = 1.0;
  o.crossing_hysteresis = 1e-3;
  o.chattering_event_count = 3;
  o.chattering_min_relative_spacing = 1e-3;
  o.chattering_dense_event_count = 3;
  o.chattering_dense_span_fraction = 0.0;  // rule off
  o.max_wall_time_s = 0.0;                 // no limit
  CHECK(error_of(o) == "no error");
}

TEST_CASE("simulate validates options before touching the model") {
  test::FirstOrderLag model(2.0, 1.5);
  SimulationOptions o;
  o.abs_tol_factor = 0.0;
  CHECK_THROWS_WITH_AS(static_cast<void>(simulate(model, o)),
                       "SimulationOptions::abs_tol_factor must be > 0, got 0", OptionError);
}

TEST_CASE("restart_step is validated with the field's name") {
  SimulationOptions o;
  o.restart_step = RestartStep::kFromHistory;
  CHECK(error_of(o) == "no error");
  o.restart_step = static_cast<RestartStep>(7);  // what a cast from a bad integer gives
  CHECK(error_of(o) ==
        "SimulationOptions::restart_step must be kIdaEstimate (0), kFromHistory (1) or "
        "kKeepOrder (2), got 7");
}

TEST_CASE(
    "output_times, max_order, step_growth_threshold and initial_step_s are validated with the "
    "field's name") {
  SimulationOptions o;
  o.output_times = {0.5, 0.25};
  CHECK(error_of(o) ==
        "SimulationOptions::output_times[1] must be > output_times[0] = 0.5 (sorted, no "
        "repeats), got 0.25");
  o.output_times = {0.5, 1.5};
  CHECK(error_of(o) ==
        "SimulationOptions::output_times[1] must be within [start_s, stop_s] = [0, 1], got 1.5");
  o.output_times = {0.5};
  o.output_interval_s = 0.1;
  CHECK(error_of(o).starts_with(
      "SimulationOptions::output_times and output_interval_s are both set"));
  o = {};
  o.max_order = 6;
  CHECK(error_of(o) == "SimulationOptions::max_order must be in [1, 5], got 6");
  o.max_order = 0;
  CHECK(error_of(o) == "SimulationOptions::max_order must be in [1, 5], got 0");
  o.max_order = 5;
  o.step_growth_threshold = 0.5;
  CHECK(error_of(o) == "SimulationOptions::step_growth_threshold must be >= 1, got 0.5");
  o.step_growth_threshold = std::numeric_limits<double>::infinity();
  CHECK(error_of(o) == "SimulationOptions::step_growth_threshold must be >= 1, got inf");
  o = {};
  o.initial_step_s = -1e-3;
  CHECK(error_of(o) ==
        "SimulationOptions::initial_step_s must be >= 0 (0: IDA's own estimate), got -0.001");
}

TEST_CASE("a bad threads value is refused with a message naming the option") {
  SimulationOptions o;
  o.threads = -1;
  CHECK(error_of(o) ==
        "SimulationOptions::threads must be in [0, 256] (0 or 1: serial vectors; n > 1: OpenMP "
        "vectors with n threads), got -1");
  o.threads = 257;
  CHECK(error_of(o) ==
        "SimulationOptions::threads must be in [0, 256] (0 or 1: serial vectors; n > 1: OpenMP "
        "vectors with n threads), got 257");
  o.threads = 256;
  CHECK(error_of(o) == "no error");  // above the hardware's threads: allowed (options.hpp)
  o.threads = 0;
  CHECK(error_of(o) == "no error");
}

TEST_CASE("an interval, a tolerance or a step below what double precision resolves is refused") {
  SimulationOptions o;
  // 1e17 + 16 is the next double but one after 1e17: a span IDA cannot take a step in.
  o.start_s = 1e17;
  o.stop_s = 1e17 + 16;
  CHECK(error_of(o) ==
        "SimulationOptions::stop_s must be such that stop_s - start_s (16) is finite and > the "
        "time resolution of the run (2.22e+04 s), got 1.0000000000000002e+17");
  o = {};
  o.stop_s = 1e-300;
  CHECK(error_of(o) ==
        "SimulationOptions::stop_s must be such that stop_s - start_s (1e-300) is finite and > "
        "the time resolution of the run (2.22e-13 s), got 1e-300");
  o = {};
  o.start_s = -1.7e308;
  o.stop_s = 1.7e308;  // stop_s - start_s overflows
  CHECK(error_of(o) ==
        "SimulationOptions::stop_s must be such that stop_s - start_s (inf) is finite and > the "
        "time resolution of the run (3.77e+295 s), got 1.7e+308");

  // IDA gives up when u ||x||_WRMS > 1, and ||x||_WRMS reaches 1/rel_tol (options.cpp).
  for (const double rel_tol : {1e-17, 1e-300}) {
    o = {};
    o.rel_tol = rel_tol;
    CHECK(error_of(o) ==
          "SimulationOptions::rel_tol must be >= 1e-15 (IDA cannot meet a smaller relative "
          "tolerance in double precision), got " +
              fmt::format("{}", rel_tol));
  }
  o = {};
  o.rel_tol = 1e-15;
  CHECK(error_of(o) == "no error");

  o = {};
  o.max_step_s = 1e-300;
  CHECK(error_of(o) ==
        "SimulationOptions::max_step_s must be 0 (no limit) or >= the time resolution of the run "
        "(2.22e-13 s), got 1e-300");
  o = {};
  o.initial_step_s = 1e-320;
  CHECK(error_of(o) ==
        "SimulationOptions::initial_step_s must be 0 (IDA's own estimate) or >= the time "
        "resolution of the run (2.22e-13 s), got 1e-320");
  o = {};
  o.max_step_s = 1e-12;
  o.initial_step_s = 1e-12;
  CHECK(error_of(o) == "no error");
}

TEST_CASE("an enum field holding no enumerator is refused naming the field") {
  SimulationOptions o;
  o.linear_solver = static_cast<LinearSolverKind>(3);  // what a cast from a bad integer gives
  CHECK(error_of(o) ==
        "SimulationOptions::linear_solver must be kAuto (0), kDense (1) or kKlu (2), got 3");
  o = {};
  o.jump_rule = static_cast<JumpRule>(-1);
  CHECK(error_of(o) ==
        "SimulationOptions::jump_rule must be kMidpoint (0) or kEndPoint (1), got -1");
  o = {};
  o.sinks = {SinkSpec::memory(), SinkSpec{.kind = static_cast<SinkKind>(3), .file = "x"}};
  CHECK(error_of(o) ==
        "SimulationOptions::sinks[1].kind must be kMemory (0), kCsv (1) or kHdf5 (2), got 3");
  o = {};
  o.record_rows = static_cast<RecordedRows>(2);
  CHECK(error_of(o) ==
        "SimulationOptions::record_rows must be kGrid (0) or kEventsOnly (1), got 2");
  o = {};
  o.log_level = static_cast<LogLevel>(5);
  CHECK(error_of(o) ==
        "SimulationOptions::log_level must be kOff (0), kError (1), kWarning (2), kInfo (3) or "
        "kDebug (4), got 5");
  o = {};
  o.log_level = LogLevel::kDebug;
  o.sinks = {SinkSpec::hdf5("x.h5")};
  CHECK(error_of(o) == "no error");
}

TEST_CASE("a result table that would outgrow max_result_bytes is refused before the run") {
  // 500 s every 1e-6 s is 5e8 grid rows (+ the first and the last); with the time and the
  // lag's x, der(x) that is 3 columns of 8 bytes: 1.2e10 bytes, above the default 8e9.
  test::FirstOrderLag model(1.0, 1.0);
  SimulationOptions o;
  o.stop_s = 500.0;
  o.output_interval_s = 1e-6;
  CHECK_THROWS_WITH_AS(static_cast<void>(Simulator(model, o)),
                       doctest::Contains("the result table would hold 5e+08 rows (every "
                                         "output_interval_s = 1e-06 s over stop_s - start_s = "
                                         "500 s, record_every = 1) of 3 columns, 1.2e+10 bytes"),
                       OptionError);
  // Fewer rows, a raised limit or rows that are streamed, not held: accepted.
  o.record_every = 2;
  CHECK_NOTHROW(static_cast<void>(Simulator(model, o)));
  o.record_every = 1;
  o.max_result_bytes = 2e10;
  CHECK_NOTHROW(static_cast<void>(Simulator(model, o)));
  o.max_result_bytes = 8e9;
  o.sinks = {SinkSpec::csv("/dev/null")};
  CHECK_NOTHROW(static_cast<void>(Simulator(model, o)));
  o.max_result_bytes = 0.0;
  CHECK_THROWS_WITH_AS(o.validate(), doctest::Contains("max_result_bytes must be > 0"),
                       OptionError);
}
