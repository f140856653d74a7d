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
//
// A model of many like parts declares indexed families (declarations.hpp): one declaration
// stands for n unknowns, rows or pattern entries, and the handles it returns compute indices
// instead of storing them (s[i] is a Var like any other):
//       const auto [s, v] =
//           declare_variable_families(n, {{.name = "s", .unit = "m"}, {.name = "v"}});
//       const auto [kin, dyn] = declare_equation_families(
//           n, {{"der(s[{i}]) = v[{i}]"}, {"der(v[{i}]) = -s[{i}] + s[{i-1}]"}});
//       declare_dependency(kin, s);
//       declare_dependency(dyn, s, -1);   // dyn[i] holds s[i-1]
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "hdae/model.hpp"

namespace hdae {

/// Every declaration (declare_*, set_start, set_nominal, set_der_start, crossing(),
/// clear_declarations) throws ModelError while the model is in a run (in_simulation()): in
/// evaluate() or on_event(), or from another thread while a Simulator over the model exists.
class Model : public SimulationModel {
 public:
  explicit Model(std::string name) { structure_.name = std::move(name); }

  [[nodiscard]] const ModelStructure& structure() const final { return structure_; }

  /// Checks value against the parameter's range, stores it and calls parameters_changed()
  /// (see above). ModelError naming the parameter: unknown name (listing the known ones), a
  /// value that is not finite or outside [min, max], a rule of parameters_changed(), or a
  /// Simulator over the model that exists (in_simulation()).
  void set_parameter(std::string_view name, double value) override;
  /// Stores the value and calls parameters_changed(), in which set_start, set_nominal,
  /// set_der_start and crossing() are allowed during a run; other declarations are not.
  void vary_parameter(std::string_view name, double value) override;

 protected:
  Var declare_variable(VariableInfo info);
  /// Declares an indexed family of count unknowns named "<info.name>[1]" ... that share info;
  /// set_start gives single members other start values.
  Vars declare_variables(std::size_t count, VariableInfo info);
  /// Declares several families of count unknowns at once, element by element: the members of
  /// element i lie side by side in x (s[i], v[i], f[i], then s[i + 1], ...), as a loop
  /// declaring them one at a time would place them.
  ///   const auto [s, v] =
  ///       declare_variable_families(n, {{.name = "s", .unit = "m"}, {.name = "v"}});
  template <std::size_t N>
  std::array<Vars, N> declare_variable_families(std::size_t count,
                                                const VariableInfo (&members)[N]) {
    prepare_families("declare_variable_families", count, N, structure_.variables.size());
    return families<Var, N>(structure_.variables.add_families(count, members), count);
  }
  Eq declare_equation(std::string name, RowKind kind = RowKind::kDifferential);
  /// Declares an indexed family of count rows; name is a template in which "{i}" stands for
  /// the member's number (1, 2, ...) and "{i+1}", "{i-1}" for its neighbours' (EquationInfo):
  ///   declare_equations(n, "der(s[{i}]) = v[{i}]")
  Eqs declare_equations(std::size_t count, std::string name, RowKind kind = RowKind::kDifferential);
  /// Several families of rows at once, element by element (as declare_variable_families).
  template <std::size_t N>
  std::array<Eqs, N> declare_equation_families(std::size_t count,
                                               const EquationInfo (&members)[N]) {
    prepare_families("declare_equation_families", count, N, structure_.equations.size());
    return families<Eq, N>(structure_.equations.add_families(count, members), count);
  }
  Out declare_output(std::string name, std::string unit = {});
  Crossing declare_crossing(std::string name,
                            CrossingDirection direction = CrossingDirection::kBoth,
                            double nominal = 1.0);
  TimeEvent declare_time_event(std::string name);
  /// Declares that equation e depends on variable v (through x or der_x). Declaring any
  /// entry makes the pattern authoritative: undeclared entries are taken as zero.
  void declare_dependency(Eq e, Var v);
  /// Declares that e[i] depends on v[i + offset] for every i where v has that element:
  ///   declare_dependency(spring, s, -1);   // 0 = f[i] - k (s[i] - s[i-1]) holds s[i-1]
  /// ModelError when |offset| exceeds the larger family's size (and 1): no element pairs.
  void declare_dependency(Eqs e, Vars v, std::ptrdiff_t offset = 0);
  /// Declares a parameter; ModelError when its name is empty or taken, its value not finite,
  /// or its bounds NaN, crossed or not around the value.
  Param declare_parameter(ParameterInfo info);
  /// The parameter's current value (an indexed read: cheap enough for evaluate()). The handle
  /// is checked in every build (ModelError "parameter handle 3 is out of range: ...").
  [[nodiscard]] double value(Param p) const {
    return structure_
        .parameters[detail::checked("parameter", p.index, structure_.parameters.size())]
        .value;
  }
  /// Called after set_parameter stored a new value: recompute derived data and start values,
  /// check rules between parameters (throw ModelError naming them).
  virtual void parameters_changed() {}

  /// Start values set after declaration (from parameters, or per member of a family).
  void set_start(Var v, double start);
  /// The nominal value of a variable declared on its own (ModelError for a family member: its
  /// family shares one, set with the next overload).
  void set_nominal(Var v, double nominal);
  /// The nominal value every member of the family shares.
  void set_nominal(Vars v, double nominal);
  /// The start value of der(v) (VariableInfo::der_start) of a variable declared on its own
  /// (ModelError for a family member, as set_nominal).
  void set_der_start(Var v, double der_start);
  /// Mutable access for models whose crossing nominals follow parameters (the handle checked;
  /// ModelError while the model is in a run).
  CrossingInfo& crossing(Crossing c);
  /// Removes every declaration except the parameters, for a model whose size is a parameter
  /// and that declares itself anew in parameters_changed(); all handles but Param ones become
  /// invalid. The tables' memory is released, so a model made smaller does not keep it.
  void clear_declarations();

 private:
  /// ModelError naming call while the model is in a run: the run holds the declarations.
  void refuse_in_run(const char* call) const;
  /// refuse_in_run, except within vary_parameter: a declaration that changes no table's size.
  void refuse_in_run_unless_varying(const char* call) const {
    if (!varying_) refuse_in_run(call);
  }
  /// refuse_in_run, and ModelError naming call when count elements of `members` members each
  /// would not fit beside `existing` entries (the tables could not hold them).
  void prepare_families(const char* call, std::size_t count, std::size_t members,
                        std::size_t existing) const;
  /// The description of v, declared on its own; ModelError naming `what` for a family member.
  VariableInfo& own_description(Var v, const char* what);
  template <class Handle, std::size_t N>
  static std::array<Family<Handle>, N> families(std::size_t first, std::size_t count) {
    std::array<Family<Handle>, N> out;
    for (std::size_t k = 0; k < N; ++k) out[k] = {first + k, count, N};
    return out;
  }

  ModelStructure structure_;
  bool varying_ = false;  ///< within vary_parameter
};

}  // namespace hdae
