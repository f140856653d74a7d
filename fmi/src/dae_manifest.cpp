// read_dae_manifest (dae_manifest.hpp): the elements of the draft's section 3 that hdae needs,
// <EnableDAEParameter>, <AlgebraicVariables> and the <Residual>s of <ModelStructure>, each
// resolved against the variables of modelDescription.xml.
#include "dae_manifest.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "description_reader.hpp"
#include "hdae/errors.hpp"

namespace hdae::fmi::detail {
namespace {

constexpr std::string_view kStandardName = "org.fmi-standard.fmi-ls-dae";

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The attribute whose name ends in ":<local>" or is <local>: the manifest's attributes of the
/// layered-standard namespace carry whatever prefix the file binds to it.
pugi::xml_attribute namespaced(const pugi::xml_node& node, std::string_view local) {
  for (const pugi::xml_attribute a : node.attributes()) {
    const std::string_view name = a.name();
    const std::size_t colon = name.rfind(':');
    if (name.substr(colon == std::string_view::npos ? 0 : colon + 1) == local) return a;
  }
  return {};
}

bool is_state_column(const ModelDescription& d, std::uint32_t vr) {
  return std::any_of(d.states.begin(), d.states.end(), [&](const ContinuousState& s) {
    return s.state.value_reference == vr || s.derivative.value_reference == vr;
  });
}

/// The variable of modelDescription.xml that node's valueReference names.
const DeclaredVariable& referenced(const DescriptionReader& reader, const ModelDescription& d,
                                   const pugi::xml_node& node) {
  const std::uint32_t vr = reader.unsigned_integer(node, "valueReference");
  const auto it = d.variables.find(vr);
  if (it == d.variables.end()) {
    reader.fail(node, fmt::format("<{}> refers to valueReference {}, which no variable of "
                                  "modelDescription.xml has",
                                  node.name(), vr));
  }
  return it->second;
}

const ScalarVariable& float64(const DescriptionReader& reader, const ModelDescription& d,
                              const pugi::xml_node& node) {
  const DeclaredVariable& v = referenced(reader, d, node);
  if (!v.scalar_float64) {
    reader.fail(node, fmt::format("<{}> refers to {} (valueReference {}), which is a {}, not a "
                                  "scalar Float64",
                                  node.name(), v.scalar.name, v.scalar.value_reference, v.type));
  }
  return v.scalar;
}

ScalarVariable enable_parameter(const DescriptionReader& reader, const ModelDescription& d,
                                const pugi::xml_node& root) {
  const pugi::xml_node node = root.child("EnableDAEParameter");
  if (!node) {
    reader.fail(root,
                "there is no <EnableDAEParameter> element: hdae cannot switch the FMU "
                "into DAE mode");
  }
  const DeclaredVariable& v = referenced(reader, d, node);
  if (v.type != "Boolean" || v.causality != "structuralParameter") {
    reader.fail(node, fmt::format("<EnableDAEParameter> refers to {} (valueReference {}), "
                                  "which is not a Boolean structural parameter",
                                  v.scalar.name, v.scalar.value_reference));
  }
  return v.scalar;
}

std::string names(const std::vector<ScalarVariable>& variables) {
  std::string text;
  for (const ScalarVariable& v : variables) text += (text.empty() ? "" : ", ") + v.name;
  return text.empty() ? "none" : text;
}

DaeStructure read_structure(const DescriptionReader& reader, const ModelDescription& d,
                            const pugi::xml_node& root) {
  DaeStructure dae;
  dae.enable = enable_parameter(reader, d, root);
  for (const pugi::xml_node node : root.child("AlgebraicVariables").children("AlgebraicVariable")) {
    const ScalarVariable& a = float64(reader, d, node);
    if (is_state_column(d, a.value_reference)) {
      reader.fail(node, fmt::format("<AlgebraicVariable> refers to {}, which is a continuous "
                                    "state or a state derivative",
                                    a.name));
    }
    dae.algebraic.push_back(a);
  }
  const pugi::xml_node structure = root.child("ModelStructure");
  for (const pugi::xml_node node : structure.children("Residual")) {
    dae.residuals.push_back(float64(reader, d, node));
  }
  if (dae.residuals.size() != dae.algebraic.size()) {
    reader.fail(structure ? structure : root,
                fmt::format("{} residuals ({}) for {} algebraic variables ({}): a semi-explicit "
                            "index-1 DAE has one residual per algebraic variable",
                            dae.residuals.size(), names(dae.residuals), dae.algebraic.size(),
                            names(dae.algebraic)));
  }
  return dae;
}

}  // namespace

void read_dae_manifest(const std::filesystem::path& unpacked, const std::string& fmu_name,
                       ModelDescription& d) {
  const std::filesystem::path path = unpacked / kDaeManifestPath;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return;
  // The draft layers DAE mode on FMI 3.0 Model Exchange only; other imports run as they are.
  if (d.version != FmiVersion::kFmi3 || d.info.fmi_interface != Interface::kModelExchange) return;
  const std::string text = read_file(path);
  const DescriptionReader reader(fmu_name, text, std::nullopt, kDaeManifestPath);
  pugi::xml_document document;
  const pugi::xml_parse_result parsed = document.load_buffer(text.data(), text.size());
  if (!parsed) {
    const auto end = text.begin() + std::min<std::ptrdiff_t>(parsed.offset, std::ssize(text));
    throw IoError(fmt::format("FMU '{}': {} line {}: {}", fmu_name, kDaeManifestPath,
                              1 + std::count(text.begin(), end, '\n'), parsed.description()));
  }
  const pugi::xml_node root = document.child("fmiDAEManifest");
  if (!root) {
    throw IoError(
        fmt::format("FMU '{}': {} has no <fmiDAEManifest> element (the root element "
                    "of fmi-ls-dae 1.0.0-alpha.1)",
                    fmu_name, kDaeManifestPath));
  }
  const pugi::xml_attribute name = namespaced(root, "fmi-ls-name");
  if (name && name.value() != kStandardName) {
    reader.fail(root,
                fmt::format("fmi-ls-name is \"{}\", not \"{}\"", name.value(), kStandardName));
  }
  d.dae = read_structure(reader, d, root);
}

}  // namespace hdae::fmi::detail
