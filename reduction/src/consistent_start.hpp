// Consistent start values of the reduced system (hdae/index_reduction.hpp, step 5): the point
// nearest to the given start values, in a weighted norm, on which every equation and its
// hidden derivatives hold.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace hdae::reduction {

/// r = E(y), the m equations the start must satisfy (m <= y.size()).
using EquationsAt = std::function<void(std::span<const double> y, std::span<double> r)>;

struct StartProblem {
  EquationsAt equations;
  std::size_t num_equations = 0;
  std::vector<double> guess;    ///< the given start values
  std::vector<double> weights;  ///< how firmly each is held (large: fixed, small: free)
  std::vector<double> scale;    ///< typical magnitude per unknown (steps, convergence)
  /// Feasible region per unknown (ITI paper section 6); empty: unbounded. Within it: the
  /// guess, and every point the equations are evaluated at.
  std::vector<double> lower, upper;
};

struct StartResult {
  std::vector<double> y;
  bool converged = false;
  int iterations = 0;
  double residual_norm = 0.0;  ///< max |E_i(y)| at the end
};

/// Gauss-Newton on min ||W (y - guess)|| subject to E(y) = 0: each step takes the
/// minimum-norm (in W) solution of the linearised equations, with a difference-quotient
/// Jacobian of E (dense; complete orthogonal decomposition for rank-deficient or
/// under-determined systems). A step that would leave the feasible region is taken again with
/// the unknowns that leave it held (parallel to the border), and shortened to 90 % of the way
/// to the border when the equations leave no room for that; a step to a point where E is not
/// finite is halved until it is.
[[nodiscard]] StartResult consistent_start(const StartProblem& p);

}  // namespace hdae::reduction
