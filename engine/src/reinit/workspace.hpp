// What the re-initializations of one run share (DESIGN.md section 3).
//
// Every event of a run solves the jump equations and the consistent derivatives of the same
// model: the sparsity pattern of their matrices, its colouring and KLU's ordering of it do not
// change during the run (the pattern holds the declared entries of dF/dx and dF/d(der_x) plus
// the diagonal, so it covers every row whichever kind the row has), and the pivot order stays
// good while the row kinds stay the same. A Workspace keeps them: the owner of a run creates
// one, points JumpProblem::workspace at it for every solve_jump and consistent_derivatives
// call, and the pattern is built and ordered once per run instead of twice per event. Without
// one, each call builds its own, shared by the Newton iterations of that call only.
#pragma once

#include <cstddef>
#include <optional>

#include "hdae/model.hpp"
#include "reinit/fd_jacobian.hpp"
#include "reinit/linear_solver.hpp"

namespace hdae::reinit {

class Workspace {
 public:
  Workspace() = default;
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  /// The coloured pattern of the sparse path for this structure, or nullptr when the dense
  /// path applies (sparse_pattern_for). Built on the first call; built again only when called
  /// with another structure or one whose size or number of declared entries changed (a run's
  /// structure is const; one edited in place to the same sizes is not noticed).
  [[nodiscard]] const ColouredPattern* pattern(const ModelStructure& structure);
  /// The square solver of all jump and derivative solves (keeps KLU's analysis, see
  /// linear_solver.hpp).
  [[nodiscard]] SquareSolver& square_solver() { return square_solver_; }
  /// How often pattern() derived the pattern from a structure (also when that gave nullptr).
  [[nodiscard]] long pattern_builds() const { return pattern_builds_; }

 private:
  const ModelStructure* structure_ = nullptr;  ///< the structure pattern_ was built for
  std::size_t unknowns_ = 0;                   ///< its size then
  std::size_t declared_entries_ = 0;           ///< and its number of sparsity entries
  std::optional<ColouredPattern> pattern_;
  long pattern_builds_ = 0;
  SquareSolver square_solver_;
};

}  // namespace hdae::reinit
