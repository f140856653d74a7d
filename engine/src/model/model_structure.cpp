// ModelStructure::validate and the handle errors (model.hpp, declarations.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "hdae/model.hpp"
#include "model/parameter_rules.hpp"
#include "model/unique_names.hpp"

namespace hdae {

void detail::throw_bad_handle(const char* kind, std::size_t index, std::size_t count) {
  throw ModelError(fmt::format(
      "{} handle {} is out of range: the model declares {} {}{} (a handle of another model, or "
      "one made by hand?)",
      kind, index, count, kind, count == 1 ? "" : "s"));
}

void detail::throw_bad_element(std::size_t i, std::size_t count) {
  if (count == 0) throw ModelError(fmt::format("element {} of an empty family does not exist", i));
  throw ModelError(
      fmt::format("element {} of a family of {} does not exist (elements count from 0 to {})", i,
                  count, count - 1));
}

namespace {

using detail::NameSource;

// Nominal values scale tolerances, difference increments and the jump solve's unknowns: their
// squares and reciprocals must stay far from overflow and underflow (a subnormal nominal made
// every scaled quantity infinite and the singular-J diagnosis empty).
constexpr double kMinNominal = 1e-100;
constexpr double kMaxNominal = 1e100;

bool sane_nominal(double nominal) { return nominal >= kMinNominal && nominal <= kMaxNominal; }

/// The names of a table's entries: one source per single entry and one per family member,
/// made by name_parts(description, indexed) (their positions shifted by `offset`).
template <class Info, class Parts>
std::vector<NameSource> sources_of(const detail::DeclarationIndex& index,
                                   std::span<const Info> descriptions, std::size_t offset,
                                   Parts&& name_parts) {
  std::vector<NameSource> sources;
  for (const detail::DeclarationGroup& g : index.groups()) {
    if (!g.indexed) {
      for (std::size_t i = 0; i < g.count; ++i) {
        NameSource s = name_parts(descriptions[g.description + i], false);
        s.position = offset + g.first + i;
        sources.push_back(s);
      }
      continue;
    }
    for (std::size_t k = 0; k < g.width; ++k) {
      NameSource s = name_parts(descriptions[g.description + k], true);
      s.count = g.count;
      s.position = offset + g.first + k;
      s.stride = g.width;
      sources.push_back(s);
    }
  }
  return sources;
}

NameSource variable_name(const VariableInfo& v, bool indexed) {
  if (!indexed) return {{v.name, {}, {}}, {}};
  return {{v.name, "[{i}]", {}}, {false, true, false}};
}

NameSource derivative_name(const VariableInfo& v, bool indexed) {
  if (!v.der_name.empty() && !indexed) return {{v.der_name, {}, {}}, {}};
  if (!v.der_name.empty()) return {{v.der_name, "[{i}]", {}}, {false, true, false}};
  if (!indexed) return {{"der(", v.name, ")"}, {}};
  return {{"der(", v.name, "[{i}])"}, {false, false, true}};
}

NameSource equation_name(const EquationInfo& e, bool indexed) {
  return {{e.name, {}, {}}, {indexed, false, false}};
}

/// "{what} {index} has an empty name" for the first entry declared with an empty name.
template <class Info>
void check_empty(const detail::DeclarationIndex& index, std::span<const Info> descriptions,
                 const char* what, const std::string& model) {
  for (const detail::DeclarationGroup& g : index.groups()) {
    const std::size_t described = g.indexed ? g.width : g.count;
    for (std::size_t d = 0; d < described; ++d) {
      if (descriptions[g.description + d].name.empty()) {
        throw ModelError(
            fmt::format("model '{}': {} {} has an empty name", model, what, g.first + d));
      }
    }
  }
}

void check_repeat(std::span<const NameSource> sources, const char* what, const std::string& model) {
  if (const auto repeat = detail::find_repeat(sources)) {
    throw ModelError(
        fmt::format("model '{}': {} name '{}' is declared twice", model, what, repeat->name));
  }
}

template <class Info>
void check_names(const std::vector<Info>& items, const char* what, const std::string& model) {
  std::vector<NameSource> sources;
  sources.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].name.empty()) {
      throw ModelError(fmt::format("model '{}': {} {} has an empty name", model, what, i));
    }
    sources.push_back(NameSource::literal(items[i].name, i));
  }
  check_repeat(sources, what, model);
}

/// What declares result column `owner` in the order of check_column_names.
std::string column_owner(const ModelStructure& s, std::size_t owner) {
  const std::size_t n = s.variables.size();
  if (owner == 0) return "the time column";
  if (owner <= n) return fmt::format("variable '{}'", s.variables.name(owner - 1));
  if (owner <= 2 * n) {
    return fmt::format("the derivative of variable '{}'", s.variables.name(owner - n - 1));
  }
  return fmt::format("output '{}'", s.outputs[owner - 2 * n - 1].name);
}

