// Models written the way the physics reads (docs/design.md, "Index reduction").
//
// A PhysicsModel states its equations as they are: positions constrained, forces as unknowns,
// F(t, x, der_x) = 0 of any differential index. Its equations are written once, as a template
// over the scalar type, so that the engine can evaluate them with doubles (residuals) and with
// Taylor jets (the exact time derivatives d^q/dt^q F_i that index reduction needs):
//
//   class Pendulum final : public hdae::PhysicsModelOf<Pendulum> {
//    public:
//     Pendulum() : PhysicsModelOf("pendulum") { ... declare variables and equations ... }
//     template <class S>
//     void residuals(hdae::Equations<S>& e) const {
//       e.set(rod_, e.x(x_) * e.x(x_) + e.x(y_) * e.x(y_) - L * L);   // 0 = x^2 + y^2 - L^2
//       ...
//     }
//   };
//
// A jet of depth q carries a quantity and its first q derivatives along a curve through
// (t, x, der_x): jets of the unknowns in, jets of the residuals out, and the q-th derivative of
// the output is d^q F_i / dt^q along the curve, exact to round-off (forward-mode automatic
// differentiation, hdae/jet.hpp). The residual templates may use the arithmetic operators and
// the functions hdae/jet.hpp lists (sqrt, exp, log, sin, cos, tan, asin, acos, atan, atan2,
// pow, abs, sinh, cosh, tanh), called unqualified after `using std::sin;` etc., and may branch
// on values (the branch taken at the point is the one differentiated).
//
// A PhysicsModel is a SimulationModel: when its index is at most 1 it runs as it is. When it
// is higher, hdae/index_reduction.hpp turns it into an index-1 model by dummy derivatives.
#pragma once

#include <span>
#include <utility>

#include "hdae/jet.hpp"
#include "hdae/model_builder.hpp"

namespace hdae {

using Jet1 = Jet<1>;
using Jet2 = Jet<2>;
using Jet3 = Jet<3>;

/// Arguments and results of one evaluation of the residual template, for scalar type S.
template <class S>
class Equations {
 public:
  // t is kept by value: callers pass temporaries (Evaluation::t() returns a copy).
  Equations(S t, std::span<const S> x, std::span<const S> der_x, std::span<S> r)
      : t_(std::move(t)), x_(x), der_x_(der_x), r_(r) {}

  [[nodiscard]] const S& t() const { return t_; }
  [[nodiscard]] const S& x(Var v) const {
    return x_[detail::checked("variable", v.index, x_.size())];
  }
  [[nodiscard]] const S& der(Var v) const {
    return der_x_[detail::checked("variable", v.index, der_x_.size())];
  }
  /// Sets the residual of equation e.
  void set(Eq e, const S& residual) {
    r_[detail::checked("equation", e.index, r_.size())] = residual;
  }

 private:
  S t_;
  std::span<const S> x_;
  std::span<const S> der_x_;
  std::span<S> r_;
};

/// A model whose residuals can be evaluated with doubles and with jets. Derive from
/// PhysicsModelOf<Derived>, which forwards every scalar type to Derived::residuals<S>.
/// Declarations (variables, equations, parameters, outputs) work as in hdae::Model; crossings
/// and time events are not yet supported by the index reduction.
class PhysicsModel : public Model {
 public:
  using Model::Model;

  virtual void residuals_of(Equations<double>& e) const = 0;
  virtual void residuals_of(Equations<Jet1>& e) const = 0;
  virtual void residuals_of(Equations<Jet2>& e) const = 0;
  virtual void residuals_of(Equations<Jet3>& e) const = 0;

  /// Outputs for results (called only when outputs are wanted), from x and der_x.
  virtual void outputs(Evaluation& /*e*/) const {}

  /// Residuals through the double template, then outputs when wanted.
  void evaluate(Evaluation& e) final;
};

template <class Derived>
class PhysicsModelOf : public PhysicsModel {
 public:
  using PhysicsModel::PhysicsModel;

  void residuals_of(Equations<double>& e) const final { self().residuals(e); }
  void residuals_of(Equations<Jet1>& e) const final { self().residuals(e); }
  void residuals_of(Equations<Jet2>& e) const final { self().residuals(e); }
  void residuals_of(Equations<Jet3>& e) const final { self().residuals(e); }

 private:
  [[nodiscard]] const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace hdae
