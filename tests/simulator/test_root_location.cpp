// RootLocation (simulator/root_location.hpp) on its own, with an integrator whose interpolant is
// the exact solution x(t) = t of der(x) = 1: where a step's root lies and which crossings cross
// there follow from the crossing formulas alone, so every expected instant is known in closed
// form.
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "events/crossing_table.hpp"
#include "hdae/model_builder.hpp"
#include "model/model_calls.hpp"
#include "simulator/root_location.hpp"
#include "sundials/integrator.hpp"

using namespace hdae;
using namespace hdae::detail;

namespace {

/// x' = 1 from x = 0, with the crossings gap = max(0, 0.3 - x), which reaches zero at t = 0.3
/// and stays there, cut = 0.3 - x and near = (0.3 + delta) - x, all positive() Booleans.
class Ramp final : public Model {
 public:
  explicit Ramp(double delta) : Model("ramp"), delta_(delta) {
    x_ = declare_variable({.name = "x"});
    e_ = declare_equation("der(x) = 1");
    gap_ = declare_crossing("gap");
    cut_ = declare_crossing("cut");
    near_ = declare_crossing("near");
  }
  void evaluate(Evaluation& e) override {
    const double x = e.x(x_);
    e.set(e_, e.der(x_) - 1.0);
    e.positive(gap_, std::max(0.0, 0.3 - x));
    e.positive(cut_, 0.3 - x);
    e.positive(near_, (0.3 + delta_) - x);
  }

 private:
  double delta_;
  Var x_;
  Eq e_;
  Crossing gap_, cut_, near_;
};

/// The last step of an integrator that ended at t_r with the root report `reported`; its
/// interpolant is the exact solution x = t, x' = 1.
class ExactStep final : public sundials::Integrator {
 public:
  ExactStep(double t_r, double h, std::vector<int> reported)
      : t_(t_r), h_(h), y_{t_r}, yp_{1.0}, reported_(std::move(reported)) {}

  void restart(double, std::span<const double>, std::span<const double>, const std::vector<bool>&,
               double, bool) override {}
  void change_pattern(const sparsity::SparsityPattern&) override {}
  sundials::StepResult step(double, double) override { return sundials::StepResult::kStepped; }
  void interpolate(double t, std::span<double> y, std::span<double> yp) const override {
    y[0] = t;
    yp[0] = 1.0;
  }
  void move_root(double t, std::vector<int> root_info) override {
    moved_to = t;
    moved_info = std::move(root_info);
  }
  [[nodiscard]] double t() const override { return t_; }
  [[nodiscard]] std::span<const double> y() const override { return y_; }
  [[nodiscard]] std::span<const double> yp() const override { return yp_; }
  [[nodiscard]] const std::vector<int>& root_info() const override { return reported_; }
  [[nodiscard]] std::string last_flag_name() const override { return "IDA_ROOT_RETURN"; }
  [[nodiscard]] double last_step() const override { return h_; }
  [[nodiscard]] std::vector<double> error_weights() const override { return {1.0}; }
  [[nodiscard]] sundials::IntegratorCounters counters() const override { return {}; }

  std::optional<double> moved_to;
  std::vector<int> moved_info;

 private:
  double t_;
  double h_;
  std::vector<double> y_;
  std::vector<double> yp_;
  std::vector<int> reported_;
};

/// The model with its crossing table, the Booleans set by an initial pass at x = 0 (all true).
struct RampRun {
  explicit RampRun(double delta = 0.0) : model(delta) {
    const std::vector<double> x{0.0}, der_x{1.0};
    std::vector<double> r(1);
    crossings.begin_initial_pass();
    calls.evaluate(0.0, x, der_x, r, {}, EvaluationPhase::kInitial);
    crossings.accept_current();
  }

  Ramp model;
  CrossingTable crossings{model.structure(), 1e-10};
  ModelCalls calls{model, &crossings};
};

}  // namespace

TEST_CASE("a crossing that reaches zero and stays there: the root moves to where it got there") {
  // IDA reports gap at t = 0.5, on its flat part; its Boolean (gap > 0) flipped at t = 0.3.
  RampRun run;
  ExactStep ida(0.5, 0.4, {-1, 0, 0});
  RootLocation location(run.calls, run.crossings, 1);
  location.locate_first_flip(ida, 0.1);
  REQUIRE(ida.moved_to.has_value());
  // The bisection ends within IDA's own root resolution, 100 u (|t| + |h|), above t = 0.3.
  const double resolution = RootLocation::tolerance(ida, 0.5);
  CHECK(resolution == doctest::Approx(100.0 * std::numeric_limits<double>::epsilon() * 0.9));
  CHECK(*ida.moved_to >= 0.3);
  CHECK(*ida.moved_to - 0.3 <= resolution);
  // cut = 0.3 - x crosses at the same instant; gap and cut left the positive side, near
  // (delta = 0: the same formula as cut) too.
  CHECK(ida.moved_info == std::vector<int>{-1, -1, -1});
}

TEST_CASE("a root whose crossing is not exactly zero there stays where IDA put it") {
  // IDA reports cut just past its zero (a hair on the new side): nothing to move.
  RampRun run;
  ExactStep ida(0.3 + 1e-12, 0.2, {0, -1, 0});
  RootLocation location(run.calls, run.crossings, 1);
  location.locate_first_flip(ida, 0.1);
  CHECK_FALSE(ida.moved_to.has_value());
}

TEST_CASE("a crossing within IDA's time resolution after the root crosses at the root") {
  // near's zero lies 20 u after cut's, inside IDA's bracket of 100 u (|t| + |h|): IDA
  // reports cut only, and near is noted as crossing at the same instant, so that the event
  // pass flips its Boolean although near is still a hair positive at the root.
  const double t_root = 0.3 + 1e-15;
  const double delta = 20.0 * std::numeric_limits<double>::epsilon() * 0.3;
  REQUIRE((0.3 + delta) - t_root > 0.0);  // near is still positive at the root
  RampRun with_notes(delta);
  RampRun without_notes(delta);
  ExactStep ida(t_root, 0.2, {0, -1, 0});
  const std::vector<double> x{t_root}, der_x{1.0};
  std::vector<double> r(1);

  RootLocation location(with_notes.calls, with_notes.crossings, 1);
  location.note_roots(ida, t_root, x, der_x);
  with_notes.crossings.begin_pass();
  with_notes.calls.evaluate(t_root, x, der_x, r, {}, EvaluationPhase::kEvent);
  CHECK_FALSE(with_notes.crossings.value(2));  // near crossed with cut
  CHECK_FALSE(with_notes.crossings.value(1));  // cut, as IDA reported

  // Without the notes, the event pass reads near's sign at the root: still true.
  without_notes.crossings.begin_pass();
  without_notes.calls.evaluate(t_root, x, der_x, r, {}, EvaluationPhase::kEvent);
  CHECK(without_notes.crossings.value(2));
}
