// The FMI 2.0 modelDescription.xml (FMI 2.0 specification, section 2.2): every variable is a
// <ScalarVariable> with a child naming its type (<Real .../>), and <ModelStructure> refers to
// variables by their position in <ModelVariables>, counted from 1: <Derivatives> lists the state
// derivatives in the order of the state vector, each <Real> with derivative="<index of its
// state>". Event indicators have no variables, only their number (numberOfEventIndicators).
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "description_reader.hpp"

namespace hdae::fmi::detail {
namespace {

struct Variable {
  pugi::xml_node node;
  ScalarVariable scalar;
  std::string causality;
  std::string variability;
  bool real = false;  ///< a <Real> variable
};

using Units = std::map<std::string, std::string, std::less<>>;

/// The unit of every <SimpleType> of type <Real> by its name.
Units type_units(const pugi::xml_node& root) {
  Units units;
  for (const pugi::xml_node type : root.child("TypeDefinitions").children("SimpleType")) {
    if (const pugi::xml_node real = type.child("Real")) {
      units[type.attribute("name").value()] = real.attribute("unit").value();
    }
  }
  return units;
}

Variable read_variable(const DescriptionReader& reader, const pugi::xml_node& node,
                       const Units& units) {
  Variable v;
  v.node = node;
  v.scalar.name = reader.text(node, "name");
  v.scalar.value_reference = reader.unsigned_integer(node, "valueReference");
  v.scalar.description = node.attribute("description").value();
  v.causality = node.attribute("causality").as_string("local");
  const pugi::xml_node real = node.child("Real");
  v.real = static_cast<bool>(real);
  v.variability = node.attribute("variability").as_string(v.real ? "continuous" : "discrete");
  if (!v.real) return v;
  v.scalar.unit = real.attribute("unit").value();
  if (v.scalar.unit.empty()) {
    if (const auto it = units.find(real.attribute("declaredType").value()); it != units.end()) {
      v.scalar.unit = it->second;
    }
  }
  v.scalar.start = reader.number(real, "start");
  v.scalar.nominal = reader.number(real, "nominal");
  v.scalar.min = reader.number(real, "min");
  v.scalar.max = reader.number(real, "max");
  return v;
}

std::vector<Variable> read_variables(const DescriptionReader& reader, const pugi::xml_node& root) {
  const pugi::xml_node list = root.child("ModelVariables");
  if (!list) reader.fail(root, "there is no <ModelVariables> element");
  const Units units = type_units(root);
  std::vector<Variable> variables;
  for (const pugi::xml_node node : list.children("ScalarVariable")) {
    variables.push_back(read_variable(reader, node, units));
  }
  return variables;
}

/// The <Real> variable at the 1-based position the attribute of node gives.
const Variable& at_index(const DescriptionReader& reader, const std::vector<Variable>& variables,
                         const pugi::xml_node& node, const char* attribute) {
  const std::uint32_t index = reader.unsigned_integer(node, attribute);
  if (index == 0 || index > variables.size()) {
    reader.fail(node, fmt::format("{}=\"{}\" is no variable's index (1 to {})", attribute, index,
                                  variables.size()));
  }
  const Variable& v = variables[index - 1];
  if (!v.real) {
    reader.fail(node, fmt::format("{}=\"{}\" refers to {}, which is not a Real", attribute, index,
                                  DescriptionReader::describe(v.node)));
  }
  return v;
}

void read_structure(const DescriptionReader& reader, const pugi::xml_node& root,
                    const std::vector<Variable>& variables, ModelDescription& d) {
  const pugi::xml_node structure = root.child("ModelStructure");
  for (const pugi::xml_node node : structure.child("Derivatives").children("Unknown")) {
    const Variable& derivative = at_index(reader, variables, node, "index");
    const pugi::xml_node real = derivative.node.child("Real");
    if (!real.attribute("derivative")) {
      reader.fail(derivative.node, fmt::format("{} is listed as a state derivative but its <Real> "
                                               "has no attribute derivative",
                                               DescriptionReader::describe(derivative.node)));
    }
    const Variable& state = at_index(reader, variables, real, "derivative");
    d.states.push_back({state.scalar, derivative.scalar});
  }
  for (const pugi::xml_node node : structure.child("Outputs").children("Unknown")) {
    const Variable& output = at_index(reader, variables, node, "index");
    d.outputs.push_back(output.scalar);
  }
}

}  // namespace

ModelDescription read_fmi2_description(const DescriptionReader& reader,
                                       const pugi::xml_node& root) {
  ModelDescription d;
  d.version = FmiVersion::kFmi2;
  reader.read_common_info(root, d.info);
  if (d.info.fmi_interface == Interface::kCoSimulation) {
    reader.fail(root,
                "FMI 2.0 Co-Simulation FMUs cannot be run (FMI 2.0 Model Exchange and FMI 3.0 "
                "Co-Simulation can)");
  }
  d.instantiation_token = reader.text(root, "guid");
  // FMI 2.0 says it the other way round: the step call may be left out when this is true.
  d.info.needs_completed_integrator_step =
      !reader.boolean(root.child("ModelExchange"), "completedIntegratorStepNotNeeded", false);
  d.info.provides_directional_derivatives =
      reader.boolean(root.child("ModelExchange"), "providesDirectionalDerivative", false);
  const std::vector<Variable> variables = read_variables(reader, root);
  read_structure(reader, root, variables, d);
  const std::uint32_t indicators = root.attribute("numberOfEventIndicators")
                                       ? reader.unsigned_integer(root, "numberOfEventIndicators")
                                       : 0;
  for (std::uint32_t k = 1; k <= indicators; ++k) {
    d.event_indicators.push_back(fmt::format("event indicator {}", k));
  }
  for (const Variable& v : variables) {
    const bool parameter =
        v.causality == "parameter" && (v.variability == "fixed" || v.variability == "tunable");
    if (!v.real || (!parameter && v.causality != "input")) continue;
    if (!v.scalar.start) {
      reader.fail(v.node, fmt::format("the {} {} has no start value", v.causality,
                                      DescriptionReader::describe(v.node)));
    }
    (parameter ? d.parameters : d.inputs).push_back(v.scalar);
  }
  return d;
}

}  // namespace hdae::fmi::detail
