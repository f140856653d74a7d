// The consistent derivatives after a jump (docs/design.md, "The jump solve"): der_x from
// J der_x = rhs with J = [M_d; d f_c/dx] and rhs = [-b_d; -d f_c/dt] at the state x^+ the jump
// solve found (jump_solver.hpp), for the problem of the same JumpProblem.
#pragma once

#include <span>

#include "reinit/jump_solver.hpp"

namespace hdae::reinit {

/// der_x consistent with x; the status names equations and variables when J is singular.
[[nodiscard]] DerivativeOutcome consistent_derivatives(const JumpProblem& problem,
                                                       std::span<const double> x);

}  // namespace hdae::reinit
