#include "sensitivity/sensitivity_sources.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::detail {
namespace {

/// The variable named inside "start(...)", or empty when name is not of that form.
std::string start_of(const std::string& name) {
  constexpr std::string_view kOpen = "start(";
  if (name.size() <= kOpen.size() + 1 || name.compare(0, kOpen.size(), kOpen) != 0 ||
      name.back() != ')') {
    return {};
  }
  return name.substr(kOpen.size(), name.size() - kOpen.size() - 1);
}

SensitivitySource start_source(const ModelStructure& s, const std::string& name,
                               const std::string& variable) {
  for (std::size_t j = 0; j < s.variables.size(); ++j) {
    if (s.variables.name(j) != variable) continue;
    const double size = std::max(std::abs(s.variables.start(j)), s.variables.nominal(j));
    return {SensitivitySource::Kind::kStart, name, j, size};
  }
  throw OptionError(fmt::format(
      "SimulationOptions::sensitivities: '{}' names a start value, but model '{}' has no "
      "variable '{}'",
      name, s.name, variable));
}

SensitivitySource parameter_source(const ModelStructure& s, const std::string& name) {
  std::size_t i = 0;
  try {
    i = find_parameter(s, name);
  } catch (const ModelError& e) {
    throw OptionError(fmt::format("SimulationOptions::sensitivities: {}", e.what()));
  }
  const ParameterInfo& p = s.parameters[i];
  if (p.integer) {
    throw OptionError(fmt::format(
        "SimulationOptions::sensitivities: parameter '{}' of model '{}' takes whole numbers "
        "only and has no derivative",
        name, s.name));
  }
  const double size = p.value != 0.0 ? std::abs(p.value) : 1.0;
  return {SensitivitySource::Kind::kParameter, name, i, size};
}

}  // namespace

std::vector<SensitivitySource> resolve_sensitivities(const ModelStructure& s,
                                                     std::span<const std::string> names) {
  std::vector<SensitivitySource> sources;
  for (const std::string& name : names) {
    const std::string variable = start_of(name);
    sources.push_back(variable.empty() ? parameter_source(s, name)
                                       : start_source(s, name, variable));
  }
  return sources;
}

}  // namespace hdae::detail
