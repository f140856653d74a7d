#include "hdae/substitution.hpp"

#include <sstream>

#include "hdae/errors.hpp"

namespace hdae::detail {

namespace {
std::string in_model(const SubstitutionTable& table) { return "model '" + table.model + "': "; }
}  // namespace

void throw_read_before_set(const SubstitutionTable& table, const std::string& name) {
  throw ModelError(in_model(table) + "substituted variable '" + name +
                   "' is read before its substitute equation '" + name +
                   " <- ...' sets it; each substitute equation may only use variables and "
                   "substitutions set above it, so the equations are out of order or circular");
}

void throw_set_twice(const SubstitutionTable& table, const std::string& name) {
  throw ModelError(in_model(table) + "substituted variable '" + name +
                   "' is set twice in one evaluation; a variable has one substitute equation "
                   "(alternatives [b1 -> e1 || b2 -> e2] express cases)");
}

void throw_not_set(const SubstitutionTable& table, const std::string& name) {
  throw ModelError(in_model(table) + "substituted variable '" + name +
                   "' is declared but its substitute equation was not set in this evaluation");
}

void throw_no_alternative(const SubstitutionTable& table, const std::string& name, double t) {
  std::ostringstream when;
  when << t;
  throw ModelError(in_model(table) + "no guard of the substitute equation of '" + name +
                   "' holds at t = " + when.str() +
                   "; the guards of [b1 -> e1 || b2 -> e2 || ...] must cover every case");
}

void throw_unknown_substitution(const SubstitutionTable* table, std::size_t index) {
  if (table == nullptr) {
    throw ModelError(
        "substitute equation in a template evaluated without the model's substitutions "
        "(pass PhysicsModel::context() to Equations)");
  }
  throw ModelError(in_model(*table) + "substituted variable #" + std::to_string(index) +
                   " is not declared (the model declares " + std::to_string(table->size()) +
                   "); a handle of another model?");
}

void throw_der_not_declared(const SubstitutionTable* table, std::size_t variable) {
  const std::string model = table == nullptr ? "model: " : in_model(*table);
  throw ModelError(model + "der() of variable #" + std::to_string(variable) +
                   " is substituted without a declaration; call "
                   "declare_derivative_substitution(v) in the constructor");
}

}  // namespace hdae::detail
