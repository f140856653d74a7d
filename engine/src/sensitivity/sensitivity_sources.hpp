// What a sensitivity run differentiates by (SimulationOptions::sensitivities): a parameter of
// the model, or the start value of one of its variables, written "start(<variable>)".
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "hdae/model.hpp"

namespace hdae::detail {

struct SensitivitySource {
  enum class Kind { kParameter, kStart };
  Kind kind = Kind::kParameter;
  std::string name;       ///< as the options name it: "J2", "start(w2)"
  std::size_t index = 0;  ///< the parameter's or the variable's
  /// The magnitude of the parameter or start value: the difference quotients step by a
  /// fraction of it, and the sensitivities' tolerances are the state's divided by it.
  double scale = 1.0;
};

/// The sources the names stand for in the model's structure. OptionError naming the entry: a
/// parameter the model does not have (listing those it has), an integer parameter, a start()
/// of a variable it does not have.
[[nodiscard]] std::vector<SensitivitySource> resolve_sensitivities(
    const ModelStructure& s, std::span<const std::string> names);

}  // namespace hdae::detail
