// The resources file of an exported bundled model (fmu_settings.hpp).
#include "fmu_settings.hpp"

#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace hdae::fmu_export {

std::string settings_text(const FmuSettings& settings) {
  std::string text = "# hdae FMU: the bundled model and its parameters\n";
  text += fmt::format("model {}\n", settings.model);
  for (const auto& [name, value] : settings.parameters) {
    text += fmt::format("set {} {:.17g}\n", name, value);
  }
  return text;
}

namespace {

double parse_number(const std::string& text, const std::string& where) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) {
    throw std::runtime_error(fmt::format("{}: '{}' is not a number", where, text));
  }
  return value;
}

}  // namespace

FmuSettings read_settings(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(fmt::format("cannot read '{}'", file.string()));
  FmuSettings settings;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = fmt::format("'{}' line {}", file.string(), number);
    if (line.empty() || line.front() == '#') continue;
    std::istringstream words(line);
    std::string keyword, name, value, extra;
    words >> keyword >> name >> value >> extra;
    if (keyword == "model" && !name.empty() && value.empty()) {
      settings.model = name;
    } else if (keyword == "set" && !value.empty() && extra.empty()) {
      settings.parameters.emplace_back(name, parse_number(value, where));
    } else {
      throw std::runtime_error(fmt::format(
          "{}: expected 'model <name>' or 'set <name> <value>', got '{}'", where, line));
    }
  }
  if (settings.model.empty()) {
    throw std::runtime_error(fmt::format("'{}' names no model", file.string()));
  }
  return settings;
}

}  // namespace hdae::fmu_export
