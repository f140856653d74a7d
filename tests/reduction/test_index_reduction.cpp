// Index reduction on small models whose answers are known by hand (hdae/index_reduction.hpp;
// docs/design.md, "Index reduction").
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "hdae/difference_quotients.hpp"
#include "hdae/errors.hpp"
#include "hdae/index_reduction.hpp"
#include "hdae/models/cartesian_pendulum.hpp"
#include "hdae/models/link_chain.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// ITI paper, example 1: x1 = t, x2 = der(x1). Index 2; the hidden constraint der(x1) = 1
/// (the first row differentiated) fixes x2 = 1 whatever start value x2 is given.
class ItiExample1 final : public PhysicsModelOf<ItiExample1> {
 public:
  explicit ItiExample1(double x2_start) : PhysicsModelOf("iti_example_1") {
    x1_ = declare_variable({.name = "x1"});
    x2_ = declare_variable({.name = "x2", .start = x2_start});
    prescribed_ = declare_equation("x1 = t");
    derivative_ = declare_equation("x2 = der(x1)");
  }
  template <class S>
  void residuals(Equations<S>& e) const {
    e.set(prescribed_, e.x(x1_) - e.t());
    e.set(derivative_, e.x(x2_) - e.der(x1_));
  }

 private:
  Var x1_, x2_;
  Eq prescribed_, derivative_;
};

/// x1 = A sin(t + phase), x_{k+1} = der(x_k) for k = 1..n-1: the first row is differentiated
/// n - 1 times.
class DerivativeChain final : public PhysicsModelOf<DerivativeChain> {
 public:
  explicit DerivativeChain(std::size_t n, double amplitude = 1.0, double phase = 0.0)
      : PhysicsModelOf("derivative_chain"), amplitude_(amplitude), phase_(phase) {
    for (std::size_t k = 0; k < n; ++k) {
      x_.push_back(declare_variable({.name = "x" + std::to_string(k + 1)}));
      rows_.push_back(declare_equation(k == 0 ? "x1 = sin(t)"
                                              : "x" + std::to_string(k + 1) + " = der(x" +
                                                    std::to_string(k) + ")"));
    }
  }
  template <class S>
  void residuals(Equations<S>& e) const {
    using std::sin;
    e.set(rows_[0], e.x(x_[0]) - amplitude_ * sin(e.t() + phase_));
    for (std::size_t k = 1; k < x_.size(); ++k) e.set(rows_[k], e.x(x_[k]) - e.der(x_[k - 1]));
  }
  /// Gives start values (and der_start for the first n - 1 unknowns) for the slots.
  void start_at(std::span<const double> starts, std::span<const double> der_starts) {
    for (std::size_t k = 0; k < x_.size(); ++k) {
      set_start(x_[k], starts[k]);
      if (k < der_starts.size()) set_der_start(x_[k], der_starts[k]);
    }
  }

 private:
  double amplitude_, phase_;
  std::vector<Var> x_;
  std::vector<Eq> rows_;
};

/// Two equations that both determine x and none y: structurally singular.
class NoEquationForY final : public PhysicsModelOf<NoEquationForY> {
 public:
  NoEquationForY() : PhysicsModelOf("no_equation_for_y") {
    x_ = declare_variable({.name = "x"});
    y_ = declare_variable({.name = "y"});
    first_ = declare_equation("x = t");
    second_ = declare_equation("der(x) = 1");
  }
  template <class S>
  void residuals(Equations<S>& e) const {
    e.set(first_, e.x(x_) - e.t());
    e.set(second_, e.der(x_) - 1.0);
  }

 private:
  Var x_, y_;
  Eq first_, second_;
};

/// a x = t with a parameter a: for a = 0 no equation determines x (structurally singular).
class ScaledUnknown final : public PhysicsModelOf<ScaledUnknown> {
 public:
  ScaledUnknown() : PhysicsModelOf("scaled_unknown") {
    a_ = declare_parameter({.name = "a", .value = 2.0});
    x_ = declare_variable({.name = "x"});
    row_ = declare_equation("a*x = t");
  }
  template <class S>
  void residuals(Equations<S>& e) const {
    e.set(row_, value(a_) * e.x(x_) - e.t());
  }

 private:
  Param a_;
  Var x_;
  Eq row_;
};

