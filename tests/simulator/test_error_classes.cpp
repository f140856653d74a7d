// Who failed, honestly: a row sink that cannot take rows is an engine failure (EngineError,
// Outcome::kEngineFailure), not the model's; KLU without a pattern is refused up front.
#include <stdexcept>
#include <string>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/row_sink.hpp"
#include "hdae/simulator.hpp"
#include "support/test_models.hpp"

using namespace hdae;

TEST_CASE("a row sink that fails ends the run as an engine failure with the rows so far") {
  struct Full final : RowSink {
    int rows = 0;
    void begin(const std::vector<ColumnInfo>&) override {}
    void append(double, std::span<const double>) override {
      if (++rows > 3) throw std::runtime_error("disk full");
    }
  } sink;
  test::FirstOrderLag model(2.0, 1.5);
  SimulationOptions options;
  options.stop_s = 1.0;
  options.output_interval_s = 0.1;
  options.log_level = LogLevel::kOff;
  Simulator simulator(model, options);
  simulator.add_row_sink(sink);
  try {
    simulator.advance_to(1.0);
    FAIL("the sink's failure did not end the run");
  } catch (const ModelCallbackError&) {
    FAIL("a sink's failure was reported as the model's");
  } catch (const EngineError& e) {
    const std::string what = e.what();
    CHECK(what.rfind("engine failure at t = 0.3", 0) == 0);
    CHECK(what.find("disk full") != std::string::npos);
    REQUIRE(e.partial_result() != nullptr);
    CHECK(e.partial_result()->status.outcome == Outcome::kEngineFailure);
    // The rows at t = 0, 0.1 and 0.2 reached the table; the one at 0.3 failed in the sink.
    CHECK(e.partial_result()->table.num_rows() >= 3);
  }
}

TEST_CASE("KLU for a model without a sparsity pattern is refused naming the option and model") {
  test::FirstOrderLag model(2.0, 1.5);
  SimulationOptions options;
  options.linear_solver = LinearSolverKind::kKlu;
  CHECK_THROWS_WITH_AS(Simulator(model, options),
                       "SimulationOptions::linear_solver is kKlu but model 'first_order_lag' "
                       "declares no sparsity pattern (declare_dependency); use kAuto or kDense, "
                       "or declare the pattern",
                       OptionError);
}
