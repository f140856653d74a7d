// What hdae takes from an FMU's modelDescription.xml, the same for FMI 3.0 and 2.0: the
// identity of the model and its binary, the continuous states with their derivatives, the
// event indicators, and the Float64 parameters, inputs and outputs. Read by
// read_model_description (description_fmi3.cpp, description_fmi2.cpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hdae/fmi.hpp"

namespace hdae::fmi::detail {

enum class FmiVersion { kFmi2, kFmi3 };

/// One Float64 (FMI 2.0: Real) variable.
struct ScalarVariable {
  std::string name;
  std::uint32_t value_reference = 0;
  std::string unit;  ///< its own, else its declared type's; may be empty
  std::string description;
  std::optional<double> start;
  std::optional<double> nominal;
  std::optional<double> min;
  std::optional<double> max;
};

/// One continuous state and the variable that is its derivative, in the order of the FMU's
/// state vector.
struct ContinuousState {
  ScalarVariable state;
  ScalarVariable derivative;
};

/// A variable of an FMI 3.0 description of any type, as a layered standard's manifest refers to
/// it: by value reference.
struct DeclaredVariable {
  ScalarVariable scalar;  ///< name and value reference; the rest for a scalar Float64 only
  std::string type;       ///< the element's name: "Float64", "Boolean", ...
  std::string causality;
  bool scalar_float64 = false;  ///< <Float64> without <Dimension>
};

/// The DAE form of an FMU that follows the layered standard fmi-ls-dae (dae_manifest.hpp):
/// der(x) = f(x, a, t) from the FMU's derivatives, 0 = g(x, a, t) from its residual variables,
/// the algebraic variables a set by the importer.
struct DaeStructure {
  ScalarVariable enable;  ///< the Boolean structural parameter that switches on DAE mode
  std::vector<ScalarVariable> algebraic;
  std::vector<ScalarVariable> residuals;  ///< as many as algebraic variables
};

struct ModelDescription {
  FmiVersion version = FmiVersion::kFmi3;
  FmuInfo info;
  std::string instantiation_token;  ///< FMI 2.0: the guid
  /// FMI 3.0 Co-Simulation: the FMU can hand its events to the importer (hasEventMode).
  bool has_event_mode = false;
  std::vector<ContinuousState> states;
  std::vector<std::string> event_indicators;  ///< a name per indicator, in the FMU's order
  std::vector<ScalarVariable> parameters;     ///< fixed or tunable, with a start value
  std::vector<ScalarVariable> inputs;         ///< with a start value
  std::vector<ScalarVariable> outputs;
  /// FMI 3.0: every variable by value reference (FMI 2.0: empty).
  std::map<std::uint32_t, DeclaredVariable> variables;
  /// Set when the FMU is imported in the DAE mode of fmi-ls-dae.
  std::optional<DaeStructure> dae;
};

/// Reads xml, the modelDescription.xml of the FMU called fmu_name. IoError naming the FMU, the
/// line and what is wrong: no such file, XML that does not parse, an fmiVersion other than 2.x
/// or 3.x, neither a ModelExchange nor a CoSimulation element (or not the one wanted; FMI 2.0
/// Co-Simulation is not imported), a required attribute missing or not a number, a state
/// derivative that names no state.
[[nodiscard]] ModelDescription read_model_description(const std::filesystem::path& xml,
                                                      const std::string& fmu_name,
                                                      std::optional<Interface> wanted = {});

}  // namespace hdae::fmi::detail
