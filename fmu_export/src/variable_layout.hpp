// The value references of an exported FMU (fmu_export/): one numbering of a model's time,
// unknowns, their derivatives, outputs and parameters, shared by the writer of
// modelDescription.xml (model_description.hpp) and the runtime that answers fmi3GetFloat64
// (runtime/), so the two cannot disagree. The instantiation token, which ties a description to
// the binary and resources it came with, is made here for the same reason.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "hdae/model.hpp"

namespace hdae::fmu_export {

/// What a value reference stands for.
enum class Quantity { kTime, kState, kDerivative, kOutput, kParameter };

/// A value reference resolved: its quantity and the index within that quantity's table
/// (x, der_x, the outputs w or ModelStructure::parameters).
struct LayoutEntry {
  Quantity quantity = Quantity::kTime;
  std::size_t index = 0;
};

/// Value reference 0 is time, then x[0..n), der_x[0..n), w[0..m), parameters[0..p), in that
/// order: the references follow the model's own indices, so a lookup is arithmetic.
class VariableLayout {
 public:
  explicit VariableLayout(const ModelStructure& structure);

  [[nodiscard]] std::uint32_t reference(Quantity quantity, std::size_t index) const;
  /// The entry of value reference vr, or nothing for a reference the model does not have.
  [[nodiscard]] std::optional<LayoutEntry> find(std::uint32_t vr) const;
  /// How many value references there are (the largest plus one).
  [[nodiscard]] std::size_t size() const { return 1 + 2 * unknowns_ + outputs_ + parameters_; }

 private:
  std::size_t unknowns_ = 0;
  std::size_t outputs_ = 0;
  std::size_t parameters_ = 0;
};

/// The name of what vr stands for in the model ("h", "der(h)", a parameter's name, "time").
[[nodiscard]] std::string variable_name(const ModelStructure& structure, const LayoutEntry& entry);

/// A fingerprint of the model as exported: its name, the names of its variables, outputs and
/// parameters, its parameter values and start values, and hdae's version. The description
/// carries it and the runtime recomputes it from the model it builds: a description paired
/// with a binary or resources of another export is refused at instantiation.
[[nodiscard]] std::string instantiation_token(const ModelStructure& structure);

}  // namespace hdae::fmu_export
