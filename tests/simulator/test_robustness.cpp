// Failures are as well behaved as successes: a status (or, for model exceptions, an
// exception) that says why and when, and the rows computed so far are kept.
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>

#include <doctest/doctest.h>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/simulator.hpp"
#include "results/temp_dir.hpp"

using namespace hdae;

namespace {

enum class Fault { kNanAfterOne, kThrowInHandler, kSingularMode, kUnsatisfiable };

/// x1' = -x1, x2' = -x2 with a time event at 0.5 and one fault injected. For kUnsatisfiable
/// x2 starts at 0.02, so that x2(0.5) = 0.02 exp(-0.5) is close to zero (see that test).
class Faulty final : public Model {
 public:
  explicit Faulty(Fault fault) : Model("faulty"), fault_(fault) {
    x1_ = declare_variable({.name = "x1", .start = 1.0});
    x2_ = declare_variable({.name = "x2", .start = fault == Fault::kUnsatisfiable ? 0.02 : 2.0});
    eq1_ = declare_equation("der(x1) = -x1");
    eq2_ = declare_equation("der(x2) = -x2 / mode-dependent constraint");
    switch_ = declare_time_event("switch");
  }
  void evaluate(Evaluation& e) override {
    double r1 = e.der(x1_) + e.x(x1_);
    if (fault_ == Fault::kNanAfterOne && e.t() > 1.0) r1 = std::numeric_limits<double>::quiet_NaN();
    e.set(eq1_, r1);
    if (!switched_) {
      e.set(eq2_, e.der(x2_) + e.x(x2_));
    } else if (fault_ == Fault::kSingularMode) {
      e.set(eq2_, e.x(x1_) - 0.5);  // a constraint that does not involve x2
    } else {
      e.set(eq2_, e.x(x2_) * e.x(x2_) + 1.0);  // x2^2 + 1 = 0 has no real solution
    }
  }
  void on_event(EventContext& event) override {
    if (event.is_initial()) event.schedule(switch_, 0.5);
    if (!event.fired(switch_)) return;
    if (fault_ == Fault::kThrowInHandler) throw std::runtime_error("valve table missing");
    if (fault_ == Fault::kSingularMode || fault_ == Fault::kUnsatisfiable) {
      switched_ = true;
      event.set_row_kind(eq2_, RowKind::kConstraint);
    }
  }
  void reset() override { switched_ = false; }

 private:
  Fault fault_;
  bool switched_ = false;
  Var x1_, x2_;
  Eq eq1_, eq2_;
  TimeEvent switch_;
};

SimulationOptions faulty_options() {
  SimulationOptions o;
  o.stop_s = 2.0;
  o.output_interval_s = 0.1;
  o.log_level = LogLevel::kOff;
  return o;
}

}  // namespace

TEST_CASE("a residual that turns NaN stops the run with solver failure naming the equation") {
  Faulty model(Fault::kNanAfterOne);
  const SimulationResult result = simulate(model, faulty_options());
  CHECK(result.status.outcome == Outcome::kSolverFailure);
  // IDA cannot step past t = 1: every attempt beyond it gives NaN and is retried smaller.
  CHECK(result.status.t == doctest::Approx(1.0).epsilon(1e-6));
  CHECK(result.status.message.find("IDA failed at t = ") == 0);
  CHECK(result.status.message.find("last residual not finite at t = 1.") != std::string::npos);
  CHECK(result.status.message.find(": equations {der(x1) = -x1}") != std::string::npos);
  // Grid rows 0 .. 1.0 (11) and the right limit at the time event 0.5 are kept, plus a last
  // row at the failure time.
  CHECK(result.table.num_rows() == 13);
  CHECK(result.table.time().back() == result.status.t);
}

