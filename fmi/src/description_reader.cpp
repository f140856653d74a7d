// DescriptionReader (description_reader.hpp) and read_model_description, which picks the
// reader of the file's FMI version.
#include "description_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::fmi::detail {

// The version readers (description_fmi3.cpp, description_fmi2.cpp).
ModelDescription read_fmi3_description(const DescriptionReader& reader, const pugi::xml_node& root);
ModelDescription read_fmi2_description(const DescriptionReader& reader, const pugi::xml_node& root);

std::size_t DescriptionReader::line(const pugi::xml_node& node) const {
  const std::ptrdiff_t offset = node.offset_debug();
  if (offset < 0) return 0;
  const auto end = text_.begin() + std::min<std::ptrdiff_t>(offset, std::ssize(text_));
  return 1 + static_cast<std::size_t>(std::count(text_.begin(), end, '\n'));
}

void DescriptionReader::fail(const pugi::xml_node& node, const std::string& what) const {
  throw IoError(fmt::format("FMU '{}': {} line {}: {}", fmu_name_, file_, line(node), what));
}

std::string DescriptionReader::describe(const pugi::xml_node& node) {
  const pugi::xml_attribute name = node.attribute("name");
  if (name) return fmt::format("<{} name=\"{}\">", node.name(), name.value());
  return fmt::format("<{}>", node.name());
}

std::string DescriptionReader::text(const pugi::xml_node& node, const char* attribute) const {
  const pugi::xml_attribute a = node.attribute(attribute);
  if (!a) fail(node, fmt::format("{} has no attribute {}", describe(node), attribute));
  return a.value();
}

std::optional<double> DescriptionReader::number(const pugi::xml_node& node,
                                                const char* attribute) const {
  const pugi::xml_attribute a = node.attribute(attribute);
  if (!a) return std::nullopt;
  const std::string_view s = a.value();
  double value = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || std::isnan(value)) {
    fail(node,
         fmt::format("{} has {}=\"{}\", which is not a number", describe(node), attribute, s));
  }
  return value;
}

std::uint32_t DescriptionReader::unsigned_integer(const pugi::xml_node& node,
                                                  const char* attribute) const {
  const std::string s = text(node, attribute);
  std::uint32_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size()) {
    fail(node, fmt::format("{} has {}=\"{}\", which is not an unsigned integer", describe(node),
                           attribute, s));
  }
  return value;
}

bool DescriptionReader::boolean(const pugi::xml_node& node, const char* attribute,
                                bool fallback) const {
  const pugi::xml_attribute a = node.attribute(attribute);
  if (!a) return fallback;
  const std::string_view s = a.value();
  if (s == "true") return true;
  if (s == "false") return false;
  fail(node, fmt::format("{} has {}=\"{}\", which is neither true nor false", describe(node),
                         attribute, s));
}

pugi::xml_node DescriptionReader::interface_element(const pugi::xml_node& root,
                                                    FmuInfo& info) const {
  const pugi::xml_node me = root.child("ModelExchange");
  const pugi::xml_node cs = root.child("CoSimulation");
  if (!me && !cs) {
    fail(root,
         "the FMU has neither a <ModelExchange> nor a <CoSimulation> element: hdae can run "
         "neither interface of it");
  }
  // Model Exchange first: hdae's own solvers and event handling then run the model.
  info.fmi_interface = wanted_.value_or(me ? Interface::kModelExchange : Interface::kCoSimulation);
  if (info.fmi_interface == Interface::kModelExchange) {
    if (!me) fail(root, "Model Exchange was asked for, but the FMU has no <ModelExchange> element");
    return me;
  }
  if (!cs) fail(root, "Co-Simulation was asked for, but the FMU has no <CoSimulation> element");
  return cs;
}

void DescriptionReader::read_common_info(const pugi::xml_node& root, FmuInfo& info) const {
  info.fmi_version = text(root, "fmiVersion");
  info.model_name = text(root, "modelName");
  info.generation_tool = root.attribute("generationTool").value();
  info.description = root.attribute("description").value();
  const pugi::xml_node element = interface_element(root, info);
  info.model_identifier = text(element, "modelIdentifier");
  if (const pugi::xml_node experiment = root.child("DefaultExperiment")) {
    info.start_s = number(experiment, "startTime").value_or(0.0);
    info.stop_s = number(experiment, "stopTime");
    info.tolerance = number(experiment, "tolerance");
  }
}

namespace {

std::string read_text(const std::filesystem::path& xml, const std::string& fmu_name) {
  std::ifstream in(xml, std::ios::binary);
  if (!in) throw IoError(fmt::format("FMU '{}' has no modelDescription.xml", fmu_name));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

ModelDescription read_model_description(const std::filesystem::path& xml,
                                        const std::string& fmu_name,
                                        std::optional<Interface> wanted) {
  std::string text = read_text(xml, fmu_name);
  const DescriptionReader reader(fmu_name, text, wanted);
  pugi::xml_document document;
  const pugi::xml_parse_result parsed = document.load_buffer(text.data(), text.size());
  if (!parsed) {
    const auto end = text.begin() + std::min<std::ptrdiff_t>(parsed.offset, std::ssize(text));
    throw IoError(fmt::format("FMU '{}': modelDescription.xml line {}: {}", fmu_name,
                              1 + std::count(text.begin(), end, '\n'), parsed.description()));
  }
  const pugi::xml_node root = document.child("fmiModelDescription");
  if (!root) {
    throw IoError(fmt::format("FMU '{}': modelDescription.xml has no <fmiModelDescription> element",
                              fmu_name));
  }
  const std::string version = reader.text(root, "fmiVersion");
  if (version.starts_with("3.")) return read_fmi3_description(reader, root);
  if (version.starts_with("2.")) return read_fmi2_description(reader, root);
  reader.fail(root, fmt::format("fmiVersion \"{}\" is not supported (2.0 and 3.0 are)", version));
}

}  // namespace hdae::fmi::detail
