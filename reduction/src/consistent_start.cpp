#include "consistent_start.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Core>
#include <Eigen/QR>

namespace hdae::reduction {
namespace {

using Index = Eigen::Index;
using Vector = Eigen::VectorXd;

constexpr int kMaxIterations = 50;
/// Converged when the weighted step and the residual are this small (relative to the scales).
constexpr double kTolerance = 1e-13;
/// A step that must be shortened at a border goes this share of the way to it (ITI paper
/// section 6), so the next iterate stays strictly inside and its quotients can be taken.
constexpr double kShareToBorder = 0.9;
/// Halvings of a step that leads to a non-finite residual before the iteration gives up.
constexpr int kMaxHalvings = 30;

/// The problem's quantities as Eigen vectors, bounds filled in (infinite when not given).
struct Region {
  Vector lower, upper;
};

Region region_of(const StartProblem& p, Index n) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  Region r{Vector::Constant(n, -inf), Vector::Constant(n, inf)};
  if (!p.lower.empty()) r.lower = Eigen::Map<const Vector>(p.lower.data(), n);
  if (!p.upper.empty()) r.upper = Eigen::Map<const Vector>(p.upper.data(), n);
  return r;
}

void evaluate(const StartProblem& p, const Vector& y, Vector& r) {
  p.equations({y.data(), static_cast<std::size_t>(y.size())},
              {r.data(), static_cast<std::size_t>(r.size())});
}

Eigen::MatrixXd difference_jacobian(const StartProblem& p, const Region& region, const Vector& y,
                                    const Vector& base) {
  const Index n = y.size();
  Eigen::MatrixXd a(base.size(), n);
  Vector moved = y;
  Vector plus(base.size()), minus(base.size());
  for (Index j = 0; j < n; ++j) {
    // Central differences: the equations hold derivatives of the model, so a one-sided
    // quotient's error would slow the iteration near the solution. Next to a border the
    // quotient is one-sided, away from it: the model is not evaluated outside the region.
    const double h = 1e-6 * std::max(std::abs(y[j]), p.scale[static_cast<std::size_t>(j)]);
    const double up = y[j] + h <= region.upper[j] ? h : 0.0;
    const double down = y[j] - h >= region.lower[j] ? h : 0.0;
    moved[j] = y[j] + up;
    evaluate(p, moved, plus);
    moved[j] = y[j] - down;
    evaluate(p, moved, minus);
    a.col(j) = (plus - minus) / (up + down);
    moved[j] = y[j];
  }
  return a;
}

/// The minimum-norm (in W) point z = y_new - g of the linearised equations A z = A (y - g) - E,
/// with the unknowns in `held` kept where they are (z_j = y_j - g_j).
Vector weighted_step(const Eigen::MatrixXd& a, const Vector& w, const Vector& y, const Vector& g,
                     const Vector& e, const std::vector<bool>& held) {
  const Index n = y.size();
  Vector fixed_z = Vector::Zero(n);
  Eigen::MatrixXd b = a * w.cwiseInverse().asDiagonal();
  for (Index j = 0; j < n; ++j) {
    if (!held[static_cast<std::size_t>(j)]) continue;
    fixed_z[j] = y[j] - g[j];
    b.col(j).setZero();
  }
  const Vector rhs = a * (y - g) - e - a * fixed_z;
  const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(b);
  Vector z = w.cwiseInverse().cwiseProduct(cod.solve(rhs));
  for (Index j = 0; j < n; ++j) {
    if (held[static_cast<std::size_t>(j)]) z[j] = fixed_z[j];
  }
  return g + z;
}

/// Marks the unknowns y_new takes outside the region; true when there is any.
bool mark_leaving(const Region& region, const Vector& y_new, std::vector<bool>& held) {
  bool any = false;
  for (Index j = 0; j < y_new.size(); ++j) {
    if (y_new[j] >= region.lower[j] && y_new[j] <= region.upper[j]) continue;
    held[static_cast<std::size_t>(j)] = true;
    any = true;
  }
  return any;
}

/// The share of the step y -> y_new that keeps every unknown within kShareToBorder of the way
/// to the border it would cross (1 when it crosses none).
double share_inside(const Region& region, const Vector& y, const Vector& y_new) {
  double share = 1.0;
  for (Index j = 0; j < y.size(); ++j) {
    const double step = y_new[j] - y[j];
    const double room = step < 0.0 ? region.lower[j] - y[j] : region.upper[j] - y[j];
    if (std::abs(step) > std::abs(room)) share = std::min(share, kShareToBorder * room / step);
  }
  return share;
}

/// The next iterate: the weighted Gauss-Newton point, kept in the region (first parallel to
/// its border, then shortened) and halved towards y while the equations are not finite there.
/// r receives the equations at the iterate returned.
Vector next_iterate(const StartProblem& p, const Region& region, const Eigen::MatrixXd& a,
                    const Vector& w, const Vector& y, const Vector& g, const Vector& e, Vector& r) {
  std::vector<bool> held(static_cast<std::size_t>(y.size()), false);
  Vector y_new = weighted_step(a, w, y, g, e, held);
  if (mark_leaving(region, y_new, held)) {
    const Vector parallel = weighted_step(a, w, y, g, e, held);
    const Vector residual = a * (parallel - y) + e;
    // Parallel to the border only when the held unknowns leave the linearised equations
    // solvable; otherwise the full step, shortened.
    if (residual.cwiseAbs().maxCoeff() <= 1e-8 * std::max(1.0, e.cwiseAbs().maxCoeff())) {
      y_new = parallel;
    }
    y_new = y + share_inside(region, y, y_new) * (y_new - y);
  }
  for (int k = 0;; ++k) {
    evaluate(p, y_new, r);
    if (r.allFinite() || k == kMaxHalvings) return y_new;
    y_new = y + 0.5 * (y_new - y);
  }
}

}  // namespace

StartResult consistent_start(const StartProblem& p) {
  const auto n = static_cast<Index>(p.guess.size());
  const Vector g = Eigen::Map<const Vector>(p.guess.data(), n);
  const Vector w = Eigen::Map<const Vector>(p.weights.data(), n);
  const Vector s = Eigen::Map<const Vector>(p.scale.data(), n);
  const Region region = region_of(p, n);
  Vector y = g;
  Vector e(static_cast<Index>(p.num_equations));
  Vector e_new(e.size());
  evaluate(p, y, e);
  StartResult result;
  for (int it = 0; it < kMaxIterations; ++it) {
    result.iterations = it;
    result.residual_norm = e.cwiseAbs().maxCoeff();
    if (!std::isfinite(result.residual_norm)) break;
    const Eigen::MatrixXd a = difference_jacobian(p, region, y, e);
    const Vector y_new = next_iterate(p, region, a, w, y, g, e, e_new);
    const double step = ((y_new - y).cwiseQuotient(s)).cwiseAbs().maxCoeff();
    y = y_new;
    e.swap(e_new);
    if (step < kTolerance && it > 0) {
      result.residual_norm = e.cwiseAbs().maxCoeff();
      result.converged = std::isfinite(result.residual_norm);
      result.iterations = it + 1;
      break;
    }
  }
  result.y.assign(y.data(), y.data() + n);
  return result;
}

}  // namespace hdae::reduction
