#include "consistent_start.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Core>
#include <Eigen/QR>

namespace hdae::reduction {
namespace {

using Index = Eigen::Index;

constexpr int kMaxIterations = 50;
/// Converged when the weighted step and the residual are this small (relative to the scales).
constexpr double kTolerance = 1e-13;

Eigen::MatrixXd difference_jacobian(const StartProblem& p, const Eigen::VectorXd& y,
                                    const Eigen::VectorXd& base) {
  const Index n = y.size();
  Eigen::MatrixXd a(base.size(), n);
  Eigen::VectorXd moved = y;
  Eigen::VectorXd r(base.size());
  for (Index j = 0; j < n; ++j) {
    // Central differences: the equations hold derivatives of the model, so a one-sided
    // quotient's error would slow the iteration near the solution.
    const double h = 1e-6 * std::max(std::abs(y[j]), p.scale[static_cast<std::size_t>(j)]);
    moved[j] = y[j] + h;
    p.equations({moved.data(), static_cast<std::size_t>(n)},
                {r.data(), static_cast<std::size_t>(r.size())});
    Eigen::VectorXd plus = r;
    moved[j] = y[j] - h;
    p.equations({moved.data(), static_cast<std::size_t>(n)},
                {r.data(), static_cast<std::size_t>(r.size())});
    a.col(j) = (plus - r) / (2.0 * h);
    moved[j] = y[j];
  }
  return a;
}

}  // namespace

StartResult consistent_start(const StartProblem& p) {
  const auto n = static_cast<Index>(p.guess.size());
  const Eigen::VectorXd g = Eigen::Map<const Eigen::VectorXd>(p.guess.data(), n);
  const Eigen::VectorXd w = Eigen::Map<const Eigen::VectorXd>(p.weights.data(), n);
  const Eigen::VectorXd s = Eigen::Map<const Eigen::VectorXd>(p.scale.data(), n);
  Eigen::VectorXd y = g;
  Eigen::VectorXd e(static_cast<Index>(p.num_equations));
  StartResult result;
  for (int it = 0; it < kMaxIterations; ++it) {
    p.equations({y.data(), static_cast<std::size_t>(n)}, {e.data(), p.num_equations});
    result.iterations = it;
    result.residual_norm = e.cwiseAbs().maxCoeff();
    if (!std::isfinite(result.residual_norm)) break;
    const Eigen::MatrixXd a = difference_jacobian(p, y, e);
    // u = W (y_new - g): B u = A (y - g) - E with B = A W^-1, minimum norm.
    const Eigen::MatrixXd b = a * w.cwiseInverse().asDiagonal();
    const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(b);
    const Eigen::VectorXd u = cod.solve(a * (y - g) - e);
    const Eigen::VectorXd y_new = g + w.cwiseInverse().cwiseProduct(u);
    const double step = ((y_new - y).cwiseQuotient(s)).cwiseAbs().maxCoeff();
    y = y_new;
    if (step < kTolerance && it > 0) {
      p.equations({y.data(), static_cast<std::size_t>(n)}, {e.data(), p.num_equations});
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
