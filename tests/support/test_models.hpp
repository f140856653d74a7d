// Small models with analytic solutions, shared by the tests (reusable test models live
// beside the tests, as in Drake).
#pragma once

#include <algorithm>
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

/// PT1 element with a pulsed input, T x' = -x + u: time events at k period_s (k = 1, 2, ...)
/// switch u between 0 and input, so der_x jumps by input/T at each; with input = 0 they
/// change nothing. Between events x = u + (x_k - u) exp(-(t - t_k)/T), which exact() follows
/// from event to event.
class PulsedLag final : public Model {
 public:
  explicit PulsedLag(double input = 0.0, double period_s = 0.25, double time_constant_s = 0.5,
                     double x0 = 1.0)
      : Model("pulsed_lag"), input_(input), period_s_(period_s), T_(time_constant_s), x0_(x0) {
    x_ = declare_variable({.name = "x", .start = x0});
    eq_ = declare_equation("T*der(x) = -x + u");
    pulse_ = declare_time_event("switch u");
  }
  void evaluate(Evaluation& e) override {
    e.set(eq_, T_ * e.der(x_) + e.x(x_) - (on_ ? input_ : 0.0));
  }
  void on_event(EventContext& event) override {
    if (event.is_initial() && event.pass() == 1) event.schedule(pulse_, period_s_);
    if (event.fired(pulse_)) {
      on_ = !on_;
      ++pulses_;
      event.schedule(pulse_, static_cast<double>(pulses_ + 1) * period_s_);
    }
  }
  void reset() override {
    on_ = false;
    pulses_ = 0;
  }
  /// x(t) of the exact solution; continuous at the events.
  [[nodiscard]] double exact(double t) const {
    double x = x0_;
    for (int k = 0;; ++k) {
      const double t_k = static_cast<double>(k) * period_s_;
      const double u = k % 2 == 1 ? input_ : 0.0;
      const double t_end = std::min(t, static_cast<double>(k + 1) * period_s_);
      x = u + (x - u) * std::exp(-(t_end - t_k) / T_);
      if (t_end == t) return x;
    }
  }

 private:
  double input_, period_s_, T_, x0_;
  bool on_ = false;
  int pulses_ = 0;
  Var x_;
  Eq eq_;
  TimeEvent pulse_;
};

}  // namespace hdae::test