/// A tank whose level h obeys an outflow law sqrt(h) = 0.1 and whose outflow q drains it:
/// der(h) = -q. Index 2: the law differentiated, der(h) / (2 sqrt(h)) = 0, gives q = 0, and
/// the level is h = 0.01. From h = 1 the first Newton step on sqrt(h) - 0.1 lands at
/// 1 - 1.8 = -0.8, where sqrt is not real; `outside` counts evaluations at h < 0.
class OutflowLaw final : public PhysicsModelOf<OutflowLaw> {
 public:
  OutflowLaw(std::optional<double> h_min, std::shared_ptr<int> outside)
      : PhysicsModelOf("outflow_law"), outside_(std::move(outside)) {
    h_ = declare_variable({.name = "h", .start = 1.0, .min = h_min});
    q_ = declare_variable({.name = "q"});
    balance_ = declare_equation("der(h) = -q");
    law_ = declare_equation("sqrt(h) = 0.1");
  }
  template <class S>
  void residuals(Equations<S>& e) const {
    using std::sqrt;
    if (e.x(h_) < 0.0) ++*outside_;
    e.set(balance_, e.der(h_) + e.x(q_));
    e.set(law_, sqrt(e.x(h_)) - 0.1);
  }

 private:
  std::shared_ptr<int> outside_;
  Var h_, q_;
  Eq balance_, law_;
};

}  // namespace

TEST_CASE("a parameter value the reduction refuses leaves the reduced model as it was") {
  IndexReducedModel m(std::make_unique<ScaledUnknown>());
  CHECK_THROWS_WITH_AS(m.set_parameter("a", 0.0), doctest::Contains("cannot be reduced"),
                       ModelError);
  CHECK(m.parameter("a") == 2.0);
  SimulationOptions o;
  o.stop_s = 1.0;
  const SimulationResult r = simulate(m, o);
  REQUIRE(r.status.ok());
  // x = t / a with a = 2, exactly linear.
  CHECK(r.table.final_value("x") == doctest::Approx(0.5).epsilon(1e-12));
}

TEST_CASE("ITI example 1: the hidden constraint fixes x2 = 1 whatever its start value") {
  IndexReducedModel m(std::make_unique<ItiExample1>(5.0));
  // By hand: c = (1, 0), d = (1, 0): index 2, no degrees of freedom, no states.
  CHECK(m.analysis().index == 2);
  CHECK(m.states().empty());
  // x2 is algebraic (d = 0): its start value is only a guess, replaced without a note.
  CHECK(m.structure().variables.start(m.slot(Var{1}, 0).index) == doctest::Approx(1.0));
  CHECK_FALSE(contains(m.describe(), "start value of x2"));
  SimulationOptions o;
  o.stop_s = 2.0;
  o.output_interval_s = 0.25;
  const SimulationResult r = simulate(m, o);
  REQUIRE(r.status.ok());
  const auto t = r.table.time();
  const auto x1 = r.table.column("x1");
  const auto x2 = r.table.column("x2");
  REQUIRE(t.size() == 9);
  for (std::size_t k = 0; k < t.size(); ++k) {
    CHECK(x1[k] == doctest::Approx(t[k]).epsilon(1e-12));
    CHECK(x2[k] == doctest::Approx(1.0).epsilon(1e-12));
  }
}

TEST_CASE("a variable's bound holds in the reduced model's consistent start") {
  // VariableInfo::min of h becomes the bound of the reduced model's slot h (ITI paper
  // section 6): the start solve never evaluates the model at h < 0 and reaches h = 0.01.
  auto outside = std::make_shared<int>(0);
  IndexReducedModel unbounded(std::make_unique<OutflowLaw>(std::nullopt, outside));
  CHECK(unbounded.analysis().index == 2);
  SimulationOptions o;
  o.stop_s = 1.0;
  const SimulationResult free = simulate(unbounded, o);
  // Without the bound the Newton iteration recovers from the NaN, but the model saw h < 0.
  REQUIRE(free.status.ok());
  CHECK(*outside > 0);

  *outside = 0;
  IndexReducedModel bounded(std::make_unique<OutflowLaw>(0.0, outside));
  CHECK(bounded.structure().variables.info(bounded.slot(Var{0}, 0).index).min == 0.0);
  const SimulationResult r = simulate(bounded, o);
  REQUIRE(r.status.ok());
  CHECK(*outside == 0);
  // sqrt(h) = 0.1 to the jump solve's Newton tolerance (1e-9 relative to the nominal 1): h
  // within 2 sqrt(h) 1e-9 = 2e-10 of 0.01, and IDA keeps it there (q = 0, der(h) = 0).
  CHECK(r.table.final_value("h") == doctest::Approx(0.01).epsilon(1e-7));
  CHECK(std::abs(r.table.final_value("q")) < 1e-9);
}

