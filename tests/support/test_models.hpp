// Small models with analytic solutions, shared by the tests (reusable test models live
// beside the tests, as in Drake).
#pragma once

#include <cmath>

#include "hdae/model_builder.hpp"

namespace hdae::test {

/// PT1 element x' = -x/T: x(t) = x0 exp(-t/T).
class FirstOrderLag final : public Model {
 public:
  FirstOrderLag(double time_constant_s, double x0) : Model("first_order_lag"), T_(time_constant_s) {
    x_ = declare_variable({.name = "x", .start = x0});
    eq_ = declare_equation("T*der(x) = -x");
  }
  void evaluate(Evaluation& e) override { e.set(eq_, T_ * e.der(x_) + e.x(x_)); }

 private:
  double T_;
  Var x_;
  Eq eq_;
};

/// Index-1 linear DAE with one f_c row and explicit time dependence:
///   x1' = -x1,  0 = x2 - sin(t) x1;  exact x1 = exp(-t), x2 = sin(t) exp(-t).
class LinearDae final : public Model {
 public:
  LinearDae() : Model("linear_dae") {
    x1_ = declare_variable({.name = "x1", .start = 1.0});
    x2_ = declare_variable({.name = "x2", .start = 0.0});
    ode_ = declare_equation("der(x1) = -x1");
    alg_ = declare_equation("0 = x2 - sin(t)*x1", RowKind::kConstraint);
    declare_dependency(ode_, x1_);
    declare_dependency(alg_, x1_);
    declare_dependency(alg_, x2_);
  }
  void evaluate(Evaluation& e) override {
    e.set(ode_, e.der(x1_) + e.x(x1_));
    e.set(alg_, e.x(x2_) - std::sin(e.t()) * e.x(x1_));
  }

 private:
  Var x1_, x2_;
  Eq ode_, alg_;
};

}  // namespace hdae::test
