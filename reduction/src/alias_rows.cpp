#include "alias_rows.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hdae::reduction {
namespace {

/// An alias's residual at der(x_a) = x_b may differ from 0 by rounding of its terms only.
constexpr double kRoundOff = 64.0 * std::numeric_limits<double>::epsilon();

/// The entries of row i of the signature, when there are exactly two: der(x_a) and x_b.
bool candidate(const SignatureMatrix& sigma, std::size_t i, std::size_t& a, std::size_t& b) {
  std::vector<SignatureEntry> row;
  for (const SignatureEntry& e : sigma.entries) {
    if (e.row == i) row.push_back(e);
  }
  if (row.size() != 2 || row[0].sigma == row[1].sigma) return false;
  a = row[0].sigma == 1 ? row[0].col : row[1].col;
  b = row[0].sigma == 1 ? row[1].col : row[0].col;
  return a != b;
}

/// Row i at (t, x, der_x) with der(x_a) set to x_b + offset, evaluated with doubles.
double row_at(const PhysicsModel& model, double t, std::vector<double> x, std::vector<double> der_x,
              std::size_t i, std::size_t a, std::size_t b, double offset) {
  der_x[a] = x[b] + offset;
  std::vector<double> r(x.size());
  Equations<double> eqs(t, x, der_x, r, model.context());
  model.residuals_of(eqs);
  return r[i];
}

/// Row i is c (der(x_a) - x_b): at two points with different x_b it vanishes where der(x_a) =
/// x_b, to the rounding of its terms, and a change of der(x_a) by 1 changes it by the same
/// non-zero c at both.
bool confirmed(const PhysicsModel& model, double t, std::span<const double> x0,
               std::span<const double> der_x0, std::size_t i, std::size_t a, std::size_t b) {
  double slope_seen = 0.0;
  for (const double shift : {0.0, 0.37}) {
    std::vector<double> x(x0.begin(), x0.end()), der_x(der_x0.begin(), der_x0.end());
    x[b] += shift * std::max(std::abs(x[b]), 1.0);
    const double size = std::max(std::abs(x[b]), 1.0);
    const double at = row_at(model, t, x, der_x, i, a, b, 0.0);
    const double slope = row_at(model, t, x, der_x, i, a, b, size) / size;
    if (!(std::abs(slope) > 0.0) || !std::isfinite(at) || !std::isfinite(slope)) return false;
    if (std::abs(at) > kRoundOff * std::abs(slope) * size) return false;
    if (slope_seen != 0.0 && std::abs(slope - slope_seen) > kRoundOff * std::abs(slope)) {
      return false;
    }
    slope_seen = slope;
  }
  return true;
}

}  // namespace

std::vector<Alias> find_aliases(const PhysicsModel& model, const IndexAnalysis& analysis, double t,
                                std::span<const double> x, std::span<const double> der_x) {
  const auto& c = analysis.sigma_method.c;
  const auto& d = analysis.sigma_method.d;
  std::vector<Alias> aliases;
  std::vector<bool> defined(c.size(), false);  // der(x_a) named by an alias already
  for (std::size_t i = 0; i < c.size(); ++i) {
    std::size_t a = 0, b = 0;
    if (!candidate(analysis.signature, i, a, b)) continue;
    if (d[a] - c[i] != 1 || d[b] < c[i] || defined[a]) continue;
    if (!confirmed(model, t, x, der_x, i, a, b)) continue;
    defined[a] = true;
    aliases.push_back({i, a, b});
  }
  return aliases;
}

}  // namespace hdae::reduction
