// Failures are as well behaved as successes: a status (or, for model exceptions, an
// exception) that says why and when, and the rows computed so far are kept.
#include <atomic>
#include <cmath>
#include <filesystem>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

#include <doctest/doctest.h>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

enum class Fault { kNanAfterOne, kThrowInHandler, kSingularMode, kUnsatisfiable };

/// x1' = -x1, x2' = -x2 with a time event at 0.5 and one fault injected.
class Faulty final : public Model {
 public:
  explicit Faulty(Fault fault) : Model("faulty"), fault_(fault) {
    x1_ = declare_variable({.name = "x1", .start = 1.0});
    x2_ = declare_variable({.name = "x2", .start = 2.0});
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

TEST_CASE("a constraint that cannot be satisfied stops with a jump solve failure") {
  Faulty model(Fault::kUnsatisfiable);
  const SimulationResult result = simulate(model, faulty_options());
  CHECK((result.status.outcome == Outcome::kJumpSolveFailure ||
         result.status.outcome == Outcome::kSingularJacobian));
  CHECK(result.status.t == 0.5);
  CHECK(result.status.message.find("der(x2) = -x2 / mode-dependent constraint") !=
        std::string::npos);
  CHECK(result.table.time().back() == 0.5);
  REQUIRE(!result.events.empty());
  CHECK(result.events.back().t == 0.5);
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
    CHECK(result.table.num_rows() == 2);  // the initial row and the row at the stop
  }
}

TEST_CASE("rows streamed to a CSV are the rows kept in memory, bit for bit") {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("hdae_stream_" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  models::Pendulum a, b;
  SimulationOptions o;
  o.stop_s = 2.0;
  const SimulationResult in_memory = simulate(a, o);
  o.stream_csv_path = dir / "stream.csv";
  o.row_storage = RowStorage::kStreamOnly;
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
  bad.row_storage = RowStorage::kStreamOnly;
  CHECK_THROWS_WITH_AS(bad.validate(),
                       "SimulationOptions::row_storage is kStreamOnly but stream_csv_path is "
                       "empty; the rows would be lost",
                       OptionError);
}
