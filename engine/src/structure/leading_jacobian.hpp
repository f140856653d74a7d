// The numerical side of the Sigma-method (docs/design.md, "Structure and index"): the partial
// derivatives of each row with respect to the highest derivative of each unknown it holds,
// the system Jacobian J_ij = d f_i / d x_j^(d_j - c_i) built from them, the rank of J and of
// the mass matrix dF/d(der_x), and the left null vectors of a singular J.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "linalg/rank_diagnosis.hpp"
#include "structure/system_residual.hpp"

namespace hdae::structure {

/// d f_i / d x_j^(sigma_ij) at (t, x, der_x) for every entry of s, in entry order, by forward
/// differences coloured with the pattern of s (one evaluation per colour and order), with
/// large steps (a nominal value in der(x), 1e-4 of it in x) so that rounding cannot hide a
/// cancellation between rows.
[[nodiscard]] std::vector<double> leading_partials(const SystemResidual& f,
                                                   const SignatureMatrix& s, double t,
                                                   std::span<const double> x,
                                                   std::span<const double> der_x);

/// An n x n matrix given by entries, equilibrated (columns by the unknowns' nominal values,
/// rows by their largest entry) and analysed for rank.
struct RankCheck {
  linalg::JacobianMatrix scaled;
  Eigen::VectorXd row_scale;
  linalg::RankDeficiency deficiency;
  [[nodiscard]] bool singular() const { return deficiency.rank < scaled.size(); }
};

struct MatrixEntry {
  std::size_t row = 0, col = 0;
  double value = 0.0;
};

[[nodiscard]] RankCheck check_rank(const ModelStructure& s, const std::vector<MatrixEntry>& a);

/// The numerical rank of the n x n matrix a as check_rank finds it, as the sum of the ranks of
/// its connected blocks (rows and columns linked by entries: the equations of motion of
/// separate bodies are separate blocks); none when a block has more than max_block rows or
/// columns.
[[nodiscard]] std::optional<std::size_t> rank_by_blocks(const ModelStructure& s,
                                                        const std::vector<MatrixEntry>& a,
                                                        std::size_t max_block);

/// The system Jacobian of Pryce's method: the partial of entry (i, j) where d_j - c_i equals
/// sigma_ij, zero elsewhere.
[[nodiscard]] std::vector<MatrixEntry> system_jacobian(const SignatureMatrix& s,
                                                       const std::vector<double>& partials,
                                                       const SigmaMethodResult& m);

/// The mass matrix dF/d(der_x): the partials of the entries with sigma = 1.
[[nodiscard]] std::vector<MatrixEntry> mass_matrix(const SignatureMatrix& s,
                                                   const std::vector<double>& partials);

/// A combination u^T J = 0 of the rows of a singular J, made sparse (reduced echelon form of
/// the null basis) and scaled so that its largest coefficient is 1; the replaced row is the
/// one with that coefficient. None for matrices beyond the dense analysis size.
[[nodiscard]] std::optional<RowCombination> dependent_combination(const RankCheck& j);

}  // namespace hdae::structure
