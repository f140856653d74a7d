// Equations that only name a derivative, der(x_a) = x_b (slot_layout.hpp): found from the
// signature and confirmed on the equation's values.
#pragma once

#include <span>
#include <vector>

#include "hdae/physics_model.hpp"
#include "hdae/structure.hpp"
#include "slot_layout.hpp"

namespace hdae::reduction {

/// The equations of the analysed mode that read exactly c (der(x_a) - x_b) for a constant
/// c != 0, a != b, with d_a - c_i = 1 and d_b >= c_i: their signature holds der(x_a) and x_b
/// alone, and at points near (t, x, der_x) they vanish where der(x_a) = x_b and change in
/// proportion to der(x_a) - x_b.
[[nodiscard]] std::vector<Alias> find_aliases(const PhysicsModel& model,
                                              const IndexAnalysis& analysis, double t,
                                              std::span<const double> x,
                                              std::span<const double> der_x);

}  // namespace hdae::reduction
