// One evaluation of a PhysicsModel's residual template (hdae/physics_model.hpp), for scalar
// type S: double for residuals, Taylor jets (hdae/jet.hpp) for exact time derivatives.
//
// Besides t, x(v), der(v) and set(eq, r), the template may use crossings and substitutions:
//
// - positive(c, value) / negative(c, value): the Boolean of crossing c. In a simulation's
//   evaluation (doubles) it is Evaluation::positive: frozen between events, following the
//   value at events. Everywhere else (jets for the index reduction, doubles for Jacobians, the
//   event handler's PhysicsModel::value) it is the Boolean the last simulation evaluation
//   recorded, or the one the EventContext holds, never a fresh comparison: a derivative
//   along the curve belongs to the mode the solver is in, not to the side of the switching
//   surface a perturbed point lies on. Before any evaluation recorded one, the value's sign
//   decides. Every crossing's helper is called exactly once per evaluation, unconditionally.
// - substitute(s, expr), substitute_der(s or v, expr), x(s), der(s): substitute equations
//   (hdae/substitution.hpp).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "hdae/jet.hpp"
#include "hdae/model.hpp"
#include "hdae/substitution.hpp"

namespace hdae {

/// What an evaluation of the template knows beyond its arguments.
struct EquationsContext {
  /// The model's substitutions; null for a model without any.
  const SubstitutionTable* substitutions = nullptr;
  /// The simulation's evaluation (doubles only): crossings go through its helpers.
  Evaluation* evaluation = nullptr;
  /// Crossing Booleans to use without an evaluation: 0 false, 1 true, other: not known.
  std::span<const char> booleans;
  /// Where an evaluation's crossing Booleans are recorded (with evaluation only).
  std::span<char> record;
  /// The left limits x^- of the model's variables in a jump being solved over this model's
  /// equations (the index reduction's impact); empty elsewhere (Equations::left_limit).
  std::span<const double> left_limits;
};

namespace detail {
inline double scalar_value(double v) { return v; }
template <int Order, int Directions>
double scalar_value(const BasicJet<Order, Directions>& v) {
  return v.value();
}
}  // namespace detail

/// Arguments and results of one evaluation of the residual template, for scalar type S.
template <class S>
class Equations {
 public:
  // t is kept by value: callers pass temporaries (Evaluation::t() returns a copy).
  Equations(S t, std::span<const S> x, std::span<const S> der_x, std::span<S> r,
            EquationsContext context = {})
      : t_(std::move(t)), x_(x), der_x_(der_x), r_(r), context_(context) {
    if (const SubstitutionTable* table = context_.substitutions) {
      values_.resize(table->size());
      value_set_.assign(table->size(), 0);
      ders_.resize(table->size());
      der_set_.assign(table->size(), 0);
      var_ders_.resize(table->num_der_slots());
      var_der_set_.assign(table->num_der_slots(), 0);
    }
  }

  [[nodiscard]] const S& t() const { return t_; }
  [[nodiscard]] const S& x(Var v) const {
    return x_[detail::checked("variable", v.index, x_.size())];
  }
  /// der(v), or the expression of der(v) <- expression when v's derivative is substituted.
  [[nodiscard]] const S& der(Var v) const {
    const std::size_t j = detail::checked("variable", v.index, der_x_.size());
    if (context_.substitutions != nullptr) {
      const std::size_t slot = context_.substitutions->der_slot_of(v);
      if (slot != SubstitutionTable::kNone) {
        if (var_der_set_[slot] == 0) {
          detail::throw_read_before_set(*context_.substitutions,
                                        "der(" + context_.substitutions->der_names[slot] + ")");
        }
        return var_ders_[slot];
      }
    }
    return der_x_[j];
  }
  /// The value of v just before the jump being solved, x_v^- (Evaluation::left_limit): the
  /// impact's left limit when the index reduction integrates one, the engine's in a
  /// simulation's evaluation of this model, x(v) elsewhere. A constant to the jets: a law on
  /// left limits holds only at the jump, where no derivative along the solution is taken.
  [[nodiscard]] double left_limit(Var v) const {
    const std::size_t j = detail::checked("variable", v.index, x_.size());
    if (!context_.left_limits.empty()) return context_.left_limits[j];
    return detail::scalar_value(x_[j]);
  }
  /// Sets the residual of equation e.
  void set(Eq e, const S& residual) {
    r_[detail::checked("equation", e.index, r_.size())] = residual;
  }