TEST_CASE(
    "an exception from the event handler is rethrown with phase, time and the partial result") {
  Faulty model(Fault::kThrowInHandler);
  try {
    static_cast<void>(simulate(model, faulty_options()));
    FAIL("simulate should have thrown");
  } catch (const ModelCallbackError& e) {
    CHECK(std::string(e.what()) ==
          "model 'faulty' failed in event handler at t = 0.5: valve table missing");
    REQUIRE(e.partial_result() != nullptr);
    const SimulationResult& partial = *e.partial_result();
    // Rows 0, 0.1, ..., 0.5 (the left limit at the event) and the last row at t = 0.5.
    CHECK(partial.table.num_rows() == 7);
    CHECK(partial.table.time().back() == 0.5);
    CHECK(partial.status.t == 0.5);
    // x1 = exp(-t) up to the integration error (100 rel_tol, as in the integration tests).
    CHECK(std::abs(partial.table.final_value("x1") - std::exp(-0.5)) < 100 * 1e-6);
    // The initial event and the interrupted one, which says why.
    REQUIRE(partial.events.size() == 2);
    CHECK(partial.events[1].t == 0.5);
    CHECK(partial.events[1].note == e.what());
    try {
      std::rethrow_if_nested(e);
      FAIL("the original exception should be nested");
    } catch (const std::runtime_error& original) {
      CHECK(std::string(original.what()) == "valve table missing");
    }
  }
}

TEST_CASE(
    "a mode switch that makes J singular stops with a diagnostic naming equation and variable") {
  Faulty model(Fault::kSingularMode);
  const SimulationResult result = simulate(model, faulty_options());
  CHECK(result.status.outcome == Outcome::kSingularJacobian);
  CHECK(result.status.t == 0.5);
  const std::string& m = result.status.message;
  CHECK(m.find("singular at t = 0.5") != std::string::npos);
  CHECK(m.find("variables {x2} are not determined") != std::string::npos);
  CHECK(m.find("(mode: constraint rows {der(x2) = -x2 / mode-dependent constraint})") !=
        std::string::npos);
  CHECK(result.table.time().back() == 0.5);
}

namespace {

/// 300 decaying states x (der(x[i]) = -x[i]) and 300 algebraic y under constraints: rows
/// c[1..200] read 0 = y[k] - 1, rows c[201..300] read 0 = y[k-100] - 1 + (y[k] - 1)^3. At the
/// start y = 1 the cube's derivative vanishes (its difference quotient is about 1e-16), so in
/// J = [M_d; df_c/dx] the rows c[k] and c[k+100] (k = 101..200) are equal and the columns
/// y[201..300] zero: 100 null directions, more than one block of the sparse analysis (64),
/// and 600 unknowns with a declared pattern take the sparse path (over 500).
class RepeatedConstraints final : public Model {
 public:
  RepeatedConstraints() : Model("repeated_constraints") {
    x_ = declare_variables(kCount, {.name = "x", .start = 1.0});
    y_ = declare_variables(kCount, {.name = "y", .start = 1.0});
    decay_ = declare_equations(kCount, "der(x[{i}]) = -x[{i}]");
    c_ = declare_equations(kCount, "c[{i}]", RowKind::kConstraint);
    declare_dependency(decay_, x_);
    declare_dependency(c_, y_);
    for (std::size_t k = 200; k < kCount; ++k) declare_dependency(c_[k], y_[k - 100]);
  }
  void evaluate(Evaluation& e) override {
    for (std::size_t i = 0; i < kCount; ++i) e.set(decay_[i], e.der(x_[i]) + e.x(x_[i]));
    for (std::size_t k = 0; k < 200; ++k) e.set(c_[k], e.x(y_[k]) - 1.0);
    for (std::size_t k = 200; k < kCount; ++k) {
      const double d = e.x(y_[k]) - 1.0;
      e.set(c_[k], e.x(y_[k - 100]) - 1.0 + d * d * d);
    }
  }

 private:
  static constexpr std::size_t kCount = 300;
  Vars x_, y_;
  Eqs decay_, c_;
};

}  // namespace

