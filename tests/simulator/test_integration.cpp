// Integration (simulator/integration.hpp) on its own: IDA made for a model's unknowns,
// restarted from a right limit, and made anew when the unknowns change, its counters summed.
// The model is der(x) = -x, so x(t) = x0 exp(-(t - t0)) is the expected value.
#include <cmath>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "events/crossing_table.hpp"
#include "hdae/model_builder.hpp"
#include "model/model_calls.hpp"
#include "reinit/reinitializer.hpp"
#include "simulator/integration.hpp"
#include "simulator/stop_watch.hpp"

using namespace hdae;
using namespace hdae::detail;

namespace {

class Decay final : public Model {
 public:
  Decay() : Model("decay") {
    x_ = declare_variable({.name = "x", .start = 1.0});
    e_ = declare_equation("der(x) = -x");
  }
  void evaluate(Evaluation& e) override { e.set(e_, e.der(x_) + e.x(x_)); }

 private:
  Var x_;
  Eq e_;
};

/// Steps the integrator from its current time to t_end (a stop time there) and returns x(t_end).
double integrate_to(hdae::sundials::Integrator& ida, double t_end) {
  while (ida.t() < t_end) {
    REQUIRE(ida.step(t_end, t_end) != hdae::sundials::StepResult::kFailure);
  }
  return ida.y()[0];
}

/// The decay model with what an Integration needs around it, at rel_tol 1e-8.
struct DecayRun {
  explicit DecayRun(IntegrationMethod method) { options.method = method; }

  Decay model;
  CrossingTable crossings{model.structure(), 1e-10};
  ModelCalls calls{model, &crossings};
  StopWatch stop{nullptr, 0.0};
  SimulationOptions options{.rel_tol = 1e-8};
  reinit::Reinitializer reinit{calls, {}, std::nullopt};
  Integration integration{calls, crossings, stop, options, [](LogLevel, std::string_view) {}};
};

}  // namespace

TEST_CASE("Integration restarts IDA from a right limit and keeps the counters of IDA made anew") {
  DecayRun run(IntegrationMethod::kIda);
  const ModelStructure& s = run.model.structure();
  Integration& integration = run.integration;
  CHECK_FALSE(integration.started());

  integration.renew();
  std::vector<double> x{1.0}, der_x{-1.0};
  const std::vector<RowKind> kinds = s.equations.kinds();
  RestartPoint p{
      .t = 0.0, .x = x, .der_x = der_x, .row_kinds = kinds, .structure = &s, .reinit = &run.reinit};
  integration.restart(p);
  CHECK(std::string_view(integration.method_name()) == "ida");
  // 1e-6: the global error of BDF at rel_tol 1e-8 over one time constant stays within a hundred
  // tolerances.
  CHECK(integrate_to(integration.integrator(), 1.0) ==
        doctest::Approx(std::exp(-1.0)).epsilon(1e-6));
  const long steps_first = integration.counters().steps;
  CHECK(steps_first > 0);

  // A jump to x = 2 at t = 1 and a new integrator (as after a change of unknowns): the
  // solution restarts from the right limit, and the counters go on from the first IDA's.
  x = {2.0};
  der_x = {-2.0};
  p.t = 1.0;
  integration.unknowns_changed(1);
  integration.restart(p);
  CHECK(integrate_to(integration.integrator(), 2.0) ==
        doctest::Approx(2.0 * std::exp(-1.0)).epsilon(1e-6));
  CHECK(integration.counters().steps > steps_first);
  CHECK(integration.integrator().counters().steps < integration.counters().steps);
}

TEST_CASE("Integration takes CVODE's Adams formulas for an explicit ODE when the method asks") {
  DecayRun run(IntegrationMethod::kAdams);
  const ModelStructure& s = run.model.structure();
  Integration& integration = run.integration;
  std::vector<double> x{1.0}, der_x{-1.0};
  const std::vector<RowKind> kinds = s.equations.kinds();
  const RestartPoint p{
      .t = 0.0, .x = x, .der_x = der_x, .row_kinds = kinds, .structure = &s, .reinit = &run.reinit};
  integration.restart(p);
  CHECK(std::string_view(integration.method_name()) == "cvode-adams");
  // As for IDA above: the global error over one time constant within a hundred tolerances.
  CHECK(integrate_to(integration.integrator(), 1.0) ==
        doctest::Approx(std::exp(-1.0)).epsilon(1e-6));
}