/// The result table's columns (time, x, der(x), outputs; results/row_recorder.cpp) must have
/// distinct names, or a CSV would hold two columns of one name.
void check_column_names(const ModelStructure& s) {
  const std::size_t n = s.variables.size();
  const auto& layout = s.variables.layout();
  const auto descriptions = s.variables.descriptions();
  std::vector<NameSource> columns{NameSource::literal("time", 0)};
  for (const auto& part : {sources_of(layout, descriptions, 1, variable_name),
                           sources_of(layout, descriptions, 1 + n, derivative_name)}) {
    columns.insert(columns.end(), part.begin(), part.end());
  }
  for (std::size_t k = 0; k < s.outputs.size(); ++k) {
    columns.push_back(NameSource::literal(s.outputs[k].name, 1 + 2 * n + k));
  }
  for (const NameSource& column : columns) {
    for (const std::string_view part : column.parts) {
      const auto bad = std::find_if(part.begin(), part.end(), [](char ch) {
        return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f;
      });
      if (bad == part.end()) continue;
      // A CSV header keeps one name per field on one line, and the reader refuses control
      // characters there: such a name could be written but never read back.
      throw ModelError(
          fmt::format("model '{}': the name of {} holds the control character {:#04x} ({}); result "
                      "columns are named without control characters",
                      s.name, column_owner(s, column.position), static_cast<unsigned char>(*bad),
                      *bad == '\n' ? "a line break" : (*bad == '\t' ? "a tab" : "not printable")));
    }
  }
  if (const auto repeat = detail::find_repeat(columns)) {
    throw ModelError(fmt::format("model '{}': result column '{}' would appear twice ({} and {})",
                                 s.name, repeat->name, column_owner(s, repeat->first),
                                 column_owner(s, repeat->second)));
  }
}

/// The feasible region of one variable: finite bounds, min < max, the start value inside.
void check_region(const VariableInfo& v, double start, const std::string& variable,
                  const std::string& name) {
  for (const auto& [bound, what] : {std::pair{v.min, "min"}, std::pair{v.max, "max"}}) {
    if (bound && !std::isfinite(*bound)) {
      throw ModelError(fmt::format("model '{}': {} of variable '{}' is not finite ({})", name, what,
                                   variable, *bound));
    }
  }
  if (v.min && v.max && !(*v.min < *v.max)) {
    throw ModelError(fmt::format("model '{}': variable '{}' has min = {} not below max = {}", name,
                                 variable, *v.min, *v.max));
  }
  if ((v.min && start < *v.min) || (v.max && start > *v.max)) {
    throw ModelError(fmt::format(
        "model '{}': start value {} of variable '{}' lies outside its feasible region [{}, {}]",
        name, start, variable, v.min ? fmt::format("{}", *v.min) : "-inf",
        v.max ? fmt::format("{}", *v.max) : "inf"));
  }
}

/// Start value, tolerances and nominal of variable j, declared with v.
void check_variable(const ModelStructure& s, std::size_t j, const VariableInfo& v) {
  const std::string& name = s.name;
  const double start = s.variables.start(j);
  if (!std::isfinite(start)) {
    throw ModelError(fmt::format("model '{}': start value of variable '{}' is not finite ({})",
                                 name, s.variables.name(j), start));
  }
  if (v.abs_tol && !(std::isfinite(*v.abs_tol) && *v.abs_tol > 0.0)) {
    throw ModelError(
        fmt::format("model '{}': abs_tol of variable '{}' must be finite and > 0 when set, got {}",
                    name, s.variables.name(j), *v.abs_tol));
  }
  if (v.der_start && !std::isfinite(*v.der_start)) {
    throw ModelError(fmt::format("model '{}': der_start of variable '{}' is not finite ({})", name,
                                 s.variables.name(j), *v.der_start));
  }
  if (!sane_nominal(v.nominal)) {
    throw ModelError(
        fmt::format("model '{}': nominal value of variable '{}' must be in [{:g}, {:g}], got {}",
                    name, s.variables.name(j), kMinNominal, kMaxNominal, v.nominal));
  }
  if (v.min || v.max) check_region(v, start, s.variables.name(j), name);
}

/// The first declared entry outside the n x n residual Jacobian, if any.
std::optional<SparsityEntry> outside(const SparsityTable& sparsity, std::size_t n) {
  for (const SparsityEntry& e : sparsity.entries()) {
    if (e.row >= n || e.col >= n) return e;
  }
  for (const FamilyDependency& f : sparsity.families()) {
    if (f.begin() >= f.end()) continue;
    // Rows and columns grow with i: the family lies inside when its last entry does.
    const std::size_t last = f.end() - 1;
    const std::size_t row = f.first_row + last * f.row_stride;
    const std::size_t col =
        f.first_col +
        static_cast<std::size_t>(static_cast<std::ptrdiff_t>(last) + f.offset) * f.col_stride;
    if (row < n && col < n) continue;
    std::optional<SparsityEntry> first;
    SparsityTable one;
    one.add_family(f);
    one.for_each([&](std::size_t r, std::size_t c) {
      if (!first && (r >= n || c >= n)) first = SparsityEntry{r, c};
    });
    return first;
  }
  return std::nullopt;
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
  check_empty(variables.layout(), variables.descriptions(), "variable", name);
  check_repeat(sources_of(variables.layout(), variables.descriptions(), 0, variable_name),
               "variable", name);
  check_empty(equations.layout(), equations.descriptions(), "equation", name);
  check_repeat(sources_of(equations.layout(), equations.descriptions(), 0, equation_name),
               "equation", name);
  check_names(outputs, "output", name);
  check_names(crossings, "crossing", name);
  check_names(time_events, "time event", name);
  check_names(parameters, "parameter", name);
  for (const ParameterInfo& p : parameters) detail::check_parameter(p, name);
  check_column_names(*this);
  variables.for_each_declared(
      [this](std::size_t j, const VariableInfo& v) { check_variable(*this, j, v); });
  for (const CrossingInfo& c : crossings) {
    if (!sane_nominal(c.nominal)) {
      throw ModelError(
          fmt::format("model '{}': nominal value of crossing '{}' must be in [{:g}, {:g}], got {}",
                      name, c.name, kMinNominal, kMaxNominal, c.nominal));
    }
  }
  const std::size_t n = variables.size();
  if (const auto e = outside(sparsity, n)) {
    throw ModelError(
        fmt::format("model '{}': sparsity entry (row {}, column {}) is outside the {}x{} residual "
                    "Jacobian",
                    name, e->row, e->col, n, n));
  }
}

}  // namespace hdae
