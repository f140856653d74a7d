// Run-time parameters: their rules in ModelStructure::validate, the lookup by name, and the
// modelling layer's declare_parameter / set_parameter (model.hpp, model_builder.hpp).
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"
#include "model/model_in_use.hpp"
#include "model/parameter_rules.hpp"

namespace hdae {
namespace detail {

std::string describe_range(const ParameterInfo& p) {
  const std::string unit = p.unit.empty() ? std::string{} : fmt::format(" {}", p.unit);
  return fmt::format("[{}, {}]{}", p.min, p.max, unit);
}

void check_parameter(const ParameterInfo& p, const std::string& model) {
  if (p.name.empty()) {
    throw ModelError(fmt::format("model '{}': a parameter has an empty name", model));
  }
  if (std::isnan(p.min) || std::isnan(p.max) || p.min > p.max) {
    throw ModelError(fmt::format("model '{}': parameter '{}' has an empty range [{}, {}]", model,
                                 p.name, p.min, p.max));
  }
  if (!std::isfinite(p.value) || p.value < p.min || p.value > p.max) {
    const std::string what = p.description.empty() ? std::string{} : " (" + p.description + ")";
    throw ModelError(
        fmt::format("model '{}': parameter '{}'{} must be a finite number in {}, got {}", model,
                    p.name, what, describe_range(p), p.value));
  }
  if (p.integer && p.value != std::floor(p.value)) {
    const std::string what = p.description.empty() ? std::string{} : " (" + p.description + ")";
    throw ModelError(fmt::format("model '{}': parameter '{}'{} must be an integer, got {}", model,
                                 p.name, what, p.value));
  }
}

std::size_t find_parameter(const ModelStructure& s, std::string_view name) {
  for (std::size_t i = 0; i < s.parameters.size(); ++i) {
    if (s.parameters[i].name == name) return i;
  }
  if (s.parameters.empty()) {
    throw ModelError(
        fmt::format("model '{}' has no parameter '{}' (it declares none)", s.name, name));
  }
  std::string known;
  for (const ParameterInfo& p : s.parameters) {
    known += known.empty() ? p.name : ", " + p.name;
  }
  throw ModelError(
      fmt::format("model '{}' has no parameter '{}'; its parameters are: {}", s.name, name, known));
}

}  // namespace detail

void SimulationModel::set_parameter(std::string_view name, double /*value*/) {
  const ModelStructure& s = structure();
  const std::size_t i = detail::find_parameter(s, name);
  throw ModelError(fmt::format("model '{}' declares parameter '{}' but cannot change it", s.name,
                               s.parameters[i].name));
}

void SimulationModel::vary_parameter(std::string_view name, double /*value*/) {
  const ModelStructure& s = structure();
  const std::size_t i = detail::find_parameter(s, name);
  throw ModelError(fmt::format(
      "model '{}' cannot vary parameter '{}' during a run, which its sensitivities need", s.name,
      s.parameters[i].name));
}

double SimulationModel::parameter(std::string_view name) const {
  const ModelStructure& s = structure();
  return s.parameters[detail::find_parameter(s, name)].value;
}

void Model::clear_declarations() {
  refuse_in_run("clear_declarations");
  structure_.variables.clear();
  structure_.equations.clear();
  std::vector<OutputInfo>().swap(structure_.outputs);
  std::vector<CrossingInfo>().swap(structure_.crossings);
  std::vector<TimeEventInfo>().swap(structure_.time_events);
  structure_.sparsity.clear();
}

Param Model::declare_parameter(ParameterInfo info) {
  refuse_in_run("declare_parameter");
  detail::check_parameter(info, structure_.name);
  for (const ParameterInfo& p : structure_.parameters) {
    if (p.name == info.name) {
      throw ModelError(fmt::format("model '{}': parameter name '{}' is declared twice",
                                   structure_.name, info.name));
    }
  }
  structure_.parameters.push_back(std::move(info));
  return Param{structure_.parameters.size() - 1};
}

void Model::set_parameter(std::string_view name, double value) {
  ParameterInfo& p = structure_.parameters[detail::find_parameter(structure_, name)];
  if (in_simulation()) {
    throw ModelError(fmt::format(
        "model '{}': parameter '{}' cannot be set while a Simulator runs the model; set "
        "parameters before constructing the Simulator",
        structure_.name, p.name));
  }
  ParameterInfo changed = p;
  changed.value = value;
  detail::check_parameter(changed, structure_.name);
  const double old = p.value;
  p.value = value;
  try {
    parameters_changed();
  } catch (...) {
    p.value = old;
    parameters_changed();  // accepted the old value before, so it does again
    throw;
  }
}

void Model::vary_parameter(std::string_view name, double value) {
  ParameterInfo& p = structure_.parameters[detail::find_parameter(structure_, name)];
  p.value = value;
  // parameters_changed() may set start values and nominals that follow the parameter; within
  // a run they are the run's copies no more, so that is harmless, and the value is set back.
  varying_ = true;
  try {
    parameters_changed();
  } catch (...) {
    varying_ = false;
    throw;
  }
  varying_ = false;
}

}  // namespace hdae
