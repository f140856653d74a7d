// The rules every declared parameter obeys (model.hpp, ParameterInfo), shared by
// ModelStructure::validate and the modelling layer.
#pragma once

#include <string>

#include "hdae/model.hpp"

namespace hdae::detail {

/// "[min, max] unit", for messages.
[[nodiscard]] std::string describe_range(const ParameterInfo& p);
/// ModelError naming model and parameter (with its description): empty name, NaN or crossed bounds,
/// a value that is not finite or outside [min, max].
void check_parameter(const ParameterInfo& p, const std::string& model);

}  // namespace hdae::detail
