// The thin modelling layer (docs/design.md, "The problem class"): a model derives from hdae::Model
// and, in its constructor, declares named variables, equations, outputs, crossings and time events.
// Each declaration returns a typed handle (Var, Eq, ...) that the model keeps as a member
// and uses in evaluate() and on_event(), so no model juggles raw indices.
//
// Parameters are declared the same way (declare_parameter returns a Param) and read with
// value(p). set_parameter(name, v) checks v against the declared range, stores it and calls
// parameters_changed(), where the model recomputes derived quantities and the start values
// that follow from parameters, and checks rules that tie parameters together (throwing
// ModelError naming them). When parameters_changed() throws, the old value is restored (and
// parameters_changed() called again), so a rejected value leaves the model as it was.
//
//   class Decay : public hdae::Model {
//    public:
//     Decay() : Model("decay") {
//       x_ = declare_variable({.name = "x", .unit = "m", .start = 1.5});
//       eq_ = declare_equation("der(x) = -x/T");
//     }
//     void evaluate(hdae::Evaluation& e) override { e.set(eq_, e.der(x_) + e.x(x_) / 2.0); }
//    private:
//     hdae::Var x_;
//     hdae::Eq eq_;
//   };
//
// With a parameter T (declared before the variables' use of it):
//       T_ = declare_parameter({.name = "T", .unit = "s", .value = 2.0, .min = 1e-9});
//       ... e.set(eq_, e.der(x_) + e.x(x_) / value(T_));
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "hdae/model.hpp"

namespace hdae {

class Model : public SimulationModel {
 public:
  explicit Model(std::string name) { structure_.name = std::move(name); }

  [[nodiscard]] const ModelStructure& structure() const final { return structure_; }

  /// Checks value against the parameter's range, stores it and calls parameters_changed()
  /// (see above). ModelError naming the parameter: unknown name (listing the known ones), a
  /// value that is not finite or outside [min, max], a rule of parameters_changed(), or a
  /// Simulator over the model that exists (in_simulation()).
  void set_parameter(std::string_view name, double value) override;

 protected:
  Var declare_variable(VariableInfo info);
  Eq declare_equation(std::string name, RowKind kind = RowKind::kDifferential);
  Out declare_output(std::string name, std::string unit = {});
  Crossing declare_crossing(std::string name,
                            CrossingDirection direction = CrossingDirection::kBoth,
                            double nominal = 1.0);
  TimeEvent declare_time_event(std::string name);
  /// Declares that equation e depends on variable v (through x or der_x). Declaring any
  /// entry makes the pattern authoritative: undeclared entries are taken as zero.
  void declare_dependency(Eq e, Var v);
  /// Declares a parameter; ModelError when its name is empty or taken, its value not finite,
  /// or its bounds NaN, crossed or not around the value.
  Param declare_parameter(ParameterInfo info);
  /// The parameter's current value (an indexed read: cheap enough for evaluate()).
  [[nodiscard]] double value(Param p) const { return structure_.parameters[p.index].value; }
  /// Called after set_parameter stored a new value: recompute derived data and start values,
  /// check rules between parameters (throw ModelError naming them).
  virtual void parameters_changed() {}

  /// Mutable access for models that set start values from parameters after declaration.
  VariableInfo& variable(Var v) { return structure_.variables[v.index]; }
  /// Mutable access for models whose crossing nominals follow parameters.
  CrossingInfo& crossing(Crossing c) { return structure_.crossings[c.index]; }
  /// Removes every declaration except the parameters, for a model whose size is a parameter
  /// and that declares itself anew in parameters_changed(); all handles but Param ones become
  /// invalid. The tables' memory is released, so a model made smaller does not keep it.
  void clear_declarations();
  /// Makes room for this many variables, equations and declare_dependency entries in all. A
  /// large model that knows its size (a chain of 10^6 masses) then declares without regrowing
  /// its tables: a regrowth moves every entry and, while it does, holds the old table and the
  /// new one (twice the memory) at once.
  void reserve_declarations(std::size_t variables, std::size_t equations, std::size_t dependencies);

 private:
  ModelStructure structure_;
};

}  // namespace hdae
