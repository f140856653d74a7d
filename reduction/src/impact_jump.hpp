// The jump of a reduced model over the Dirac impulses of an impact (docs/design.md, "Impacts in
// reduced models"; ITI paper section 3, eq. 8).
//
// The impulse orders (impulse_orders.hpp) say for every slot x_j^(k) of the reduced system
// whether it is continuous, jumps or carries a Dirac, and for every row F_i^(q) the largest
// order among its terms. The jump solve then takes:
//
//   unknowns: the slots that jump (their right limits), and the integrals of the Dirac
//             impulses of slots that are no other slot's derivative (the contact force's, the
//             rod force's); a Dirac slot x^(k+1) has the jump of x^(k) as its integral
//   rows:     the rows of order -1 at the right limits (the rod at velocity level, the impact
//             law), the equations of order 0 integrated by the midpoint rule of ITI eq. (8):
//             F_i(t, y_m, y_hat) - F_i(t, y_m, 0), y_m the means of the limits of the slots that
//             jump, y_hat the integrals in the Dirac slots.
//
// A row F_i^(q), q >= 1, of order 0 is the derivative of F_i^(q-1), which holds at the right
// limit: its integral adds nothing. Pryce's offsets make the system square (one row per
// assigned variable whose derivatives jump or carry a Dirac). The Dirac slots themselves (the
// accelerations, the forces) keep their left limits: the next pass of the event iteration, in
// the mode after the impact, makes them consistent.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hdae/physics_model.hpp"
#include "hdae/structure.hpp"
#include "slot_layout.hpp"

namespace hdae::reduction {

struct ImpactStructure {
  /// The mode before the impact: the structure the orders follow (its transversal assigns
  /// each equation to the variable that takes up its impulses).
  const SignatureMatrix* before = nullptr;
  std::span<const std::size_t> transversal;
  /// The impact mode's own signature (the impact law in place of the contact row): the rows'
  /// orders follow what they hold now.
  const SignatureMatrix* now = nullptr;
  std::span<const std::size_t> sources;  ///< the original's variables marked as impact sources
};

struct ImpactJump {
  std::vector<double> slots;  ///< the right limits (Dirac slots keep their left limits)
  /// (unknown of the reduced system, integral) for each Dirac impulse of a slot that is no
  /// other slot's derivative: the impulses of the source and of the constraint forces.
  std::vector<std::pair<std::size_t, double>> impulses;
};

/// The jump at t from the left limits y_minus. reduced: the reduced model's structure (names,
/// nominal values, bounds of the slots). ModelError, naming the variables and equations, when
/// an impulse reaches a derivative that would carry a Dirac's derivative, when the jump system
/// is not square or singular, or when Newton's method does not converge.
[[nodiscard]] ImpactJump integrate_impact(const PhysicsModel& model, const SlotLayout& layout,
                                          const ModelStructure& reduced,
                                          const ImpactStructure& impact, double t,
                                          std::span<const double> y_minus);

}  // namespace hdae::reduction
