// Models for the structure and index analysis (hdae/structure.hpp), each with a known index.
#pragma once

#include <cmath>
#include <numbers>

#include "hdae/model_builder.hpp"

namespace hdae::test {

/// The Cartesian pendulum in first-order form, mass m on a rod of length L (index 3):
///   der(x) = vx, der(y) = vy, m der(vx) = -lambda x, m der(vy) = -lambda y - m g,
///   0 = x^2 + y^2 - L^2.
class CartesianPendulum final : public Model {
 public:
  CartesianPendulum() : Model("cartesian_pendulum") {
    x_ = declare_variable({.name = "x", .start = 1.0});
    y_ = declare_variable({.name = "y"});
    vx_ = declare_variable({.name = "vx"});
    vy_ = declare_variable({.name = "vy"});
    lambda_ = declare_variable({.name = "lambda"});
    kx_ = declare_equation("der(x) = vx");
    ky_ = declare_equation("der(y) = vy");
    mx_ = declare_equation("m*der(vx) = -lambda*x");
    my_ = declare_equation("m*der(vy) = -lambda*y - m*g");
    rod_ = declare_equation("x^2 + y^2 = L^2", RowKind::kConstraint);
  }
  void evaluate(Evaluation& e) override {
    const double x = e.x(x_), y = e.x(y_), lambda = e.x(lambda_);
    e.set(kx_, e.der(x_) - e.x(vx_));
    e.set(ky_, e.der(y_) - e.x(vy_));
    e.set(mx_, m_ * e.der(vx_) + lambda * x);
    e.set(my_, m_ * e.der(vy_) + lambda * y + m_ * g_);
    e.set(rod_, x * x + y * y - L_ * L_);
  }

 private:
  double m_ = 2.0, g_ = 9.81, L_ = 1.0;
  Var x_, y_, vx_, vy_, lambda_;
  Eq kx_, ky_, mx_, my_, rod_;
};

/// Two equations in the single unknown x; y appears nowhere (structurally singular):
///   0 = x - 1,  0 = 2 x - sin(t).
class TwoEquationsOneVariable final : public Model {
 public:
  TwoEquationsOneVariable() : Model("two_equations_one_variable") {
    x_ = declare_variable({.name = "x"});
    y_ = declare_variable({.name = "y"});
    a_ = declare_equation("x = 1", RowKind::kConstraint);
    b_ = declare_equation("2*x = sin(t)", RowKind::kConstraint);
  }
  void evaluate(Evaluation& e) override {
    e.set(a_, e.x(x_) - 1.0);
    e.set(b_, 2.0 * e.x(x_) - std::sin(e.t()));
  }

 private:
  Var x_, y_;
  Eq a_, b_;
};

/// Structurally regular, numerically singular: 0 = x + y, 0 = 2 x + 2 y - sin(t). The
/// combination 2*(first) - (second) is sin(t), which holds for no unknown: the rows
/// contradict each other (except where sin(t) = 0).
class DependentRows final : public Model {
 public:
  DependentRows() : Model("dependent_rows") {
    x_ = declare_variable({.name = "x"});
    y_ = declare_variable({.name = "y"});
    a_ = declare_equation("x + y = 0", RowKind::kConstraint);
    b_ = declare_equation("2*x + 2*y = sin(t)", RowKind::kConstraint);
  }
  void evaluate(Evaluation& e) override {
    e.set(a_, e.x(x_) + e.x(y_));
    e.set(b_, 2.0 * e.x(x_) + 2.0 * e.x(y_) - std::sin(e.t()));
  }

 private:
  Var x_, y_;
  Eq a_, b_;
};

/// Singular J with rows of different offsets: der(x) + der(y) = -x, x + y = sin(t). Sigma
/// suggests differentiating the second row once (c = (0, 1), d = (1, 1)), but its derivative
/// der(x) + der(y) = cos(t) cancels the first row's derivatives: J = [1 1; 1 1]. The true
/// solution x = -cos(t), y = sin(t) + cos(t) leaves no freedom, unlike the one degree of
/// freedom the structure claims.
class DifferentOffsets final : public Model {
 public:
  DifferentOffsets() : Model("different_offsets") {
    x_ = declare_variable({.name = "x"});
    y_ = declare_variable({.name = "y"});
    a_ = declare_equation("der(x) + der(y) = -x");
    b_ = declare_equation("x + y = sin(t)", RowKind::kConstraint);
  }
  void evaluate(Evaluation& e) override {
    e.set(a_, e.der(x_) + e.der(y_) + e.x(x_));
    e.set(b_, e.x(x_) + e.x(y_) - std::sin(e.t()));
  }

