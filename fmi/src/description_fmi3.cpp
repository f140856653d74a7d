// The FMI 3.0 modelDescription.xml (FMI 3.0 specification, section 2.4): variables are elements
// named by their type (<Float64 .../>) addressed by valueReference; <ModelStructure> lists the
// state derivatives in the order of the state vector (<ContinuousStateDerivative>, whose
// variable's derivative attribute is its state's value reference), the <EventIndicator>s and
// the <Output>s.
#include <map>
#include <string>

#include <fmt/format.h>

#include "description_reader.hpp"

namespace hdae::fmi::detail {
namespace {

struct Variable {
  pugi::xml_node node;
  ScalarVariable scalar;
  std::string causality;
  std::string variability;
  bool float64 = false;  ///< <Float64>, not an array (no <Dimension>)
};

using Units = std::map<std::string, std::string, std::less<>>;
using Variables = std::map<std::uint32_t, Variable>;

/// The unit of every <Float64Type> by its name.
Units type_units(const pugi::xml_node& root) {
  Units units;
  for (const pugi::xml_node type : root.child("TypeDefinitions").children("Float64Type")) {
    units[type.attribute("name").value()] = type.attribute("unit").value();
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
  v.float64 = std::string_view(node.name()) == "Float64" && !node.child("Dimension");
  v.variability = node.attribute("variability").as_string(v.float64 ? "continuous" : "discrete");
  if (!v.float64) return v;
  v.scalar.unit = node.attribute("unit").value();
  if (v.scalar.unit.empty()) {
    if (const auto it = units.find(node.attribute("declaredType").value()); it != units.end()) {
      v.scalar.unit = it->second;
    }
  }
  v.scalar.start = reader.number(node, "start");
  v.scalar.nominal = reader.number(node, "nominal");
  v.scalar.min = reader.number(node, "min");
  v.scalar.max = reader.number(node, "max");
  return v;
}

Variables read_variables(const DescriptionReader& reader, const pugi::xml_node& root) {
  const pugi::xml_node list = root.child("ModelVariables");
  if (!list) reader.fail(root, "there is no <ModelVariables> element");
  const Units units = type_units(root);
  Variables variables;
  for (const pugi::xml_node node : list.children()) {
    if (node.type() != pugi::node_element) continue;
    Variable v = read_variable(reader, node, units);
    const std::uint32_t vr = v.scalar.value_reference;
    if (const auto it = variables.find(vr); it != variables.end()) {
      reader.fail(node, fmt::format("{} has valueReference {}, which {} has too",
                                    DescriptionReader::describe(node), vr,
                                    DescriptionReader::describe(it->second.node)));
    }
    variables.emplace(vr, std::move(v));
  }
  return variables;
}

/// The Float64 variable an element of <ModelStructure> refers to.
const Variable& referenced(const DescriptionReader& reader, const Variables& variables,
                           const pugi::xml_node& node, const char* attribute) {
  const std::uint32_t vr = reader.unsigned_integer(node, attribute);
  const auto it = variables.find(vr);
  if (it == variables.end()) {
    reader.fail(node, fmt::format("<{}> refers to valueReference {}, which no variable has",
                                  node.name(), vr));
  }
  if (!it->second.float64) {
    reader.fail(node, fmt::format("<{}> refers to {}, which is not a scalar Float64 (not "
                                  "supported)",
                                  node.name(), DescriptionReader::describe(it->second.node)));
  }
  return it->second;
}

void read_structure(const DescriptionReader& reader, const pugi::xml_node& root,
                    const Variables& variables, ModelDescription& d) {
  const pugi::xml_node structure = root.child("ModelStructure");
  for (const pugi::xml_node node : structure.children("ContinuousStateDerivative")) {
    const Variable& derivative = referenced(reader, variables, node, "valueReference");
    if (!derivative.node.attribute("derivative")) {
      reader.fail(derivative.node, fmt::format("{} is listed as a state derivative but has no "
                                               "attribute derivative",
                                               DescriptionReader::describe(derivative.node)));
    }
    const Variable& state = referenced(reader, variables, derivative.node, "derivative");
    d.states.push_back({state.scalar, derivative.scalar});
  }
  for (const pugi::xml_node node : structure.children("EventIndicator")) {
    d.event_indicators.push_back(referenced(reader, variables, node, "valueReference").scalar.name);
  }
  for (const pugi::xml_node node : structure.children("Output")) {
    const auto it = variables.find(reader.unsigned_integer(node, "valueReference"));
    if (it != variables.end() && it->second.float64) d.outputs.push_back(it->second.scalar);
  }
}

/// Float64 parameters that may be set before a run, and Float64 inputs.
void read_settable(const DescriptionReader& reader, const pugi::xml_node& root,
                   const Variables& variables, ModelDescription& d) {
  // In the order of the file, which is how their authors list them.
  for (const pugi::xml_node node : root.child("ModelVariables").children()) {
    if (node.type() != pugi::node_element) continue;
    const Variable& v = variables.at(reader.unsigned_integer(node, "valueReference"));
    const bool parameter =
        v.causality == "parameter" && (v.variability == "fixed" || v.variability == "tunable");
    const bool input = v.causality == "input";
    if (!v.float64 || (!parameter && !input)) continue;
    if (!v.scalar.start) {
      reader.fail(v.node, fmt::format("the {} {} has no start value", v.causality,
                                      DescriptionReader::describe(v.node)));
    }
    (parameter ? d.parameters : d.inputs).push_back(v.scalar);
  }
}

}  // namespace

ModelDescription read_fmi3_description(const DescriptionReader& reader,
                                       const pugi::xml_node& root) {
  ModelDescription d;
  d.version = FmiVersion::kFmi3;
  reader.read_common_info(root, d.info);
  d.instantiation_token = reader.text(root, "instantiationToken");
  d.info.needs_completed_integrator_step =
      reader.boolean(root.child("ModelExchange"), "needsCompletedIntegratorStep", false);
  d.info.provides_directional_derivatives =
      reader.boolean(root.child("ModelExchange"), "providesDirectionalDerivatives", false);
  d.has_event_mode = reader.boolean(root.child("CoSimulation"), "hasEventMode", false);
  const Variables variables = read_variables(reader, root);
  read_structure(reader, root, variables, d);
  read_settable(reader, root, variables, d);
  for (const auto& [vr, v] : variables) {
    d.variables[vr] = {v.scalar, v.node.name(), v.causality, v.float64};
  }
  return d;
}

}  // namespace hdae::fmi::detail
