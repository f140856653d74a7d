// documentation/index.html of an exported FMU (fmu_export/): the model, its variables and
// parameters, and how the FMU behaves (events inside fmi3DoStep, what it does not support), for
// a person who opens the FMU without hdae at hand.
#pragma once

#include <string>

#include "hdae/model.hpp"

namespace hdae::fmu_export {

[[nodiscard]] std::string documentation_html(const ModelStructure& structure,
                                             const std::string& description);

}  // namespace hdae::fmu_export