TEST_CASE("a large singular J is diagnosed by the sparse analysis, its lists cut at a dozen") {
  RepeatedConstraints model;
  const std::string m = simulate(model, SimulationOptions{.stop_s = 1.0}).status.message;
  CAPTURE(m);
  REQUIRE(m.starts_with("J = [M_d; df_c/dx] is singular at t = 0: equations {"));
  // The 100 zero columns are unit null vectors of equal share, listed in model order; the 200
  // rows of the 100 equal pairs are counted; of the 300 constraint rows the mode names 12.
  CHECK(m.find("variables {y[201], y[202], y[203], y[204], y[205], y[206], y[207], y[208], "
               "y[209], y[210], y[211], y[212], ... (88 more)} are not determined") !=
        std::string::npos);
  CHECK(m.find(", ... (188 more)} are dependent") != std::string::npos);
  CHECK(m.find("(mode: constraint rows {c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], "
               "c[10], c[11], c[12], ... (288 more)})") != std::string::npos);
}

TEST_CASE("a constraint that cannot be satisfied stops with a jump solve failure") {
  // At t = 0.5 the row of x2 becomes the constraint x2^2 + 1 = 0, which no real x2 meets.
  // The Newton matrix stays regular: [1 0; 0 2 x2] with x2 = x2(0.5) = 0.02 exp(-0.5) =
  // 0.0121, which the row scaling (the row's sensitivity at x^-) makes the unit matrix. The
  // Newton step -(x2^2 + 1) / (2 x2) = -41.2 overshoots: every trial step of the line search,
  // down to its smallest fraction 1/1024, moves x2 by at least 41.2 / 1024 = 0.040 > 2 x2,
  // past -x2, so |x2| and the residual grow. The solve fails in its first iteration.
  Faulty model(Fault::kUnsatisfiable);
  const SimulationResult result = simulate(model, faulty_options());
  CHECK(result.status.outcome == Outcome::kJumpSolveFailure);
  CHECK(result.status.t == 0.5);
  CHECK(result.status.message ==
        "jump at t = 0.5: no step lowers the residual of the jump equations (iteration 1); "
        "largest residuals in equations {der(x2) = -x2 / mode-dependent constraint} (mode: "
        "constraint rows {der(x2) = -x2 / mode-dependent constraint})");
  // Rows 0, 0.1, ..., 0.5 (the left limit at the event) and the last row at t = 0.5, which
  // holds x^- since no x^+ was found.
  CHECK(result.table.num_rows() == 7);
  CHECK(result.table.time().back() == 0.5);
  CHECK(std::abs(result.table.final_value("x2") - 0.02 * std::exp(-0.5)) < 100 * 1e-6 * 0.02);
  REQUIRE(result.events.size() == 2);
  CHECK(result.events.back().t == 0.5);
  CHECK(result.events.back().iterations == 1);
}

TEST_CASE("the wall-clock limit and the cancel flag stop the run and keep its rows") {
  SUBCASE("wall-clock limit") {
    models::Pendulum model;
    SimulationOptions o;
    o.stop_s = 1e6;  // far more than a microsecond of work
    o.max_wall_time_s = 1e-6;
    o.log_level = LogLevel::kOff;
    const SimulationResult result = simulate(model, o);
    CHECK(result.status.outcome == Outcome::kWallClockLimit);
    CHECK(result.status.message.find("wall-clock limit of 1e-06 s reached at t = ") == 0);
    CHECK(result.table.time().back() == result.status.t);
  }
  SUBCASE("cancel flag") {
    models::Pendulum model;
    std::atomic<bool> cancel{true};
    SimulationOptions o;
    o.stop_s = 10.0;
    o.cancel = &cancel;
    o.log_level = LogLevel::kOff;
    const SimulationResult result = simulate(model, o);
    CHECK(result.status.outcome == Outcome::kInterrupted);
    CHECK(result.status.t == 0.0);
    CHECK(result.status.message == "interrupted at t = 0");
    // Noticed after the first pass of the initial event iteration: the consistent initial
    // state is the one row.
    CHECK(result.table.num_rows() == 1);
  }
}

