// modelDescription.xml (model_description.hpp).
#include "model_description.hpp"

#include <cmath>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <pugixml.hpp>

#include "hdae/version.hpp"
#include "runtime/fmu_logger.hpp"
#include "variable_layout.hpp"

namespace hdae::fmu_export {
namespace {

/// Numbers round-trip exactly (17 significant digits), as importers read start values.
std::string number(double value) { return fmt::format("{:.17g}", value); }

void add_co_simulation(pugi::xml_node root, const std::string& identifier) {
  pugi::xml_node cs = root.append_child("CoSimulation");
  cs.append_attribute("modelIdentifier") = identifier.c_str();
  cs.append_attribute("canHandleVariableCommunicationStepSize") = "true";
  cs.append_attribute("canGetAndSetFMUState") = "false";
  cs.append_attribute("canSerializeFMUState") = "false";
  cs.append_attribute("providesDirectionalDerivatives") = "false";
  cs.append_attribute("providesAdjointDerivatives") = "false";
  cs.append_attribute("canBeInstantiatedOnlyOncePerProcess") = "false";
  cs.append_attribute("hasEventMode") = "false";
  // At the first event in a step, when the importer allows it (earlyReturnAllowed).
  cs.append_attribute("mightReturnEarlyFromDoStep") = "true";
  cs.append_attribute("providesIntermediateUpdate") = "false";
  cs.append_attribute("canReturnEarlyAfterIntermediateUpdate") = "false";
}

void add_units(pugi::xml_node root, const ModelStructure& s) {
  std::set<std::string> units{"s"};
  for (std::size_t j = 0; j < s.variables.size(); ++j) {
    const VariableInfo& v = s.variables.declared(j);
    units.insert(v.unit);
    units.insert(v.der_unit);
  }
  for (const OutputInfo& o : s.outputs) units.insert(o.unit);
  for (const ParameterInfo& p : s.parameters) units.insert(p.unit);
  units.erase("");
  pugi::xml_node definitions = root.append_child("UnitDefinitions");
  for (const std::string& u : units) {
    definitions.append_child("Unit").append_attribute("name") = u.c_str();
  }
}

void add_log_categories(pugi::xml_node root) {
  pugi::xml_node categories = root.append_child("LogCategories");
  const std::pair<const char*, const char*> all[] = {
      {kLogError, "errors, reported whatever the logging setting"},
      {kLogEvents, "the events handled inside fmi3DoStep, with their jumps"},
      {kLogSolver, "warnings of the integrator and the event handling"}};
  for (const auto& [name, text] : all) {
    pugi::xml_node c = categories.append_child("Category");
    c.append_attribute("name") = name;
    c.append_attribute("description") = text;
  }
}

void add_experiment(pugi::xml_node root, const SimulationOptions& o) {
  pugi::xml_node e = root.append_child("DefaultExperiment");
  e.append_attribute("startTime") = number(o.start_s).c_str();
  e.append_attribute("stopTime") = number(o.stop_s).c_str();
  e.append_attribute("tolerance") = number(o.rel_tol).c_str();
  e.append_attribute("stepSize") = number(o.resolved_output_interval_s()).c_str();
}

pugi::xml_node add_float64(pugi::xml_node vars, const std::string& name, std::uint32_t vr,
                           const char* causality, const char* variability,
                           const std::string& unit) {
  pugi::xml_node v = vars.append_child("Float64");
  v.append_attribute("name") = name.c_str();
  v.append_attribute("valueReference") = vr;
  v.append_attribute("causality") = causality;
  v.append_attribute("variability") = variability;
  if (!unit.empty()) v.append_attribute("unit") = unit.c_str();
  return v;
}

void add_unknowns(pugi::xml_node vars, const ModelStructure& s, const VariableLayout& layout) {
  for (std::size_t j = 0; j < s.variables.size(); ++j) {
    const VariableInfo& d = s.variables.declared(j);
    pugi::xml_node x = add_float64(vars, s.variables.name(j), layout.reference(Quantity::kState, j),
                                   "output", "continuous", d.unit);
    x.append_attribute("initial") = "approx";
    x.append_attribute("start") = number(s.variables.start(j)).c_str();
    if (d.nominal != 1.0) x.append_attribute("nominal") = number(d.nominal).c_str();
  }
  for (std::size_t j = 0; j < s.variables.size(); ++j) {
    pugi::xml_node der =
        add_float64(vars, s.variables.der_name(j), layout.reference(Quantity::kDerivative, j),
                    "local", "continuous", s.variables.declared(j).der_unit);
    der.append_attribute("initial") = "calculated";
    der.append_attribute("derivative") = layout.reference(Quantity::kState, j);
  }
}

void add_parameters(pugi::xml_node vars, const ModelStructure& s, const VariableLayout& layout) {
  for (std::size_t i = 0; i < s.parameters.size(); ++i) {
    const ParameterInfo& p = s.parameters[i];
    const std::uint32_t vr = layout.reference(Quantity::kParameter, i);
    pugi::xml_node v = p.integer ? add_float64(vars, p.name, vr, "local", "constant", p.unit)
                                 : add_float64(vars, p.name, vr, "parameter", "fixed", p.unit);
    if (!p.description.empty()) v.append_attribute("description") = p.description.c_str();
    v.append_attribute("start") = number(p.value).c_str();
    if (std::isfinite(p.min)) v.append_attribute("min") = number(p.min).c_str();
    if (std::isfinite(p.max)) v.append_attribute("max") = number(p.max).c_str();
  }
}

void add_variables(pugi::xml_node root, const ModelStructure& s, const VariableLayout& layout) {
  pugi::xml_node vars = root.append_child("ModelVariables");
  add_float64(vars, "time", 0, "independent", "continuous", "s");
  add_unknowns(vars, s, layout);
  for (std::size_t k = 0; k < s.outputs.size(); ++k) {
    add_float64(vars, s.outputs[k].name, layout.reference(Quantity::kOutput, k), "output",
                "continuous", s.outputs[k].unit)
        .append_attribute("initial") = "calculated";
  }
  add_parameters(vars, s, layout);
}

/// Every output, also as an unknown of the initialization (its value is computed there).
void add_structure(pugi::xml_node root, const ModelStructure& s, const VariableLayout& layout) {
  pugi::xml_node structure = root.append_child("ModelStructure");
  for (const char* element : {"Output", "InitialUnknown"}) {
    for (std::size_t j = 0; j < s.variables.size(); ++j) {
      structure.append_child(element).append_attribute("valueReference") =
          layout.reference(Quantity::kState, j);
    }
    for (std::size_t k = 0; k < s.outputs.size(); ++k) {
      structure.append_child(element).append_attribute("valueReference") =
          layout.reference(Quantity::kOutput, k);
    }
  }
}

}  // namespace

std::string model_description_xml(const ModelStructure& structure, const DescriptionInfo& info) {
  const VariableLayout layout(structure);
  pugi::xml_document doc;
  pugi::xml_node declaration = doc.append_child(pugi::node_declaration);
  declaration.append_attribute("version") = "1.0";
  declaration.append_attribute("encoding") = "UTF-8";
  pugi::xml_node root = doc.append_child("fmiModelDescription");
  root.append_attribute("fmiVersion") = "3.0";
  root.append_attribute("modelName") = structure.name.c_str();
  root.append_attribute("instantiationToken") = instantiation_token(structure).c_str();
  root.append_attribute("description") = info.description.c_str();
  root.append_attribute("generationTool") = fmt::format("hdae {}", kVersion).c_str();
  root.append_attribute("variableNamingConvention") = "flat";
  add_co_simulation(root, info.model_identifier);
  add_units(root, structure);
  add_log_categories(root);
  add_experiment(root, info.experiment);
  add_variables(root, structure, layout);
  add_structure(root, structure, layout);
  std::ostringstream text;
  doc.save(text, "  ", pugi::format_default, pugi::encoding_utf8);
  return text.str();
}

}  // namespace hdae::fmu_export
