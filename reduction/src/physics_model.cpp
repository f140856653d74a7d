#include "hdae/physics_model.hpp"

#include <algorithm>
#include <vector>

#include "hdae/errors.hpp"

namespace hdae {

namespace {

/// A recorded Boolean that no evaluation has set yet (EquationsContext::booleans).
constexpr char kUnknown = 2;

void set_substituted_outputs(const SubstitutionTable& table, std::span<const double> values,
                             Evaluation& e) {
  for (std::size_t k = 0; k < table.size(); ++k) e.set(table.outputs[k], values[k]);
}

}  // namespace

void PhysicsModel::evaluate(Evaluation& e) {
  const std::size_t crossings = structure().crossings.size();
  if (booleans_.size() != crossings) booleans_.assign(crossings, kUnknown);
  EquationsContext context{.substitutions = &substitutions_,
                           .evaluation = &e,
                           .record = booleans_,
                           .left_limits = e.left_limits()};
  Equations<double> eqs(e.t(), e.x(), e.der_x(), e.residuals(), context);
  residuals_of(eqs);
  if (!e.wants_outputs()) return;
  set_substituted_outputs(substitutions_, eqs.substituted(), e);
  outputs(e);
}

void PhysicsModel::evaluate_crossings(Evaluation& outer, std::span<const double> x,
                                      std::span<const double> der_x) {
  const std::size_t crossings = structure().crossings.size();
  if (booleans_.size() != crossings) booleans_.assign(crossings, kUnknown);
  std::vector<double> r(structure().equations.size());
  EquationsContext context{
      .substitutions = &substitutions_, .evaluation = &outer, .record = booleans_};
  Equations<double> eqs(outer.t(), x, der_x, r, context);
  residuals_of(eqs);
}

EquationsContext PhysicsModel::context() const {
  return {.substitutions = &substitutions_, .booleans = booleans_};
}

void PhysicsModel::write_outputs(Evaluation& e) const {
  if (substitutions_.size() > 0) {
    std::vector<double> r(structure().equations.size());
    Equations<double> eqs(e.t(), e.x(), e.der_x(), r, context());
    residuals_of(eqs);
    set_substituted_outputs(substitutions_, eqs.substituted(), e);
  }
  outputs(e);
}

double PhysicsModel::value(const EventContext& event, Subst s) const {
  const ModelStructure& st = structure();
  if (s.index >= substitutions_.size()) {
    detail::throw_unknown_substitution(&substitutions_, s.index);
  }
  std::vector<double> x(st.variables.size()), der_x(x.size()), r(st.equations.size());
  for (std::size_t j = 0; j < x.size(); ++j) {
    x[j] = event.x(Var{j});
    der_x[j] = event.der(Var{j});
  }
  std::vector<char> booleans(st.crossings.size());
  for (std::size_t k = 0; k < booleans.size(); ++k) {
    booleans[k] = event.is_true(Crossing{k}) ? 1 : 0;
  }
  Equations<double> eqs(event.t(), x, der_x, r,
                        {.substitutions = &substitutions_, .booleans = booleans});
  residuals_of(eqs);
  return eqs.substituted()[s.index];
}

Subst PhysicsModel::declare_substitution(SubstitutionInfo info) {
  const ModelStructure& st = structure();
  if (info.name.empty()) {
    throw ModelError("model '" + st.name + "': a substituted variable needs a name");
  }
  const auto same = [&](const auto& declared) { return declared.name == info.name; };
  bool is_variable = false;
  for (std::size_t j = 0; j < st.variables.size() && !is_variable; ++j) {
    is_variable = st.variables.name(j) == info.name;
  }
  if (is_variable ||
      std::any_of(substitutions_.substitutions.begin(), substitutions_.substitutions.end(), same)) {
    throw ModelError("model '" + st.name + "': '" + info.name +
                     "' is declared twice (as a variable or a substituted variable); a "
                     "variable is either an unknown or substituted, once");
  }
  substitutions_.model = st.name;
  substitutions_.outputs.push_back(declare_output(info.name, info.unit));
  substitutions_.substitutions.push_back(std::move(info));
  return Subst{substitutions_.size() - 1};
}

void PhysicsModel::declare_derivative_substitution(Var v) {
  const ModelStructure& st = structure();
  const std::size_t j = detail::checked("variable", v.index, st.variables.size());
  SubstitutionTable& t = substitutions_;
  t.model = st.name;
  if (t.der_slot.size() < st.variables.size()) {
    t.der_slot.resize(st.variables.size(), SubstitutionTable::kNone);
  }
  if (t.der_slot[j] != SubstitutionTable::kNone) {
    throw ModelError("model '" + st.name + "': der(" + st.variables.name(j) +
                     ") is substituted twice; declare one der(v) <- expression per variable");
  }
  t.der_slot[j] = t.num_der_slots();
  t.der_names.push_back(st.variables.name(j));
}

}  // namespace hdae