namespace {

/// x' = -x with a time event at 0.5 whose handler ends the run from inside: it sets the
/// cancel flag (when given one) and spends sleep_s of wall-clock time.
class StopsInHandler final : public Model {
 public:
  StopsInHandler(std::atomic<bool>* cancel, double sleep_s)
      : Model("stops_in_handler"), cancel_(cancel), sleep_s_(sleep_s) {
    x_ = declare_variable({.name = "x", .start = 1.0});
    eq_ = declare_equation("der(x) = -x");
    tick_ = declare_time_event("tick");
  }
  void evaluate(Evaluation& e) override { e.set(eq_, e.der(x_) + e.x(x_)); }
  void on_event(EventContext& event) override {
    if (event.is_initial()) event.schedule(tick_, 0.5);
    if (!event.fired(tick_)) return;
    if (cancel_ != nullptr) cancel_->store(true);
    std::this_thread::sleep_for(std::chrono::duration<double>(sleep_s_));
  }

 private:
  std::atomic<bool>* cancel_;
  double sleep_s_;
  Var x_;
  Eq eq_;
  TimeEvent tick_;
};

/// The common checks: stopped at the event t = 0.5 with its right limit kept and logged.
void check_stopped_at_event(const SimulationResult& result) {
  CHECK(result.status.t == 0.5);
  // Rows 0, 0.1, ..., 0.5 (left limit) and the right limit x^+(0.5); nothing after 0.5.
  CHECK(result.table.num_rows() == 7);
  CHECK(result.table.time().back() == 0.5);
  // x = exp(-t) to 100 rel_tol, as in the integration tests; there is no jump at the event.
  CHECK(std::abs(result.table.final_value("x") - std::exp(-0.5)) < 100 * 1e-6);
  REQUIRE(result.events.size() == 2);
  CHECK(result.events[1].t == 0.5);
  CHECK(result.events[1].iterations == 1);
  CHECK(result.events[1].note == result.status.message);
}

}  // namespace

TEST_CASE("a cancel flag set by the event handler stops the run at that event") {
  std::atomic<bool> cancel{false};
  StopsInHandler model(&cancel, 0.0);
  SimulationOptions o = faulty_options();
  o.cancel = &cancel;
  const SimulationResult result = simulate(model, o);
  CHECK(result.status.outcome == Outcome::kInterrupted);
  CHECK(result.status.message == "interrupted at t = 0.5");
  check_stopped_at_event(result);
}

TEST_CASE("the wall-clock limit is noticed during event handling") {
  // The handler sleeps 0.6 s, past the 0.5 s limit; integrating x' = -x to t = 0.5 takes
  // well under a millisecond, so the limit is first exceeded inside the event.
  StopsInHandler model(nullptr, 0.6);
  SimulationOptions o = faulty_options();
  o.max_wall_time_s = 0.5;
  const SimulationResult result = simulate(model, o);
  CHECK(result.status.outcome == Outcome::kWallClockLimit);
  CHECK(result.status.message == "wall-clock limit of 0.5 s reached at t = 0.5");
  check_stopped_at_event(result);
}

TEST_CASE("a failed run written to files keeps its partial rows and events on disk") {
  Faulty model(Fault::kNanAfterOne);
  const SimulationResult result = simulate(model, faulty_options());
  REQUIRE(result.status.outcome == Outcome::kSolverFailure);
  const test::TempDir dir;
  write_result_files(result, dir.file("nan.csv"));
  const ResultTable read = read_csv(dir.file("nan.csv"));
  // The 13 rows of the in-memory result (see the NaN test above), read back exactly (the
  // writer's shortest round-trip representation).
  REQUIRE(read.num_rows() == 13);
  REQUIRE(read.num_rows() == result.table.num_rows());
  CHECK(read.time().back() == result.status.t);
  for (std::size_t i = 0; i < read.num_rows(); ++i) {
    CHECK(read.time(i) == result.table.time(i));
    for (std::size_t j = 0; j < read.num_columns(); ++j) {
      CHECK(read.value(i, j) == result.table.value(i, j));
    }
  }
  // The initial event (one pass: it schedules 'switch') and the time event at 0.5.
  CHECK(dir.read("nan.events.csv") ==
        "time,kind,crossings,time_events,iterations,jumps,time_sensitivities,note\n"
        "0,initial,,,1,,,\n"
        "0.5,time,,switch,1,,,\n");
}

