// Naming what makes a matrix singular (docs/design.md, "The jump solve": the singular-J diagnosis).
//
// When J = [M_d; d f_c/dx] or the Newton matrix of the jump equations is singular, a modeller
// needs to know which equations contradict or repeat each other and which variables they fail
// to determine, not that "Newton failed". Both come from a rank-revealing factorisation of the
// equilibrated matrix: rows with a component in the left null space are the dependent
// equations, columns with a component in the right null space the undetermined variables.
// The same analysis words the under- and over-determined warnings of fixed start values
// (ITI paper section 5). jump_solver.cpp and consistent_derivatives.cpp call it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "hdae/model.hpp"
#include "linalg/fd_jacobian.hpp"

namespace hdae::linalg {

struct RankDeficiency {
  Eigen::Index rank = 0;
  std::vector<std::size_t> dependent_rows;        ///< rows in the left null space, strongest first
  std::vector<std::size_t> undetermined_columns;  ///< columns in the right null space, likewise
};

/// Whether the weakest direction is reported even if it lies above the rank threshold
/// (a caller whose LU already judged the matrix singular wants it named).
enum class WeakestDirection { kOnlyIfRankDeficient, kAlways };

/// Rank-revealing analysis of an equilibrated matrix: a full SVD up to a few hundred
/// unknowns, SuiteSparseQR's rank-revealing sparse QR of the matrix and of its transpose
/// beyond.
[[nodiscard]] RankDeficiency analyse_rank(const JacobianMatrix& a, WeakestDirection weakest);

/// "{name, name, ...}" of the given equations: the first dozen of the list (callers put the
/// most involved first) in model order, then a count of the rest.
[[nodiscard]] std::string equation_list(const ModelStructure& structure,
                                        const std::vector<std::size_t>& rows);
/// "{name, name, ...}" of the given variables, chosen and ordered like equation_list.
[[nodiscard]] std::string variable_list(const ModelStructure& structure,
                                        const std::vector<std::size_t>& columns);

/// "<what> is singular at t = <t>: equations {...} are dependent; variables {...} are not
/// determined".
[[nodiscard]] std::string describe_singular(std::string_view what, double t,
                                            const ModelStructure& structure,
                                            const RankDeficiency& deficiency);

}  // namespace hdae::linalg
