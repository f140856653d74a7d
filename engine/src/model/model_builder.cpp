// The modelling layer's declarations (model_builder.hpp): each one refuses while the model is
// in a run, since the run holds the tables it was started with (the crossing table, the row
// kinds, the result's columns are sized from them) and would index past a grown one.
#include <algorithm>
#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"

namespace hdae {

void Model::refuse_in_run(const char* call) const {
  if (!in_simulation()) return;
  throw ModelError(fmt::format(
      "model '{}': cannot call {} while the model is in a run (the run holds the declarations "
      "from its Simulator's construction to take_result(); declare in the constructor or in "
      "parameters_changed(), between runs)",
      structure_.name, call));
}

void Model::prepare_families(const char* call, std::size_t count, std::size_t members,
                             std::size_t existing) const {
  refuse_in_run(call);
  // The start values are one vector of doubles: its largest size bounds every table.
  const std::size_t room = std::vector<double>().max_size() - existing;
  if (members != 0 && count > room / members) {
    throw ModelError(fmt::format(
        "model '{}': {}: {} elements of {} member{} are more than a model can hold (at most {} "
        "unknowns or rows in all, {} declared)",
        structure_.name, call, count, members, members == 1 ? "" : "s",
        std::vector<double>().max_size(), existing));
  }
}

Var Model::declare_variable(VariableInfo info) {
  refuse_in_run("declare_variable");
  return Var{structure_.variables.add(std::move(info))};
}

Vars Model::declare_variables(std::size_t count, VariableInfo info) {
  prepare_families("declare_variables", count, 1, structure_.variables.size());
  return families<Var, 1>(
      structure_.variables.add_families(count, std::span<const VariableInfo>(&info, 1)), count)[0];
}

Eq Model::declare_equation(std::string name, RowKind kind) {
  refuse_in_run("declare_equation");
  return Eq{structure_.equations.add(EquationInfo{std::move(name), kind})};
}

Eqs Model::declare_equations(std::size_t count, std::string name, RowKind kind) {
  prepare_families("declare_equations", count, 1, structure_.equations.size());
  const EquationInfo info{std::move(name), kind};
  return families<Eq, 1>(
      structure_.equations.add_families(count, std::span<const EquationInfo>(&info, 1)), count)[0];
}

Out Model::declare_output(std::string name, std::string unit) {
  refuse_in_run("declare_output");
  structure_.outputs.push_back(OutputInfo{std::move(name), std::move(unit)});
  return Out{structure_.outputs.size() - 1};
}

Crossing Model::declare_crossing(std::string name, CrossingDirection direction, double nominal) {
  refuse_in_run("declare_crossing");
  structure_.crossings.push_back(CrossingInfo{std::move(name), direction, nominal});
  return Crossing{structure_.crossings.size() - 1};
}

TimeEvent Model::declare_time_event(std::string name) {
  refuse_in_run("declare_time_event");
  structure_.time_events.push_back(TimeEventInfo{std::move(name)});
  return TimeEvent{structure_.time_events.size() - 1};
}

void Model::declare_dependency(Eq e, Var v) {
  refuse_in_run("declare_dependency");
  structure_.sparsity.add(SparsityEntry{e.index, v.index});
}

void Model::declare_dependency(Eqs e, Vars v, std::ptrdiff_t offset) {
  refuse_in_run("declare_dependency");
  // Beyond the larger family's size (or 1) an offset pairs no elements at all: a mistake, and
  // the arithmetic of the pattern (i + offset, -offset) must not overflow.
  const std::size_t larger = std::max({e.count, v.count, std::size_t{1}});
  const auto limit = static_cast<std::ptrdiff_t>(
      std::min(larger, static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max())));
  if (offset > limit || offset < -limit) {
    throw ModelError(fmt::format(
        "model '{}': declare_dependency: offset {} is outside [-{}, {}] (the larger family's "
        "size), where it pairs no elements",
        structure_.name, offset, limit, limit));
  }
  structure_.sparsity.add_family({.first_row = e.first,
                                  .row_stride = e.stride,
                                  .rows = e.count,
                                  .first_col = v.first,
                                  .col_stride = v.stride,
                                  .cols = v.count,
                                  .offset = offset});
}

void Model::set_start(Var v, double start) {
  refuse_in_run_unless_varying("set_start");
  structure_.variables.set_start(detail::checked("variable", v.index, structure_.variables.size()),
                                 start);
}

VariableInfo& Model::own_description(Var v, const char* what) {
  const std::size_t j = detail::checked("variable", v.index, structure_.variables.size());
  const detail::DeclarationPlace place = structure_.variables.layout().locate(j);
  if (place.group->indexed && place.group->count > 1) {
    throw ModelError(fmt::format("model '{}': variable '{}' shares its {} with its family '{}'",
                                 structure_.name, structure_.variables.name(j), what,
                                 structure_.variables.declared(j).name));
  }
  return structure_.variables.declared(j);
}

void Model::set_nominal(Var v, double nominal) {
  refuse_in_run_unless_varying("set_nominal");
  own_description(v, "nominal value").nominal = nominal;
}

void Model::set_der_start(Var v, double der_start) {
  refuse_in_run_unless_varying("set_der_start");
  own_description(v, "der_start").der_start = der_start;
}

void Model::set_nominal(Vars v, double nominal) {
  refuse_in_run_unless_varying("set_nominal");
  if (v.count == 0) return;
  structure_.variables.declared(detail::checked("variable", v.first, structure_.variables.size()))
      .nominal = nominal;
}

CrossingInfo& Model::crossing(Crossing c) {
  refuse_in_run_unless_varying("crossing");
  return structure_.crossings[detail::checked("crossing", c.index, structure_.crossings.size())];
}

}  // namespace hdae
