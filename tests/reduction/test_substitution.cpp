// Substitute equations and crossings in a PhysicsModel's residual template
// (hdae/substitution.hpp, hdae/equations.hpp): values, results, and the errors for misuse.
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/physics_model.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// How the template below (mis)uses its substitutions.
enum class Use { kInOrder, kOutOfOrder, kCircular, kTwice, kForgotten, kNoGuard, kDerEarly };

/// der(x) = -b with a <- x + 1, b <- 2 a: x + 1 = (x0 + 1) e^(-2t). The crossing x > 0.5 picks
/// between the two alternatives of b; both are 2 a, so the solution does not depend on it.
/// y = der(y) with der(y) <- a makes y = a an algebraic unknown.
class Chain final : public PhysicsModelOf<Chain> {
 public:
  explicit Chain(Use use) : PhysicsModelOf("chain"), use_(use) {
    x_ = declare_variable({.name = "x", .start = 1.0});
    y_ = declare_variable({.name = "y"});
    a_ = declare_substitution({.name = "a"});
    b_ = declare_substitution({.name = "b"});
    declare_derivative_substitution(y_);
    decay_ = declare_equation("der(x) = -b");
    copy_ = declare_equation("y = der(y)", RowKind::kConstraint);
    high_ = declare_crossing("x > 0.5");
  }

  template <class S>
  void residuals(Equations<S>& e) const {
    const bool high = e.positive(high_, e.x(x_) - 0.5);
    if (use_ == Use::kDerEarly) static_cast<void>(e.der(y_));
    if (use_ == Use::kOutOfOrder) e.substitute(b_, 2.0 * e.x(a_));
    if (use_ == Use::kCircular) e.substitute(a_, e.x(a_) + 1.0);
    e.substitute(a_, e.x(x_) + 1.0);
    if (use_ == Use::kTwice) e.substitute(a_, e.x(x_) + 1.0);
    const S b = 2.0 * e.x(a_);
    const bool guarded = use_ != Use::kNoGuard;
    if (use_ != Use::kForgotten) e.substitute(b_, {{high && guarded, b}, {!high && guarded, b}});
    e.substitute_der(y_, e.x(a_));  // der(y) <- a: the row y = der(y) holds no derivative
    e.set(decay_, e.der(x_) + (use_ == Use::kForgotten ? b : e.x(b_)));
    e.set(copy_, e.x(y_) - e.der(y_));
    last_high_ = high;
  }

  Var x_, y_;
  Subst a_, b_;
  Eq decay_, copy_;
  Crossing high_;
  mutable bool last_high_ = false;  ///< the Boolean the last template evaluation saw

 private:
  Use use_;
};

std::string error_of(Use use) {
  Chain model(use);
  std::vector<double> x{1.0, 0.0}, der_x{0.0, 0.0}, r(2);
  Evaluation e(0.0, x, der_x, r, {}, nullptr, EvaluationPhase::kContinuous);
  try {
    model.evaluate(e);
  } catch (const ModelError& error) {
    return error.what();
  }
  return "no error";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("substituted variables leave the unknowns and stay in the results") {
  Chain model(Use::kInOrder);
  CHECK(model.structure().num_unknowns() == 2);
  SimulationOptions o;
  o.stop_s = 1.0;
  o.rel_tol = 1e-9;
  const SimulationResult r = simulate(model, o);
  REQUIRE(r.status.ok());
  // x + 1 = 2 e^(-2t), a = x + 1, b = 2a (closed form of der(x) = -2 (x + 1)).
  const double a = 2.0 * std::exp(-2.0);
  CHECK(r.table.final_value("x") == doctest::Approx(a - 1.0).epsilon(1e-7));
  CHECK(r.table.final_value("a") == doctest::Approx(a).epsilon(1e-7));
  CHECK(r.table.final_value("b") == doctest::Approx(2.0 * a).epsilon(1e-7));
  // der(y) <- a: the row y = der(y) is the constraint y = a.
  CHECK(r.table.final_value("y") == doctest::Approx(a).epsilon(1e-7));
}

TEST_CASE("misused substitutions are errors naming the substituted variable") {
  CHECK(error_of(Use::kInOrder) == "no error");
  CHECK(contains(error_of(Use::kOutOfOrder),
                 "model 'chain': substituted variable 'a' is read before its substitute "
                 "equation 'a <- ...' sets it"));
  CHECK(contains(error_of(Use::kCircular), "out of order or circular"));
  CHECK(contains(error_of(Use::kTwice), "substituted variable 'a' is set twice"));
  CHECK(contains(error_of(Use::kForgotten), "'b' is declared but its substitute equation was"));
  CHECK(contains(error_of(Use::kNoGuard), "no guard of the substitute equation of 'b' holds"));
  CHECK(contains(error_of(Use::kDerEarly), "substituted variable 'der(y)' is read before"));
}

namespace {
class Twice final : public PhysicsModelOf<Twice> {
 public:
  explicit Twice(bool derivative) : PhysicsModelOf("twice") {
    const Var x = declare_variable({.name = "x"});
    if (derivative) {
      declare_derivative_substitution(x);
      declare_derivative_substitution(x);
    } else {
      declare_substitution({.name = "x"});
    }
  }
  template <class S>
  void residuals(Equations<S>& /*e*/) const {}
};
}  // namespace

TEST_CASE("a variable substituted twice is an error at declaration") {
  CHECK_THROWS_WITH_AS(Twice(false),
                       "model 'twice': 'x' is declared twice (as a variable or a substituted "
                       "variable); a variable is either an unknown or substituted, once",
                       ModelError);
  CHECK_THROWS_WITH_AS(
      Twice(true),
      "model 'twice': der(x) is substituted twice; declare one der(v) <- expression per variable",
      ModelError);
}

TEST_CASE("jets see the crossing Boolean of the last evaluation, not the sign at their point") {
  Chain model(Use::kInOrder);
  std::vector<double> x{1.0, 0.0}, der_x{0.0, 0.0}, r(2);
  Evaluation e(0.0, x, der_x, r, {}, nullptr, EvaluationPhase::kContinuous);
  model.evaluate(e);  // x = 1: x > 0.5 holds and is recorded
  CHECK(model.last_high_);
  // A jet at x = 0.2 (below 0.5) still belongs to the recorded mode.
  std::vector<Jet1> xj{Jet1(0.2), Jet1(0.0)}, dj{Jet1(0.0), Jet1(0.0)}, rj(2);
  Equations<Jet1> eqs(Jet1(0.0), xj, dj, rj, model.context());
  model.residuals_of(eqs);
  CHECK(model.last_high_);
  CHECK(eqs.substituted()[1].value() == doctest::Approx(2.4));  // b = 2 (x + 1)
  // Without a recorded Boolean (no context), the value's sign decides.
  Chain fresh(Use::kInOrder);
  Equations<Jet1> bare(Jet1(0.0), xj, dj, rj, fresh.context());
  fresh.residuals_of(bare);
  CHECK_FALSE(fresh.last_high_);
}
