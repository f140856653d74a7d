// Consistent start values of the reduced system (hdae/index_reduction.hpp, step 5): the point
// nearest to the given start values, in a weighted norm, on which every equation and its
// hidden derivatives hold.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include <Eigen/SparseCore>

namespace hdae::reduction {

/// r = E(y), the m equations the start must satisfy (m <= y.size()).
using EquationsAt = std::function<void(std::span<const double> y, std::span<double> r)>;
/// a = dE/dy at y, m x y.size().
using JacobianAt = std::function<void(std::span<const double> y, Eigen::SparseMatrix<double>& a)>;

/// How firmly a start value is held: the firmer ones move only as far as the looser ones cannot
/// make the equations hold.
enum class Firmness { kGuess = 0, kGiven = 1, kFixed = 2 };

struct StartProblem {
  EquationsAt equations;
  std::size_t num_equations = 0;
  std::vector<double> guess;       ///< the given start values
  std::vector<Firmness> firmness;  ///< per unknown
  std::vector<double> scale;       ///< typical magnitude per unknown (steps, convergence)
  /// Feasible region per unknown (ITI paper section 6); empty: unbounded. Within it: the
  /// guess, and every point the equations are evaluated at.
  std::vector<double> lower, upper;
  /// The equations' Jacobian, when known: a problem with more than kSparseStart unknowns is
  /// then solved with sparse factorisations (consistent_start).
  JacobianAt jacobian;
  /// The equations are themselves difference quotients (a model without exact derivatives):
  /// their noise is also judged at a difference quotient's step, as their departure from the
  /// linearisation there (consistent_start).
  bool approximate = false;
};

/// From this many unknowns on, a problem with a Jacobian is solved sparse.
inline constexpr std::size_t kSparseStart = 400;

struct StartResult {
  std::vector<double> y;
  bool converged = false;
  int iterations = 0;          ///< Gauss-Newton steps taken
  double residual_norm = 0.0;  ///< max |E_i(y)| at the end
  /// The row with the largest residual against its round-off (the change that moving every
  /// unknown by a few units in the last place makes), and that round-off.
  std::size_t worst_row = 0;
  double round_off = 0.0;
  /// The last step's largest move of an unknown against its size (its magnitude, or its scale
  /// when larger), and that unknown.
  double step = 0.0;
  std::size_t unsettled_slot = 0;
};

/// Gauss-Newton on E(y) = 0 from the guess towards the point nearest to it, firmest values first
/// (fixed values move only as far as the others cannot make the equations hold, given values
/// likewise before guesses, each group by its minimum norm in units of the scales): each step
/// takes that point of the linearised equations, with a difference-quotient
/// Jacobian of E (dense; complete orthogonal decomposition for rank-deficient or
/// under-determined systems). A step that would leave the feasible region is taken again with
/// the unknowns that leave it held (parallel to the border), and shortened to 90 % of the way
/// to the border when the equations leave no room for that; a step to a point where E is not
/// finite is halved until it is. Converged when every row holds to within 100 times its
/// round-off (for approximate equations, at least their departure from the linearisation when
/// every unknown moves by 1e-8 of its size), at the guess itself (which is then returned unchanged)
/// or after a step that moved no unknown by more than 1e-7 of its size.
///
/// A large problem with a Jacobian (kSparseStart) takes the same steps with sparse matrices,
/// except that the groups beyond the guesses are not ordered strictly: when the guesses alone
/// cannot make the equations hold, the groups up to the firmest needed move together, each
/// group's moves weighted 1e3 times its looser neighbour's (the minimum of sum (w_j z_j/s_j)^2),
/// which approximates the order without the dense projections onto what looser groups produce.
[[nodiscard]] StartResult consistent_start(const StartProblem& p);

}  // namespace hdae::reduction
