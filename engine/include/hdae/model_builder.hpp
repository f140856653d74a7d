// The thin modelling layer (docs/design.md, "The problem class"): a model derives from hdae::Model
// and, in its constructor, declares named variables, equations, outputs, crossings and time events.
// Each declaration returns a typed handle (Var, Eq, ...) that the model keeps as a member
// and uses in evaluate() and on_event(), so no model juggles raw indices.
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
#pragma once

#include <string>

#include "hdae/model.hpp"

namespace hdae {

class Model : public SimulationModel {
 public:
  explicit Model(std::string name) { structure_.name = std::move(name); }

  [[nodiscard]] const ModelStructure& structure() const final { return structure_; }

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

  /// Mutable access for models that set start values from parameters after declaration.
  VariableInfo& variable(Var v) { return structure_.variables[v.index]; }

 private:
  ModelStructure structure_;
};

}  // namespace hdae