TEST_CASE("rows streamed to a CSV are the rows kept in memory, bit for bit") {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("hdae_stream_" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  models::Pendulum a, b;
  SimulationOptions o;
  o.stop_s = 2.0;
  const SimulationResult in_memory = simulate(a, o);
  o.sinks = {SinkSpec::csv(dir / "stream.csv")};
  const SimulationResult streamed = simulate(b, o);
  CHECK(streamed.table.num_rows() == 0);
  const ResultTable read = read_csv(dir / "stream.csv");
  REQUIRE(read.num_rows() == in_memory.table.num_rows());
  REQUIRE(read.num_columns() == in_memory.table.num_columns());
  for (std::size_t i = 0; i < read.num_rows(); ++i) {
    CHECK(read.time(i) == in_memory.table.time(i));
    for (std::size_t j = 0; j < read.num_columns(); ++j) {
      CHECK(read.value(i, j) == in_memory.table.value(i, j));
    }
  }
  std::filesystem::remove_all(dir);

  SimulationOptions bad;
  bad.sinks = {SinkSpec{.kind = SinkKind::kCsv}};
  CHECK_THROWS_WITH_AS(bad.validate(),
                       "SimulationOptions::sinks[0] is kCsv and must name a file, got an empty "
                       "path",
                       OptionError);
}

namespace {

/// x' = -x with a time event that reschedules itself every period_s, without end: a sampler
/// over a run far longer than its memory can keep.
class Sampler final : public Model {
 public:
  explicit Sampler(double period_s) : Model("sampler"), period_s_(period_s) {
    x_ = declare_variable({.name = "x", .start = 1.0});
    eq_ = declare_equation("der(x) = -x");
    tick_ = declare_time_event("tick");
  }
  void evaluate(Evaluation& e) override { e.set(eq_, e.der(x_) + e.x(x_)); }
  void on_event(EventContext& event) override {
    if (event.is_initial() || event.fired(tick_)) event.schedule(tick_, event.t() + period_s_);
  }

 private:
  double period_s_;
  Var x_;
  Eq eq_;
  TimeEvent tick_;
};

}  // namespace

TEST_CASE("events without end stop the run at max_result_bytes, their result kept") {
  // Every tick adds two rows (its left and right limits) of time, x and der(x): 48 bytes, and
  // a record to the event log, more than nothing and less than a kilobyte. A limit of 1e6
  // bytes is reached after between 1e6 / (48 + 1024) = 932 and 1e6 / 48 = 20833 ticks, far
  // before the 1e6 ticks of the run.
  Sampler model(1e-3);
  SimulationOptions o;
  o.stop_s = 1000.0;
  o.output_interval_s = 100.0;
  o.max_result_bytes = 1e6;
  o.log_level = LogLevel::kOff;
  const SimulationResult result = simulate(model, o);
  CHECK(result.status.outcome == Outcome::kResultLimit);
  CHECK(result.status.message.find("more than SimulationOptions::max_result_bytes = 1e+06") !=
        std::string::npos);
  CHECK(result.events.size() >= 932);
  CHECK(result.events.size() <= 20833);
  // The rows and events before the limit are kept, the last row at the tick that reached it.
  REQUIRE(result.table.num_rows() >= 2 * (result.events.size() - 1));
  CHECK(result.table.time(result.table.num_rows() - 1) == doctest::Approx(result.status.t));
  CHECK(result.status.t == doctest::Approx(1e-3 * static_cast<double>(result.events.size() - 1)));
  // Rows that are not held count nothing: the event log alone takes the limit later.
  o.sinks.clear();
  const SimulationResult streamed = simulate(model, o);
  CHECK(streamed.status.outcome == Outcome::kResultLimit);
  CHECK(streamed.events.size() > result.events.size());
  // Raised, the limit lets the sampler run its 10 s.
  o.stop_s = 10.0;
  o.max_result_bytes = 8e9;
  CHECK(simulate(model, o).status.outcome == Outcome::kReachedStopTime);
}
