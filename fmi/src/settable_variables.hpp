// The variables of an FMU that a run may set (`--set`, set_parameter): its Float64 parameters,
// then its inputs, which hdae holds constant through a run; each declared as a parameter of
// the hdae model that stands for the FMU (Model Exchange and Co-Simulation alike).
#pragma once

#include <vector>

#include "hdae/model.hpp"
#include "model_description.hpp"

namespace hdae::fmi::detail {

/// The description's parameters, then its inputs.
[[nodiscard]] std::vector<ScalarVariable> settable_variables(const ModelDescription& d);

/// The parameter a settable variable becomes: its name, unit, start value and bounds; an
/// input says in its description that it is constant through a run.
[[nodiscard]] ParameterInfo parameter_info(const ScalarVariable& v, bool input);

}  // namespace hdae::fmi::detail
