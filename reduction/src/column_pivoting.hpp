// Which columns of a block to pick so that the square block they form is best conditioned,
// greedily (the state selection's fresh picks, state_selection.hpp and block_selection.hpp).
#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Core>

namespace hdae::reduction {

/// A pick whose remaining column norm is below this fraction of the block's largest column
/// norm leaves the block numerically singular.
inline constexpr double kSingularPick = 1e-10;

/// Columns picked from a block, and |det| of the block they form.
struct Pick {
  std::vector<std::size_t> columns;
  double determinant = 0.0;
};

/// Greedy column pivoting: the forced columns first, then, `count` in all, the candidates with
/// the largest component orthogonal to those taken. That is the pivot order of Householder QR
/// with column pivoting (Businger and Golub), so the forced columns are factorised first and
/// the others, with the forced ones projected out, by Eigen's ColPivHouseholderQR; the product
/// of the pivots is |det| of the block picked. No columns when a pick is numerically zero.
[[nodiscard]] Pick pick_columns(const Eigen::MatrixXd& a, const std::vector<bool>& forced,
                                std::size_t count);

}  // namespace hdae::reduction
