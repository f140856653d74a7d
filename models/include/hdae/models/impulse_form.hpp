// How a bundled impact model lets its contact forces carry Dirac impulses (docs/design.md,
// "The jump solve"): as the derivative of an integral state the model declares, or as plain
// algebraic unknowns the model marks as impact sources at the impact (EventContext::impulse).
#pragma once

namespace hdae::models {

enum class ImpulseForm {
  kIntegralStates,  ///< F = der(p_int): the impulse is the jump of a state of the model
  kImpactSources,   ///< F algebraic, marked as impact source: the engine integrates over it
};

}  // namespace hdae::models
