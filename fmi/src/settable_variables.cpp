#include "settable_variables.hpp"

#include <limits>
#include <string>

#include <fmt/format.h>

namespace hdae::fmi::detail {

std::vector<ScalarVariable> settable_variables(const ModelDescription& d) {
  std::vector<ScalarVariable> settable = d.parameters;
  settable.insert(settable.end(), d.inputs.begin(), d.inputs.end());
  return settable;
}

ParameterInfo parameter_info(const ScalarVariable& v, bool input) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  const std::string kind = input ? "input, constant through a run" : "";
  return {.name = v.name,
          .unit = v.unit,
          .value = *v.start,
          .min = v.min.value_or(-kInfinity),
          .max = v.max.value_or(kInfinity),
          .description = kind.empty() || v.description.empty()
                             ? kind + v.description
                             : fmt::format("{}; {}", v.description, kind)};
}

}  // namespace hdae::fmi::detail
