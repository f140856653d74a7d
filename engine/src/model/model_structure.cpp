// ModelStructure::validate and the modelling layer's declarations (model_builder.hpp).
#include <cmath>
#include <map>
#include <set>
#include <string>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"
#include "model/parameter_rules.hpp"

namespace hdae {

void detail::throw_bad_handle(const char* kind, std::size_t index, std::size_t count) {
  throw ModelError(fmt::format(
      "{} handle {} is out of range: the model declares {} {}{} (a handle of another model, or "
      "one made by hand?)",
      kind, index, count, kind, count == 1 ? "" : "s"));
}

namespace {

// Nominal values scale tolerances, difference increments and the jump solve's unknowns: their
// squares and reciprocals must stay far from overflow and underflow (a subnormal nominal made
// every scaled quantity infinite and the singular-J diagnosis empty).
constexpr double kMinNominal = 1e-100;
constexpr double kMaxNominal = 1e100;

bool sane_nominal(double nominal) { return nominal >= kMinNominal && nominal <= kMaxNominal; }

template <typename Info>
void check_names(const std::vector<Info>& items, const char* what, const std::string& model) {
  std::set<std::string> seen;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string& name = items[i].name;
    if (name.empty()) {
      throw ModelError(fmt::format("model '{}': {} {} has an empty name", model, what, i));
    }
    if (!seen.insert(name).second) {
      throw ModelError(
          fmt::format("model '{}': {} name '{}' is declared twice", model, what, name));
    }
  }
}

/// The result table's columns (time, x, der(x), outputs; results/row_recorder.cpp) must have
/// distinct names, or a CSV would hold two columns of one name.
void check_column_names(const ModelStructure& s) {
  std::map<std::string, std::string> owner;  // column name -> what declares it
  owner["time"] = "the time column";
  const auto claim = [&](const std::string& column, std::string what) {
    const auto [it, inserted] = owner.emplace(column, what);
    if (!inserted) {
      throw ModelError(fmt::format("model '{}': result column '{}' would appear twice ({} and {})",
                                   s.name, column, it->second, what));
    }
  };
  for (const VariableInfo& v : s.variables) claim(v.name, fmt::format("variable '{}'", v.name));
  for (const VariableInfo& v : s.variables) {
    claim(v.der_name.empty() ? fmt::format("der({})", v.name) : v.der_name,
          fmt::format("the derivative of variable '{}'", v.name));
  }
  for (const OutputInfo& o : s.outputs) claim(o.name, fmt::format("output '{}'", o.name));
}

}  // namespace

void ModelStructure::validate() const {
  if (variables.empty()) {
    throw ModelError(fmt::format("model '{}' declares no variables", name));
  }
  if (equations.size() != variables.size()) {
    throw ModelError(fmt::format(
        "model '{}' declares {} variables but {} equations; the residual must be square", name,
        variables.size(), equations.size()));
  }
  check_names(variables, "variable", name);
  check_names(equations, "equation", name);
  check_names(outputs, "output", name);
  check_names(crossings, "crossing", name);
  check_names(time_events, "time event", name);
  check_names(parameters, "parameter", name);
  for (const ParameterInfo& p : parameters) detail::check_parameter(p, name);
  check_column_names(*this);
  for (const VariableInfo& v : variables) {
    if (!std::isfinite(v.start)) {
      throw ModelError(fmt::format("model '{}': start value of variable '{}' is not finite ({})",
                                   name, v.name, v.start));
    }
    if (!sane_nominal(v.nominal)) {
      throw ModelError(
          fmt::format("model '{}': nominal value of variable '{}' must be in [{:g}, {:g}], got {}",
                      name, v.name, kMinNominal, kMaxNominal, v.nominal));
    }
  }
  for (const CrossingInfo& c : crossings) {
    if (!sane_nominal(c.nominal)) {
      throw ModelError(
          fmt::format("model '{}': nominal value of crossing '{}' must be in [{:g}, {:g}], got {}",
                      name, c.name, kMinNominal, kMaxNominal, c.nominal));
    }
  }
  const std::size_t n = variables.size();
  for (const SparsityEntry& s : sparsity) {
    if (s.row >= n || s.col >= n) {
      throw ModelError(fmt::format(
          "model '{}': sparsity entry (row {}, column {}) is outside the {}x{} residual "
          "Jacobian",
          name, s.row, s.col, n, n));
    }
  }
}

Var Model::declare_variable(VariableInfo info) {
  structure_.variables.push_back(std::move(info));
  return Var{structure_.variables.size() - 1};
}

Eq Model::declare_equation(std::string name, RowKind kind) {
  structure_.equations.push_back(EquationInfo{std::move(name), kind});
  return Eq{structure_.equations.size() - 1};
}

Out Model::declare_output(std::string name, std::string unit) {
  structure_.outputs.push_back(OutputInfo{std::move(name), std::move(unit)});
  return Out{structure_.outputs.size() - 1};
}

Crossing Model::declare_crossing(std::string name, CrossingDirection direction, double nominal) {
  structure_.crossings.push_back(CrossingInfo{std::move(name), direction, nominal});
  return Crossing{structure_.crossings.size() - 1};
}

TimeEvent Model::declare_time_event(std::string name) {
  structure_.time_events.push_back(TimeEventInfo{std::move(name)});
  return TimeEvent{structure_.time_events.size() - 1};
}

void Model::declare_dependency(Eq e, Var v) {
  structure_.sparsity.push_back(SparsityEntry{e.index, v.index});
}

}  // namespace hdae
