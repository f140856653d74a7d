#include "simulator/stiffness_check.hpp"

#include <cmath>
#include <limits>

namespace hdae::detail {
namespace {

/// Power iterations per estimate: the ratio converges to rho as (|lambda_2| / rho)^k, and a
/// factor of two off is all the choice can tolerate through its gap.
constexpr int kIterations = 4;

double weighted_norm(std::span<const double> v, std::span<const double> w) {
  double sum = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) sum += (v[i] * w[i]) * (v[i] * w[i]);
  return std::sqrt(sum / static_cast<double>(v.size()));
}

}  // namespace

double StiffnessCheck::spectral_radius(sundials::OdeProblem& f, double t, std::span<const double> y,
                                       std::span<const double> w) {
  const std::size_t n = y.size();
  if (v_.size() != n) {
    // An alternating start excites the fast modes of chains and grids, which a start with
    // all entries equal can miss.
    v_.resize(n);
    for (std::size_t i = 0; i < n; ++i) v_[i] = (i % 2 == 0 ? 1.0 : -1.0) / w[i];
  }
  y_.resize(n);
  f0_.resize(n);
  f1_.resize(n);
  if (f.rhs(t, y, f0_) != 0) return 0.0;
  // The difference step: sqrt(u) of the state's size in the weighted norm.
  const double size = std::max(weighted_norm(y, w), 1.0);
  const double eps = std::sqrt(std::numeric_limits<double>::epsilon()) * size;
  double rho = 0.0;
  for (int k = 0; k < kIterations; ++k) {
    const double norm_v = weighted_norm(v_, w);
    if (!(norm_v > 0.0) || !std::isfinite(norm_v)) return rho;
    for (std::size_t i = 0; i < n; ++i) y_[i] = y[i] + eps * v_[i] / norm_v;
    if (f.rhs(t, y_, f1_) != 0) return rho;
    // J (v / |v|) ~ (f(y + eps v / |v|) - f(y)) / eps; its norm is the estimate.
    for (std::size_t i = 0; i < n; ++i) v_[i] = (f1_[i] - f0_[i]) / eps;
    rho = weighted_norm(v_, w);
  }
  return rho;
}

std::optional<sundials::OdeMethod> StiffnessCheck::after_step(const Step& s, double boundary,
                                                              const std::function<double()>& rho) {
  ++steps_;
  if (steps_ <= kWarmUp) {
    window_start_ = s;
    return std::nullopt;
  }
  if (steps_ < kWarmUp + kWindow || s.t <= window_start_.t) return std::nullopt;
  const double span = s.t - window_start_.t;
  const double h = span / static_cast<double>(kWindow);
  const double rate = (s.cost - window_start_.cost) / span;
  const double rejected =
      static_cast<double>(s.rejections - window_start_.rejections) / static_cast<double>(kWindow);
  steps_ = kWarmUp;  // the next window follows at once
  window_start_ = s;
  if (s.method == sundials::OdeMethod::kErk) {
    pair_rate_ = rate;
    return on_pair(h, rejected, boundary, rho);
  }
  return on_bdf(h, rate, boundary, rho);
}

std::optional<sundials::OdeMethod> StiffnessCheck::on_pair(double h, double rejected,
                                                           double boundary,
                                                           const std::function<double()>& rho) {
  constexpr double kNearBoundary = 0.3;
  constexpr double kOscillating = 0.1;
  constexpr double kRejected = 0.2;
  if (wait_ > 0) {
    --wait_;
    return std::nullopt;
  }
  const double reach = h * rho() / boundary;
  if (reach >= kNearBoundary || (reach >= kOscillating && rejected >= kRejected)) {
    trial_ = true;
    return sundials::OdeMethod::kBdf;
  }
  return std::nullopt;
}

std::optional<sundials::OdeMethod> StiffnessCheck::on_bdf(double h, double rate, double boundary,
                                                          const std::function<double()>& rho) {
  constexpr double kCheaper = 0.5;
  constexpr double kPairCouldDouble = 0.5;
  if (trial_) {
    trial_ = false;
    if (rate <= kCheaper * pair_rate_) {
      backoff_ = 0;
      return std::nullopt;
    }
    backoff_ = 2 * backoff_ + 1;
    wait_ = backoff_;
    return sundials::OdeMethod::kErk;
  }
  if (h * rho() <= kPairCouldDouble * boundary) return sundials::OdeMethod::kErk;
  return std::nullopt;
}

}  // namespace hdae::detail
