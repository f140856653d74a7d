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
// The template may use crossings (e.positive(c, value), for modes that switch at state events)
// and substitute equations (e.substitute(s, expr), chi's `s <- expr`; hdae/substitution.hpp);
// hdae/equations.hpp says which crossing Boolean a jet sees. Time events and on_event work as
// in any hdae::Model; a mode change that moves der() between rows calls event.rows_changed().
//
// A PhysicsModel is a SimulationModel: when its index is at most 1 it runs as it is (with its
// events). When it is higher, hdae/index_reduction.hpp turns it into an index-1 model by dummy
// derivatives, with its events as long as they keep the structure.
#pragma once

#include <span>
#include <vector>

#include "hdae/equations.hpp"
#include "hdae/jet.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/substitution.hpp"

namespace hdae {

using Jet1 = Jet<1>;
using Jet2 = Jet<2>;
using Jet3 = Jet<3>;
using DirectedJet1 = DirectedJet<1>;
using DirectedJet2 = DirectedJet<2>;
using DirectedJet3 = DirectedJet<3>;

/// A model whose residuals can be evaluated with doubles and with jets. Derive from
/// PhysicsModelOf<Derived>, which forwards every scalar type to Derived::residuals<S>.
/// Declarations (variables, equations, parameters, outputs, crossings, time events) work as in
/// hdae::Model; substitutions are declared here.
class PhysicsModel : public Model {
 public:
  using Model::Model;

  virtual void residuals_of(Equations<double>& e) const = 0;
  virtual void residuals_of(Equations<Jet1>& e) const = 0;
  virtual void residuals_of(Equations<Jet2>& e) const = 0;
  virtual void residuals_of(Equations<Jet3>& e) const = 0;
  /// With a direction in the unknowns: what the index reduction's exact Jacobians evaluate
  /// (only when propagates_jets()).
  virtual void residuals_of(Equations<DirectedJet1>& e) const = 0;
  virtual void residuals_of(Equations<DirectedJet2>& e) const = 0;
  virtual void residuals_of(Equations<DirectedJet3>& e) const = 0;

  /// Outputs for results (called only when outputs are wanted), from x and der_x.
  virtual void outputs(Evaluation& /*e*/) const {}

  /// True when the template carries jets through its operations, so that directed jets give
  /// derivatives in directions of the unknowns (the index reduction's exact Jacobians,
  /// hdae/jet.hpp). False for a model that reads its input jets as
  /// Taylor curves in time (DifferenceQuotientModel); its Jacobians are difference quotients.
  [[nodiscard]] virtual bool propagates_jets() const { return true; }

  /// Residuals and crossings through the double template (recording the crossing Booleans),
  /// then, when outputs are wanted, the substituted values and outputs().
  void evaluate(Evaluation& e) final;

  /// The crossings at (t, x, der_x) of this model through the helpers of `outer`, the
  /// evaluation of a model that wraps this one and declares this model's crossings first, at
  /// the same indices (the index reduction); the Booleans are recorded as evaluate() does.
  void evaluate_crossings(Evaluation& outer, std::span<const double> x,
                          std::span<const double> der_x);

  /// The context of a template evaluation outside the simulation's: the substitutions and
  /// the crossing Booleans the last evaluate() recorded.
  [[nodiscard]] EquationsContext context() const;
  /// The substituted values and outputs() at e's point (as evaluate() with outputs wanted,
  /// but crossings as context() has them): for a model that wraps this one.
  void write_outputs(Evaluation& e) const;
  /// The value of substituted variable s at the event's point, with the event's Booleans:
  /// substituted variables in on_event.
  [[nodiscard]] double value(const EventContext& event, Subst s) const;
  [[nodiscard]] const SubstitutionTable& substitutions() const { return substitutions_; }

 protected:
  using Model::value;  // value(Param), next to value(event, s) above

  /// Declares substituted variable `info.name <- expression` (the template sets the
  /// expression) and its output column. ModelError when the name is empty or already a
  /// variable's or a substitution's.
  Subst declare_substitution(SubstitutionInfo info);
  /// Declares der(v) <- expression: the template must set it (substitute_der) before reading
  /// der(v), which then reads the expression. ModelError for a second declaration for v.
  void declare_derivative_substitution(Var v);

 private:
  SubstitutionTable substitutions_;
  std::vector<char> booleans_;  ///< crossing Booleans of the last evaluate()
};

template <class Derived>
class PhysicsModelOf : public PhysicsModel {
 public:
  using PhysicsModel::PhysicsModel;

  void residuals_of(Equations<double>& e) const final { run(e); }
  void residuals_of(Equations<Jet1>& e) const final { run(e); }
  void residuals_of(Equations<Jet2>& e) const final { run(e); }
  void residuals_of(Equations<Jet3>& e) const final { run(e); }
  void residuals_of(Equations<DirectedJet1>& e) const final { run(e); }
  void residuals_of(Equations<DirectedJet2>& e) const final { run(e); }
  void residuals_of(Equations<DirectedJet3>& e) const final { run(e); }

 private:
  template <class S>
  void run(Equations<S>& e) const {
    static_cast<const Derived&>(*this).residuals(e);
    e.check_complete();
  }
};

}  // namespace hdae
