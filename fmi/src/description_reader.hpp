// Reading the attributes of modelDescription.xml with pugixml, with messages that name the FMU,
// the line and the element: shared by the FMI 3.0 and 2.0 readers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <pugixml.hpp>

#include "model_description.hpp"

namespace hdae::fmi::detail {

class DescriptionReader {
 public:
  /// text is the whole file (its lines number the messages).
  /// wanted: the interface asked for (LoadOptions::fmi_interface).
  /// file: the file's path in the FMU, for messages.
  DescriptionReader(std::string fmu_name, std::string text, std::optional<Interface> wanted = {},
                    std::string file = "modelDescription.xml")
      : fmu_name_(std::move(fmu_name)),
        text_(std::move(text)),
        wanted_(wanted),
        file_(std::move(file)) {}

  [[nodiscard]] const std::string& fmu_name() const { return fmu_name_; }
  /// The line of node in the file, counted from 1.
  [[nodiscard]] std::size_t line(const pugi::xml_node& node) const;
  /// IoError "FMU '<fmu>': <file> line <n>: <what>".
  [[noreturn]] void fail(const pugi::xml_node& node, const std::string& what) const;

  /// The attribute's text; IoError naming node and attribute when it is missing.
  [[nodiscard]] std::string text(const pugi::xml_node& node, const char* attribute) const;
  /// The attribute as a finite or infinite double (not NaN); nullopt when missing.
  [[nodiscard]] std::optional<double> number(const pugi::xml_node& node,
                                             const char* attribute) const;
  /// The attribute as an unsigned 32-bit integer; IoError when missing or not one.
  [[nodiscard]] std::uint32_t unsigned_integer(const pugi::xml_node& node,
                                               const char* attribute) const;
  /// "true" or "false" (absent: fallback); IoError for another text.
  [[nodiscard]] bool boolean(const pugi::xml_node& node, const char* attribute,
                             bool fallback) const;
  /// "<Element name=\"n\">" or "<Element>", for messages.
  [[nodiscard]] static std::string describe(const pugi::xml_node& node);

  /// The parts of the FmuInfo the root, the interface's element and <DefaultExperiment> give,
  /// the same in both versions (the interface element's needsCompletedIntegratorStep differs
  /// and is read by each version's reader). IoError when the FMU has neither <ModelExchange>
  /// nor <CoSimulation>, or not the one asked for.
  void read_common_info(const pugi::xml_node& root, FmuInfo& info) const;

 private:
  /// The element of the interface imported (Model Exchange unless asked for otherwise or
  /// absent), with info.fmi_interface set to it.
  [[nodiscard]] pugi::xml_node interface_element(const pugi::xml_node& root, FmuInfo& info) const;

  std::string fmu_name_;
  std::string text_;
  std::optional<Interface> wanted_;
  std::string file_;
};

}  // namespace hdae::fmi::detail
