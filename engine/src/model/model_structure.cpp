// ModelStructure::validate and the modelling layer's declarations (model_builder.hpp).
#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

/// A name and the index of what declares it, for first_repeat.
struct Named {
  std::string_view name;
  std::size_t owner = 0;
};

/// The owners of the first two equal names, if any. Sorting the names' hashes instead of
/// filling a std::set<std::string> allocates nothing per name: validate() runs before every
/// run, and a chain of 10^6 masses declares 3 10^6 variables, equations and columns.
std::optional<std::pair<std::size_t, std::size_t>> first_repeat(std::span<const Named> names) {
  std::vector<std::pair<std::size_t, std::size_t>> hashed(names.size());  // (hash, position)
  for (std::size_t i = 0; i < names.size(); ++i) {
    hashed[i] = {std::hash<std::string_view>{}(names[i].name), i};
  }
  std::sort(hashed.begin(), hashed.end());
  for (std::size_t i = 0; i + 1 < hashed.size(); ++i) {
    // Names with one hash sit side by side; compare each with the rest of its run.
    for (std::size_t j = i + 1; j < hashed.size() && hashed[j].first == hashed[i].first; ++j) {
      const Named& a = names[hashed[i].second];
      const Named& b = names[hashed[j].second];
      if (a.name == b.name)
        return std::pair{std::min(a.owner, b.owner), std::max(a.owner, b.owner)};
    }
  }
  return std::nullopt;
}

template <typename Info>
void check_names(const std::vector<Info>& items, const char* what, const std::string& model) {
  std::vector<Named> names(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].name.empty()) {
      throw ModelError(fmt::format("model '{}': {} {} has an empty name", model, what, i));
    }
    names[i] = {items[i].name, i};
  }
  if (const auto repeat = first_repeat(names)) {
    throw ModelError(fmt::format("model '{}': {} name '{}' is declared twice", model, what,
                                 items[repeat->first].name));
  }
}

/// What declares result column `owner` in the order of check_column_names.
std::string column_owner(const ModelStructure& s, std::size_t owner) {
  const std::size_t n = s.variables.size();
  if (owner == 0) return "the time column";
  if (owner <= n) return fmt::format("variable '{}'", s.variables[owner - 1].name);
  if (owner <= 2 * n) {
    return fmt::format("the derivative of variable '{}'", s.variables[owner - n - 1].name);
  }
  return fmt::format("output '{}'", s.outputs[owner - 2 * n - 1].name);
}

/// The result table's columns (time, x, der(x), outputs; results/row_recorder.cpp) must have
/// distinct names, or a CSV would hold two columns of one name.
void check_column_names(const ModelStructure& s) {
  const std::size_t n = s.variables.size();
  // "der(<name>)" for the derivatives without a name of their own; short names stay in the
  // strings' own buffers, so this allocates one vector.
  std::vector<std::string> default_der(n);
  std::vector<Named> columns;
  columns.reserve(1 + 2 * n + s.outputs.size());
  columns.push_back({"time", 0});
  for (std::size_t i = 0; i < n; ++i) columns.push_back({s.variables[i].name, 1 + i});
  for (std::size_t i = 0; i < n; ++i) {
    const VariableInfo& v = s.variables[i];
    if (v.der_name.empty()) default_der[i] = fmt::format("der({})", v.name);
    columns.push_back({v.der_name.empty() ? default_der[i] : v.der_name, 1 + n + i});
  }
  for (std::size_t k = 0; k < s.outputs.size(); ++k) {
    columns.push_back({s.outputs[k].name, 1 + 2 * n + k});
  }
  if (const auto repeat = first_repeat(columns)) {
    throw ModelError(fmt::format("model '{}': result column '{}' would appear twice ({} and {})",
                                 s.name, columns[repeat->first].name,
                                 column_owner(s, repeat->first), column_owner(s, repeat->second)));
  }
}

/// The feasible region of one variable: finite bounds, min < max, the start value inside.
void check_region(const VariableInfo& v, const std::string& name) {
  for (const auto& [bound, what] : {std::pair{v.min, "min"}, std::pair{v.max, "max"}}) {
    if (bound && !std::isfinite(*bound)) {
      throw ModelError(fmt::format("model '{}': {} of variable '{}' is not finite ({})", name, what,
                                   v.name, *bound));
    }
  }
  if (v.min && v.max && !(*v.min < *v.max)) {
    throw ModelError(fmt::format("model '{}': variable '{}' has min = {} not below max = {}", name,
                                 v.name, *v.min, *v.max));
  }
  if ((v.min && v.start < *v.min) || (v.max && v.start > *v.max)) {
    throw ModelError(fmt::format(
        "model '{}': start value {} of variable '{}' lies outside its feasible region [{}, {}]",
        name, v.start, v.name, v.min ? fmt::format("{}", *v.min) : "-inf",
        v.max ? fmt::format("{}", *v.max) : "inf"));
  }
}

/// Start value, tolerances and nominal of one variable.
void check_variable(const VariableInfo& v, const std::string& name) {
  if (!std::isfinite(v.start)) {
    throw ModelError(fmt::format("model '{}': start value of variable '{}' is not finite ({})",
                                 name, v.name, v.start));
  }
  if (v.abs_tol && !(std::isfinite(*v.abs_tol) && *v.abs_tol > 0.0)) {
    throw ModelError(
        fmt::format("model '{}': abs_tol of variable '{}' must be finite and > 0 when set, got {}",
                    name, v.name, *v.abs_tol));
  }
  if (v.der_start && !std::isfinite(*v.der_start)) {
    throw ModelError(fmt::format("model '{}': der_start of variable '{}' is not finite ({})", name,
                                 v.name, *v.der_start));
  }
  if (!sane_nominal(v.nominal)) {
    throw ModelError(
        fmt::format("model '{}': nominal value of variable '{}' must be in [{:g}, {:g}], got {}",
                    name, v.name, kMinNominal, kMaxNominal, v.nominal));
  }
  check_region(v, name);
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
  for (const VariableInfo& v : variables) check_variable(v, name);
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