TEST_CASE("derivatives of equations are exact up to the third: x4 = d3/dt3 sin(t) = -cos(t)") {
  // x1 = sin t, x2 = cos t, x3 = -sin t, x4 = -cos t: the first row differentiated three
  // times, by jets of depth 3, not by difference quotients.
  IndexReducedModel m(std::make_unique<DerivativeChain>(4));
  CHECK(m.analysis().index == 4);
  SimulationOptions o;
  o.stop_s = 3.0;
  o.output_interval_s = 0.5;
  // Rows at IDA's steps, with a tight Newton test: the slots then hold the rows' solution to
  // about 1e-12, while third difference quotients in double would be off by about 1e-5.
  o.step_to_outputs = true;
  o.nonlinear_convergence_coef = 0.01;
  o.rel_tol = 1e-10;
  const SimulationResult r = simulate(m, o);
  REQUIRE(r.status.ok());
  const auto t = r.table.time();
  const auto x3 = r.table.column("x3");
  const auto x4 = r.table.column("x4");
  for (std::size_t k = 0; k < t.size(); ++k) {
    CHECK(std::abs(x3[k] + std::sin(t[k])) < 1e-10);
    CHECK(std::abs(x4[k] + std::cos(t[k])) < 1e-10);
  }
}

TEST_CASE("index reduction refuses what it cannot do, naming equations") {
  SUBCASE("a row differentiated four times") {
    try {
      IndexReducedModel m(std::make_unique<DerivativeChain>(5));
      FAIL("expected a ModelError");
    } catch (const ModelError& e) {
      CHECK(contains(e.what(), "equation 'x1 = sin(t)' would have to be differentiated 4 times"));
    }
  }
  SUBCASE("structurally singular") {
    try {
      IndexReducedModel m(std::make_unique<NoEquationForY>());
      FAIL("expected a ModelError");
    } catch (const ModelError& e) {
      CHECK(contains(e.what(), "cannot be reduced"));
      CHECK(contains(e.what(), "y"));
      CHECK(contains(e.what(), "x = t"));
    }
  }
  SUBCASE("a switch ratio outside (0, 1)") {
    CHECK_THROWS_WITH_AS(
        IndexReducedModel(std::make_unique<ItiExample1>(0.0), {.switch_ratio = 1.5}),
        doctest::Contains("switch_ratio must lie in (0, 1)"), ModelError);
  }
  SUBCASE("a structure threshold outside (0, 1)") {
    CHECK_THROWS_WITH_AS(
        IndexReducedModel(std::make_unique<ItiExample1>(0.0), {.structure_threshold = 0.0}),
        "index reduction: ReductionOptions::structure_threshold must lie in (0, 1), got 0",
        ModelError);
  }
}