 private:
  Var x_, y_;
  Eq a_, b_;
};

/// The transistor amplifier in its original form M der(y) = f(t, y) (Hairer & Wanner,
/// "Solving ODEs II", section VI.1; the IVP test set's "transamp"), index 1. M holds C_k =
/// k * 1e-6 F in the pairs of rows (1, 2), (4, 5), (7, 8) as [-C, C; C, -C], so those rows
/// are pairwise dependent in der(y), and -C2, -C4 on rows 3 and 6; row 8's partner row 7
/// and the lone f_8 = y8/R9 leave M with rank 5 of 8.
class TransistorAmplifier final : public Model {
 public:
  TransistorAmplifier();
  void evaluate(Evaluation& e) override;

 private:
  [[nodiscard]] static double g(double u) { return 1e-6 * (std::exp(u / 0.026) - 1.0); }
  Var y_[8];
  Eq row_[8];
};

inline TransistorAmplifier::TransistorAmplifier() : Model("transistor_amplifier") {
  // Start values of the test set: y2 = y3 = Ub R1/(R1 + R2), y4 = y7 = Ub, y5 = y6 likewise.
  const double ub = 6.0, y2 = ub / 2.0;
  const double start[8] = {0.0, y2, y2, ub, y2, y2, ub, 0.0};
  for (int k = 0; k < 8; ++k) {
    y_[k] = declare_variable({.name = "y" + std::to_string(k + 1), .start = start[k]});
    row_[k] = declare_equation("row " + std::to_string(k + 1) + " of M der(y) = f(t, y)");
  }
}

inline void TransistorAmplifier::evaluate(Evaluation& e) {
  const double ub = 6.0, r0 = 1000.0, r = 9000.0, alpha = 0.99;
  double y[8], dy[8];
  for (int k = 0; k < 8; ++k) y[k] = e.x(y_[k]), dy[k] = e.der(y_[k]);
  const auto c = [](int k) { return k * 1e-6; };
  const double ue = 0.1 * std::sin(200.0 * std::numbers::pi * e.t());
  const double g23 = g(y[1] - y[2]), g56 = g(y[4] - y[5]);
  const double f[8] = {-ue / r0 + y[0] / r0,
                       -ub / r + y[1] * (2.0 / r) - (alpha - 1.0) * g23,
                       -g23 + y[2] / r,
                       -ub / r + y[3] / r + alpha * g23,
                       -ub / r + y[4] * (2.0 / r) - (alpha - 1.0) * g56,
                       -g56 + y[5] / r,
                       -ub / r + y[6] / r + alpha * g56,
                       y[7] / r};
  const double m_dy[8] = {-c(1) * dy[0] + c(1) * dy[1], c(1) * dy[0] - c(1) * dy[1], -c(2) * dy[2],
                          -c(3) * dy[3] + c(3) * dy[4], c(3) * dy[3] - c(3) * dy[4], -c(4) * dy[5],
                          -c(5) * dy[6] + c(5) * dy[7], c(5) * dy[6] - c(5) * dy[7]};
  for (int k = 0; k < 8; ++k) e.set(row_[k], m_dy[k] - f[k]);
}

/// Example 1 of the ITI paper (Uhlig et al., section 1): x1 = t, x2 = der(x1). The first row
/// is an algebraic constraint, the second a hidden one (x2 = 1): index 2, no freedom.
class ItiExample1 final : public Model {
 public:
  ItiExample1() : Model("iti_example_1") {
    x1_ = declare_variable({.name = "x1"});
    x2_ = declare_variable({.name = "x2"});
    a_ = declare_equation("x1 = t", RowKind::kConstraint);
    b_ = declare_equation("x2 = der(x1)");
  }
  void evaluate(Evaluation& e) override {
    e.set(a_, e.x(x1_) - e.t());
    e.set(b_, e.x(x2_) - e.der(x1_));
  }

 private:
  Var x1_, x2_;
  Eq a_, b_;
};

/// Example 2 of the ITI paper: 1 = if t < 0.5 then x else der(x). The branch taken decides
/// the structure: index 1 before t = 0.5 (x algebraic), index 0 after (an ODE).
class ItiExample2 final : public Model {
 public:
  ItiExample2() : Model("iti_example_2") {
    x_ = declare_variable({.name = "x"});
    eq_ = declare_equation("1 = if t < 0.5 then x else der(x)");
  }
  void evaluate(Evaluation& e) override { e.set(eq_, 1.0 - (e.t() < 0.5 ? e.x(x_) : e.der(x_))); }

 private:
  Var x_;
  Eq eq_;
};

}  // namespace hdae::test
