// Which unknowns carry a Dirac impulse at an impact and which equations are integrated over
// it (docs/design.md, "Impacts"; ITI paper section 3.2).
//
// The model names the impact sources (EventContext::impulse): algebraic unknowns such as a
// contact force F that may hold a Dirac impulse F_hat * delta(t - t_e). ITI's iteration
// assigns impulse orders: 0 for a Dirac, -1 for a finite jump, lower for continuous. In an
// index-1 system every f_d row is assigned to the derivative it holds, every f_c row to an
// algebraic unknown, and the iteration reduces to two rules:
//
// - an f_d row takes the largest order of what it holds minus one: a state whose equation of
//   motion holds a Dirac jumps (order -1), one whose equation holds only finite terms stays
//   continuous. The jump solve integrates every f_d row anyway (jump_system.hpp), so these
//   orders need not be stored: the integrated rows say it.
// - an f_c row holding an order-0 unknown has order 0 itself: it is integrated over the
//   impulse, and the algebraic unknowns it holds carry a Dirac as well (a lever's second force
//   F2 = 2 F is impulsive when F is). This spreads until nothing changes.
//
// Impulsive unknowns enter the jump solve through their integrals (JumpProblem::impulsive);
// integrated f_c rows read F_i(x_m, v_hat) - F_i(x_m, 0) like the f_d rows (ITI eq. 8).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "reinit/jump_solver.hpp"

namespace hdae::reinit {

struct ImpulsePlan {
  std::vector<char> impulsive;   ///< per variable: its jump unknown is its impulse integral
  std::vector<char> integrated;  ///< per row: an f_c row integrated over the impulse
  std::string error;             ///< non-empty when a source cannot carry an impulse
};

/// The plan for the sources at (p.t, x, der_x) in the mode p.row_kinds. algebraic[j]: der_x_j
/// enters no f_d row (Reinitializer::algebraic_unknowns). A source that is not algebraic is
/// an error: a Dirac in a state's derivative's integral (impulse order 0 of a state) lies
/// beyond what the jump solve integrates.
[[nodiscard]] ImpulsePlan plan_impulses(const JumpProblem& p, std::span<const double> x,
                                        std::span<const double> der_x,
                                        std::span<const std::size_t> sources,
                                        const std::vector<bool>& algebraic);

}  // namespace hdae::reinit