TEST_CASE("a new rod length moves the start onto the new circle") {
  // x_start = 0.5, y_start = 0 on a rod of 1 m: the nearest consistent point is (1, 0).
  auto m = models::make_cartesian_pendulum();
  m->set_parameter("L", 1.0);
  CHECK(contains(m->describe(), "start value of x moved from 0.5 to 1"));
  const auto& vars = m->structure().variables;
  CHECK(vars.start(m->slot(Var{0}, 0).index) == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(vars.start(m->slot(Var{1}, 0).index) == doctest::Approx(0.0).scale(1.0).epsilon(1e-12));
  // At rest on the horizontal the rod carries no force and the bob falls with g.
  CHECK(vars.start(m->slot(Var{4}, 0).index) == doctest::Approx(0.0).scale(10.0).epsilon(1e-9));
  CHECK(vars.start(m->slot(Var{1}, 2).index) == doctest::Approx(-9.81).epsilon(1e-9));
}

TEST_CASE("the consistent start works at any scale of the derivative slots") {
  // x1 = A sin(t + 1), x2 = x1', x3 = x2': at t = 0, x3 = -A sin(1) and the slot x1'' is that
  // large too, whatever the nominal values (1). Each slot is judged at its own size, so a
  // start is found from A = 1e-6 to 1e9.
  for (const double amplitude : {1e-6, 1.0, 1e3, 1e6, 1e9}) {
    CAPTURE(amplitude);
    IndexReducedModel m(std::make_unique<DerivativeChain>(3, amplitude, 1.0));
    const auto& vars = m.structure().variables;
    // The rows hold to round-off at the start: relative 1e-14 of A is a few dozen roundings.
    CHECK(vars.start(m.slot(Var{2}, 0).index) ==
          doctest::Approx(-amplitude * std::sin(1.0)).epsilon(1e-14));
    CHECK(vars.start(m.slot(Var{0}, 2).index) ==
          doctest::Approx(-amplitude * std::sin(1.0)).epsilon(1e-14));
    CHECK(vars.start(m.slot(Var{1}, 0).index) ==
          doctest::Approx(amplitude * std::cos(1.0)).epsilon(1e-14));
  }
}

TEST_CASE("a consistent start is kept as given") {
  // x1 = A sin(t) at t = 0: x1 = 0, x1' = x2 = A, x1'' = x2' = x3 = 0. Every slot given
  // consistently (x1'' and x2' have no start value of their own: 0, which is consistent): the
  // start solve takes no step, and every value stays bit for bit.
  const double a = 1e4;
  auto chain = std::make_unique<DerivativeChain>(3, a);
  const std::vector<double> starts{0.0, a, 0.0}, der_starts{a, 0.0};
  chain->start_at(starts, der_starts);
  IndexReducedModel m(std::move(chain));
  const auto& vars = m.structure().variables;
  CHECK(vars.start(m.slot(Var{0}, 0).index) == 0.0);
  CHECK(vars.start(m.slot(Var{0}, 1).index) == a);
  CHECK(vars.start(m.slot(Var{1}, 0).index) == a);
  CHECK(vars.start(m.slot(Var{2}, 0).index) == 0.0);
  CHECK_FALSE(contains(m.describe(), "moved"));
}

namespace {

/// x^2 + 1 = 0 beside der(y) = x: no real start exists.
class NoRealStart final : public PhysicsModelOf<NoRealStart> {
 public:
  NoRealStart() : PhysicsModelOf("no_real_start") {
    x_ = declare_variable({.name = "x", .start = 0.5});
    y_ = declare_variable({.name = "y"});
    circle_ = declare_equation("x^2 + 1 = 0");
    motion_ = declare_equation("der(y) = x");
  }
  template <class S>
  void residuals(Equations<S>& e) const {
    e.set(circle_, e.x(x_) * e.x(x_) + 1.0);
    e.set(motion_, e.der(y_) - e.x(x_));
  }

 private:
  Var x_, y_;
  Eq circle_, motion_;
};

}  // namespace

TEST_CASE("a start that cannot be made consistent is named with its numbers") {
  // Gauss-Newton on x^2 + 1 jumps around x = 0 for ever; the message names the equation, its
  // residual (at least 1, the minimum of x^2 + 1) against its round-off, the unknown that moved
  // most in the last step (x or y', which follows it) and by how much.
  try {
    IndexReducedModel m(std::make_unique<NoRealStart>());
    FAIL("expected a ModelError");
  } catch (const ModelError& e) {
    const std::string text = e.what();
    MESSAGE(text);
    CHECK(contains(text,
                   "model 'no_real_start': no consistent start values found near the given "
                   "ones: after "));
    CHECK(contains(text, " Gauss-Newton steps equation 'x^2 + 1 = 0' is off by "));
    CHECK(contains(text, "times its round-off of "));
    CHECK(contains(text, "and the last step moved "));
    CHECK_FALSE(contains(text, "0.000000"));
  }
}

namespace {

/// x = sqrt(t), v = der(x): the derivative the reduction takes of the first row,
/// 1 / (2 sqrt(t)), has no value at t = 0.
class SquareRootOfTime final : public PhysicsModelOf<SquareRootOfTime> {
 public:
  SquareRootOfTime() : PhysicsModelOf("square_root_of_time") {
    x_ = declare_variable({.name = "x"});
    v_ = declare_variable({.name = "v"});
    root_ = declare_equation("x = sqrt(t)");
    rate_ = declare_equation("v = der(x)");
  }
  template <class S>
  void residuals(Equations<S>& e) const {
    using std::sqrt;
    e.set(root_, e.x(x_) - sqrt(e.t()));
    e.set(rate_, e.x(v_) - e.der(x_));
  }

 private:
  Var x_, v_;
  Eq root_, rate_;
};

/// x = 1 until t = 0.5, then der(x) = 1, with no event at the switch; y integrates x.
class SilentSwitch final : public PhysicsModelOf<SilentSwitch> {
 public:
  SilentSwitch() : PhysicsModelOf("silent_switch") {
    x_ = declare_variable({.name = "x", .start = 1.0});
    y_ = declare_variable({.name = "y"});
    law_ = declare_equation("x = 1, from t = 0.5 der(x) = 1");
    integral_ = declare_equation("der(y) = x");
  }
  template <class S>
  void residuals(Equations<S>& e) const {
    e.set(law_, e.t() < 0.5 ? e.x(x_) - 1.0 : e.der(x_) - 1.0);
    e.set(integral_, e.der(y_) - e.x(x_));
  }

 private:
  Var x_, y_;
  Eq law_, integral_;
};

}  // namespace

TEST_CASE("a row without a value at the start is named as such, not as a distance") {
  try {
    IndexReducedModel m(std::make_unique<SquareRootOfTime>());
    FAIL("expected a ModelError");
  } catch (const ModelError& e) {
    const std::string text = e.what();
    CHECK(contains(text,
                   "model 'square_root_of_time': no consistent start values: equation "
                   "'d/dt (x = sqrt(t))' has no finite value at t = 0 (-inf)"));
    CHECK_FALSE(contains(text, "times its round-off"));
  }
}

TEST_CASE("a row that gains a derivative without an event is named at the failure") {
  // Reduced at t = 0, the first row holds x only (index 1, no state but y); from t = 0.5 it
  // holds der(x), which the reduced equations do not carry, and IDA cannot step past 0.5.
  IndexReducedModel m(std::make_unique<SilentSwitch>());
  SimulationOptions o;
  o.stop_s = 1.0;
  o.log_level = LogLevel::kOff;
  o.max_steps_per_interval = 2000;
  const SimulationResult result = simulate(m, o);
  CHECK(result.status.outcome == Outcome::kSolverFailure);
  CHECK(result.status.t == doctest::Approx(0.5));
  CHECK(contains(result.status.message,
                 "the equations changed their structure without an event: 'x = 1, from t = 0.5 "
                 "der(x) = 1' now holds der(x), not held when the equations were last analysed "
                 "(at the start or the last event); let a crossing or a time event mark the "
                 "instant"));
}

TEST_CASE(
    "a chain of 420 links evaluated with doubles only starts and runs on grouped differences") {
  // 2100 unknowns without exact Jacobians: the system Jacobian, the Newton matrix and the
  // consistent start's Jacobian come from difference quotients, columns that share no row moved
  // together; its 2940 slots start by sparse steps, whose convergence test sees the noise of
  // the equations' own difference quotients, and its stages of 420 rows are selected within
  // their blocks (hdae/index_reduction.hpp).
  const models::LinkChainParameters p{.links = 420};
  auto chain = std::make_unique<models::LinkChain>(p);
  const std::size_t declared = chain->structure().sparsity.size();
  IndexReducedModel m(std::make_unique<DifferenceQuotientModel>(std::move(chain)));
  // The chain's declared pattern carries over, so its structure is probed by colours.
  CHECK(m.original().structure().sparsity.size() == declared);
  CHECK(m.analysis().index == 3);
  CHECK(m.states().size() == 2 * p.links);  // N degrees of freedom: a position and a velocity
  // Released at rest from the horizontal, every rod force is 0 and every mass falls with g
  // (test_link_chain.cpp); here to the accuracy of the difference quotients of the equations'
  // derivatives, below 1e-9 relative (hdae/difference_quotients.hpp), multiplied by the
  // conditioning of the 200 rods' start equations: 1e-6 g leaves room for that product.
  const ModelStructure& original = m.original().structure();
  double worst_fall = 0.0;
  for (std::size_t j = 0; j < original.num_unknowns(); ++j) {
    if (original.variables.name(j).rfind("vy", 0) != 0) continue;
    const double fall = m.structure().variables.start(m.slot(Var{j}, 1).index);
    worst_fall = std::max(worst_fall, std::abs(fall + p.gravity_mps2));
  }
  CHECK(worst_fall <= 1e-6 * p.gravity_mps2);
  SimulationOptions o;
  o.stop_s = 0.02;
  const SimulationResult r = simulate(m, o);
  REQUIRE(r.status.ok());
  // The rods hold to the tolerance (the chain's own rod_drift output, |d^2 - L^2| / L^2): the
  // Newton iterations leave each position within rel_tol of its size, and the squared length
  // doubles that relative error of each end, hence a bound of a few rel_tol; 10 of them.
  double drift = 0.0;
  for (const double d : r.table.column("rod_drift")) drift = std::max(drift, std::abs(d));
  CHECK(drift <= 10 * o.rel_tol);
}
