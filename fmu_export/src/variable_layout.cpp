// The value references and the instantiation token of an exported FMU (variable_layout.hpp).
#include "variable_layout.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "hdae/version.hpp"

namespace hdae::fmu_export {

VariableLayout::VariableLayout(const ModelStructure& structure)
    : unknowns_(structure.variables.size()),
      outputs_(structure.outputs.size()),
      parameters_(structure.parameters.size()) {
  // The references are 32-bit: a model too large for them cannot be exported.
  if (size() > UINT32_MAX) {
    throw std::length_error(
        fmt::format("model '{}' has more than 2^32 variables to export", structure.name));
  }
}

std::uint32_t VariableLayout::reference(Quantity quantity, std::size_t index) const {
  std::size_t first = 0;
  switch (quantity) {
    case Quantity::kTime:
      return 0;
    case Quantity::kState:
      first = 1;
      break;
    case Quantity::kDerivative:
      first = 1 + unknowns_;
      break;
    case Quantity::kOutput:
      first = 1 + 2 * unknowns_;
      break;
    case Quantity::kParameter:
      first = 1 + 2 * unknowns_ + outputs_;
      break;
  }
  return static_cast<std::uint32_t>(first + index);
}

std::optional<LayoutEntry> VariableLayout::find(std::uint32_t vr) const {
  std::size_t rest = vr;
  if (rest == 0) return LayoutEntry{Quantity::kTime, 0};
  rest -= 1;
  const std::pair<Quantity, std::size_t> blocks[] = {{Quantity::kState, unknowns_},
                                                     {Quantity::kDerivative, unknowns_},
                                                     {Quantity::kOutput, outputs_},
                                                     {Quantity::kParameter, parameters_}};
  for (const auto& [quantity, count] : blocks) {
    if (rest < count) return LayoutEntry{quantity, rest};
    rest -= count;
  }
  return std::nullopt;
}

std::string variable_name(const ModelStructure& structure, const LayoutEntry& entry) {
  switch (entry.quantity) {
    case Quantity::kTime:
      return "time";
    case Quantity::kState:
      return structure.variables.name(entry.index);
    case Quantity::kDerivative:
      return structure.variables.der_name(entry.index);
    case Quantity::kOutput:
      return structure.outputs[entry.index].name;
    case Quantity::kParameter:
      return structure.parameters[entry.index].name;
  }
  return {};
}

namespace {

/// FNV-1a, 64 bits: enough to tell exports apart, not a protection against forgery.
class Fingerprint {
 public:
  void add(std::string_view text) {
    for (const char c : text) {
      hash_ ^= static_cast<unsigned char>(c);
      hash_ *= 1099511628211ULL;
    }
    hash_ ^= 0xffU;  // a separator, so that "ab"+"c" and "a"+"bc" differ
    hash_ *= 1099511628211ULL;
  }
  void add(double value) { add(fmt::format("{:.17g}", value)); }
  [[nodiscard]] std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 14695981039346656037ULL;
};

}  // namespace

std::string instantiation_token(const ModelStructure& structure) {
  Fingerprint f;
  f.add(kVersion);
  f.add(structure.name);
  for (std::size_t j = 0; j < structure.variables.size(); ++j) {
    f.add(structure.variables.name(j));
    f.add(structure.variables.start(j));
  }
  for (const OutputInfo& o : structure.outputs) f.add(o.name);
  for (const ParameterInfo& p : structure.parameters) {
    f.add(p.name);
    f.add(p.value);
  }
  return fmt::format("hdae-{}-{}-{:016x}", kVersion, structure.name, f.value());
}

}  // namespace hdae::fmu_export
