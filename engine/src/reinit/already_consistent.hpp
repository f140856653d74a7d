// Whether x^- already meets the jump equations to the tolerance, found more cheaply than by
// the Newton matrix solve_jump would take for it (docs/design.md, "The jump solve").
//
// At x^- (no jump, D = 0) every f_d row's jump equation F(t, x_m, 0) - F(t, x_m, 0) is zero
// exactly; only f_c rows can be off. solve_jump calls x^- consistent when each row's residual,
// over the row's largest entry of dG/dz at nominal-sized changes, is below the tolerance. The
// rows that are zero pass whatever their scale, so only the f_c rows' entries are needed:
// F(t, x^+, 0) with the columns of each colour stepped, one model call per colour where the
// whole matrix takes three. Those entries are the same numbers the whole matrix would hold, so
// the verdict is the same; when it is "not consistent", solve_jump takes the whole matrix for
// its Newton step as before.
#pragma once

#include <Eigen/Dense>

#include "linalg/fd_jacobian.hpp"
#include "reinit/jump_solver.hpp"
#include "reinit/jump_system.hpp"

namespace hdae::reinit {

/// True when z, the initial iterate of system, meets the jump equations to the problem's
/// tolerance, g being G(z), as solve_jump's first Newton matrix would find. False when it does
/// not, when some row other than an f_c row is non-zero, when a matrix entry it needs is not
/// finite, or when the problem has impulses, integrated rows, hidden constraints or a jump
/// base: solve_jump then decides by the whole matrix.
[[nodiscard]] bool already_consistent(const JumpProblem& problem, JumpSystem& system,
                                      const Eigen::VectorXd& z, const Eigen::VectorXd& g,
                                      const linalg::ColouredPattern* pattern);

}  // namespace hdae::reinit
