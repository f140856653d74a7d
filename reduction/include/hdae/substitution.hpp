// Substitute equations (the chi language's `v <- expression` and `der(v) <- expression`):
// a named quantity that is defined by an expression instead of being an unknown. Writing
// `v <- expression` is equivalent to replacing every occurrence of v by the expression, so a
// substituted variable is not part of the system the solver sees; it stays visible as an
// output column of the results and, through PhysicsModel::value, in the event handler.
//
// In a PhysicsModel (hdae/physics_model.hpp) a substitution is declared in the constructor
// and set by the residual template once per evaluation, before it is read:
//
//   error_ = declare_substitution({.name = "e", .unit = "m"});  // in the constructor
//
//   template <class S> void residuals(hdae::Equations<S>& e) const {
//     e.substitute(error_, e.x(x_) - x_set);  // e <- x - x_set
//     e.substitute_der(error_, e.der(x_));    // der(e) <- der(x)
//     e.set(control_, e.x(u_) - (kP * e.x(error_) + kD * e.der(error_) + kI * e.x(i_)));
//   }
//
// When e is a variable (an unknown) instead, der(e) <- der(x) alone is declared with
// declare_derivative_substitution(e_) and set with e.substitute_der(e_, e.der(x_)).
//
// A guarded substitution `v <- [b1 -> e1 || b2 -> e2]` takes the value of the first
// alternative whose guard holds; guards are crossing Booleans (Equations::positive), so they
// change only at events:
//
//   e.substitute(overflow_, {{!full || !filling, 0.0}, {full && filling, Qi - Qo}});
//
// der(v) <- expression on a variable v makes every read of der(v) in the template return the
// expression: no row holds der(v) any more, so the structure analysis and the solver see v as
// algebraic (a row cannot read der(v) behind the substitution's back: the template has no
// other access to it; outputs(), reading the Evaluation, sees the solver's der(v)).
//
// Rules, checked in every evaluation (ModelError naming the model and the substitution):
// a substitution is set exactly once per evaluation, before its first read; one read before it
// is set means the substitute equations are out of order or circular (each may use only
// variables and substitutions set above it); a declared der-substitution of a variable is set
// before der(v) is read; names are unique among variables and substitutions, and a variable's
// derivative is substituted by one declaration at most.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "hdae/model.hpp"

namespace hdae {

/// Handle of a substituted variable (declared by PhysicsModel::declare_substitution).
struct Subst {
  std::size_t index = 0;
};

/// Description of one substituted variable.
struct SubstitutionInfo {
  std::string name;  ///< unique among variables and substitutions; its output column
  std::string unit;  ///< free text, may be empty
};

/// One alternative of a guarded substitution: its value counts when the guard holds.
template <class S>
struct Alternative {
  bool guard = false;
  S value{};
};

/// The substitutions a model declared: names, the output each is recorded in, and which
/// variables have their derivative substituted.
struct SubstitutionTable {
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

  std::string model;  ///< the model's name, for messages
  std::vector<SubstitutionInfo> substitutions;
  std::vector<Out> outputs;  ///< outputs[k] records substitution k
  /// der_slot[j]: the slot of variable j's der-substitution, kNone when der(x_j) is not
  /// substituted; empty when no derivative is.
  std::vector<std::size_t> der_slot;
  std::vector<std::string> der_names;  ///< per slot: the variable's name

  [[nodiscard]] std::size_t size() const { return substitutions.size(); }
  [[nodiscard]] std::size_t num_der_slots() const { return der_names.size(); }
  /// The der-substitution slot of variable v, or kNone.
  [[nodiscard]] std::size_t der_slot_of(Var v) const {
    return v.index < der_slot.size() ? der_slot[v.index] : kNone;
  }
};

namespace detail {
/// ModelError: substitution (or "der(name)") read before the template set it.
[[noreturn]] void throw_read_before_set(const SubstitutionTable& table, const std::string& name);
/// ModelError: substitution set twice in one evaluation.
[[noreturn]] void throw_set_twice(const SubstitutionTable& table, const std::string& name);
/// ModelError: substitution never set in an evaluation.
[[noreturn]] void throw_not_set(const SubstitutionTable& table, const std::string& name);
/// ModelError: no guard of a guarded substitution holds.
[[noreturn]] void throw_no_alternative(const SubstitutionTable& table, const std::string& name,
                                       double t);
/// ModelError: a handle that the model did not declare (or a template run without the table).
[[noreturn]] void throw_unknown_substitution(const SubstitutionTable* table, std::size_t index);
/// ModelError: substitute_der on a variable whose der-substitution was not declared.
[[noreturn]] void throw_der_not_declared(const SubstitutionTable* table, std::size_t variable);
}  // namespace detail

}  // namespace hdae
