// What the re-initializations of one run share (docs/design.md, "The jump solve").
//
// Every event of a run solves the jump equations and the consistent derivatives of the same
// model: the sparsity pattern of their matrices, its colouring and KLU's ordering of it change
// only when the model says so (EventContext::sparsity_changed). The pattern holds the declared
// entries of dF/dx and dF/d(der_x) plus the diagonal, so it covers every row whichever kind the
// row has, and the pivot order stays good while the row kinds stay the same. A Workspace keeps
// them: the owner of a run creates one (with the model's pattern when the run takes the sparse
// path, SimulationOptions::sparse_min_unknowns), points JumpProblem::workspace at it for every
// solve_jump and consistent_derivatives call, and the pattern is coloured and ordered once per
// pattern instead of twice per event. Without one, a call takes the dense path.
#pragma once

#include <cstddef>
#include <optional>

#include "linalg/fd_jacobian.hpp"
#include "linalg/linear_solver.hpp"

namespace hdae::reinit {

class Workspace {
 public:
  /// The dense path: every matrix dense, no pattern.
  Workspace() = default;
  /// The sparse path over this pattern (of dF/dx + c dF/d(der_x), with the diagonal).
  explicit Workspace(sparsity::SparsityPattern pattern);
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  /// The coloured pattern of the sparse path, or nullptr on the dense path.
  [[nodiscard]] const linalg::ColouredPattern* pattern() const {
    return pattern_ ? &*pattern_ : nullptr;
  }
  /// The sparse path goes on over another pattern of the same size (EventContext::
  /// sparsity_changed). The coloured pattern keeps its address, which IDA's Jacobian holds;
  /// the square solver analyses the new pattern at its next factorization by itself.
  void change_pattern(sparsity::SparsityPattern pattern);
  /// The square solver of the jump solves, and of the derivative solves on the dense path
  /// (keeps KLU's analysis, see linear_solver.hpp).
  [[nodiscard]] linalg::SquareSolver& square_solver() { return square_solver_; }
  /// The square solver of the derivative solves on the sparse path. Their J = [M_d; df_c/dx]
  /// is factorized over its non-zero entries (consistent_derivatives.cpp), a pattern other
  /// than the jump solves': each solver keeps the analysis of its own.
  [[nodiscard]] linalg::SquareSolver& derivative_solver() { return derivative_solver_; }
  /// Frees both solvers' factors and analyses (the pattern stays).
  void release_factors() {
    square_solver_.release();
    derivative_solver_.release();
  }

 private:
  std::optional<linalg::ColouredPattern> pattern_;
  linalg::SquareSolver square_solver_;
  linalg::SquareSolver derivative_solver_;
};

}  // namespace hdae::reinit