  /// The Boolean value > 0 of crossing c (see the header comment for which one).
  bool positive(Crossing c, const S& value) { return boolean(c, value); }
  /// The Boolean value < 0 of crossing c.
  bool negative(Crossing c, const S& value) { return boolean(c, -value); }

  /// s <- value.
  void substitute(Subst s, const S& value) {
    const std::size_t k = index(s);
    if (value_set_[k] != 0) detail::throw_set_twice(table(), name(k));
    values_[k] = value;
    value_set_[k] = 1;
  }
  /// s <- [guard_1 -> value_1 || guard_2 -> value_2 || ...]: the first alternative whose guard
  /// holds; ModelError when none does.
  void substitute(Subst s, std::initializer_list<Alternative<S>> alternatives) {
    for (const Alternative<S>& a : alternatives) {
      if (a.guard) return substitute(s, a.value);
    }
    detail::throw_no_alternative(table(), name(index(s)), detail::scalar_value(t_));
  }
  /// der(s) <- value, for a substituted variable s.
  void substitute_der(Subst s, const S& value) {
    const std::size_t k = index(s);
    if (der_set_[k] != 0) detail::throw_set_twice(table(), "der(" + name(k) + ")");
    ders_[k] = value;
    der_set_[k] = 1;
  }
  /// der(v) <- value, for a variable whose derivative substitution the model declared.
  void substitute_der(Var v, const S& value) {
    const std::size_t slot = context_.substitutions == nullptr
                                 ? SubstitutionTable::kNone
                                 : context_.substitutions->der_slot_of(v);
    if (slot == SubstitutionTable::kNone) {
      detail::throw_der_not_declared(context_.substitutions, v.index);
    }
    if (var_der_set_[slot] != 0) {
      detail::throw_set_twice(table(), "der(" + table().der_names[slot] + ")");
    }
    var_ders_[slot] = value;
    var_der_set_[slot] = 1;
  }
  /// The value of substituted variable s (set earlier in this evaluation).
  [[nodiscard]] const S& x(Subst s) const {
    const std::size_t k = index(s);
    if (value_set_[k] == 0) detail::throw_read_before_set(table(), name(k));
    return values_[k];
  }
  /// der(s) of a substituted variable s (set earlier in this evaluation by substitute_der).
  [[nodiscard]] const S& der(Subst s) const {
    const std::size_t k = index(s);
    if (der_set_[k] == 0) detail::throw_read_before_set(table(), "der(" + name(k) + ")");
    return ders_[k];
  }

  /// After the template: ModelError when a substitution or a declared der-substitution was
  /// not set (PhysicsModelOf calls it).
  void check_complete() const {
    for (std::size_t k = 0; k < value_set_.size(); ++k) {
      if (value_set_[k] == 0) detail::throw_not_set(table(), name(k));
    }
    for (std::size_t k = 0; k < var_der_set_.size(); ++k) {
      if (var_der_set_[k] == 0) {
        detail::throw_not_set(table(), "der(" + table().der_names[k] + ")");
      }
    }
  }
  /// The substituted values of this evaluation, by Subst index.
  [[nodiscard]] std::span<const S> substituted() const { return values_; }

 private:
  bool boolean(Crossing c, const S& value) {
    if constexpr (std::is_same_v<S, double>) {
      if (context_.evaluation != nullptr) {
        const bool b = context_.evaluation->positive(c, value);
        if (c.index < context_.record.size()) context_.record[c.index] = b ? 1 : 0;
        return b;
      }
    }
    const std::span<const char> known = context_.booleans;
    if (c.index < known.size() && (known[c.index] == 0 || known[c.index] == 1)) {
      return known[c.index] == 1;
    }
    return detail::scalar_value(value) > 0.0;
  }
  [[nodiscard]] const SubstitutionTable& table() const {
    if (context_.substitutions == nullptr) detail::throw_unknown_substitution(nullptr, 0);
    return *context_.substitutions;
  }
  [[nodiscard]] std::size_t index(Subst s) const {
    if (s.index >= table().size()) detail::throw_unknown_substitution(&table(), s.index);
    return s.index;
  }
  [[nodiscard]] const std::string& name(std::size_t k) const {
    return table().substitutions[k].name;
  }

  S t_;
  std::span<const S> x_;
  std::span<const S> der_x_;
  std::span<S> r_;
  EquationsContext context_;
  std::vector<S> values_, ders_, var_ders_;
  std::vector<char> value_set_, der_set_, var_der_set_;
};

}  // namespace hdae
