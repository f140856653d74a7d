// modelDescription.xml of an exported Co-Simulation FMU (fmu_export/), written with pugixml
// from the model's structure and the value references of variable_layout.hpp:
//   time             causality independent
//   x (unknowns)     causality output, initial approx with the start value: hdae's start
//                    values are guesses the initial event iteration may change
//   der(x)           causality local, initial calculated, derivative = x's reference: readable,
//                    not connectable (importers connect outputs)
//   w (outputs)      causality output, initial calculated
//   parameters       causality parameter, variability fixed (hdae takes them when the run
//                    starts, at fmi3ExitInitializationMode); a whole-number parameter (a count,
//                    which may change the model's size) is a constant local fixed at export
// Units are declared once each in UnitDefinitions and referred to by the unit attribute.
#pragma once

#include <string>

#include "hdae/model.hpp"
#include "hdae/options.hpp"

namespace hdae::fmu_export {

/// What the description needs besides the structure.
struct DescriptionInfo {
  std::string model_identifier;  ///< the binary's name without .so
  std::string description;       ///< one line about the model
  SimulationOptions experiment;  ///< the DefaultExperiment (start, stop, tolerance, step size)
};

/// The document's text.
[[nodiscard]] std::string model_description_xml(const ModelStructure& structure,
                                                const DescriptionInfo& info);

}  // namespace hdae::fmu_export
