#include "alias_rows.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hdae::reduction {
namespace {

/// An alias's residual at der(x_a) = x_b may differ from 0 by rounding of its terms only.
constexpr double kRoundOff = 64.0 * std::numeric_limits<double>::epsilon();

/// A row whose signature holds exactly two entries, der(x_a) and x_b.
struct Candidate {
  std::size_t row = 0, a = 0, b = 0;
};

std::vector<Candidate> candidates(const SignatureMatrix& sigma) {
  std::vector<std::vector<SignatureEntry>> rows(sigma.n);
  for (const SignatureEntry& e : sigma.entries) rows[e.row].push_back(e);
  std::vector<Candidate> found;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::vector<SignatureEntry>& row = rows[i];
    if (row.size() != 2 || row[0].sigma == row[1].sigma) continue;
    const std::size_t a = row[0].sigma == 1 ? row[0].col : row[1].col;
    const std::size_t b = row[0].sigma == 1 ? row[1].col : row[0].col;
    if (a != b) found.push_back({i, a, b});
  }
  return found;
}

/// Candidates that can be tried at one point: no two set the same der(x_a) or move the same
/// x_b. Each row depends on its own der(x_a) and x_b alone, so one evaluation of the model
/// tries them all.
std::vector<std::vector<Candidate>> batches(const std::vector<Candidate>& all, std::size_t n) {
  std::vector<std::vector<Candidate>> out;
  std::vector<std::size_t> a_used, b_used;  // per unknown: 1 + the last batch using it
  a_used.assign(n, 0), b_used.assign(n, 0);
  for (const Candidate& k : all) {
    const std::size_t batch = std::max(a_used[k.a], b_used[k.b]);
    if (batch == out.size()) out.emplace_back();
    out[batch].push_back(k);
    a_used[k.a] = b_used[k.b] = batch + 1;
  }
  return out;
}

/// The batch's rows at (t, x, der_x) with every der(x_a) set to x_b + offset * size_b.
std::vector<double> rows_at(const PhysicsModel& model, double t, const std::vector<double>& x,
                            std::vector<double> der_x, const std::vector<Candidate>& batch,
                            double offset) {
  for (const Candidate& k : batch) {
    der_x[k.a] = x[k.b] + offset * std::max(std::abs(x[k.b]), 1.0);
  }
  std::vector<double> r(x.size());
  Equations<double> eqs(t, x, der_x, r, model.context());
  model.residuals_of(eqs);
  return r;
}

/// Per candidate of the batch: its row is c (der(x_a) - x_b). At two points with different x_b
/// it vanishes where der(x_a) = x_b, to the rounding of its terms, and a change of der(x_a) by
/// the size of x_b changes it in proportion, by the same non-zero c at both.
std::vector<bool> confirmed(const PhysicsModel& model, double t, std::span<const double> x0,
                            std::span<const double> der_x0, const std::vector<Candidate>& batch) {
  std::vector<bool> holds(batch.size(), true);
  std::vector<double> slope_seen(batch.size(), 0.0);
  const std::vector<double> der_x(der_x0.begin(), der_x0.end());
  for (const double shift : {0.0, 0.37}) {
    std::vector<double> x(x0.begin(), x0.end());
    for (const Candidate& k : batch) x[k.b] = x0[k.b] + shift * std::max(std::abs(x0[k.b]), 1.0);
    const std::vector<double> at = rows_at(model, t, x, der_x, batch, 0.0);
    const std::vector<double> moved = rows_at(model, t, x, der_x, batch, 1.0);
    for (std::size_t m = 0; m < batch.size(); ++m) {
      const std::size_t i = batch[m].row;
      const double size = std::max(std::abs(x[batch[m].b]), 1.0);
      const double slope = moved[i] / size;
      const bool holds_here =
          std::abs(slope) > 0.0 && std::isfinite(at[i]) && std::isfinite(slope) &&
          std::abs(at[i]) <= kRoundOff * std::abs(slope) * size &&
          (slope_seen[m] == 0.0 || std::abs(slope - slope_seen[m]) <= kRoundOff * std::abs(slope));
      holds[m] = holds[m] && holds_here;
      slope_seen[m] = slope;
    }
  }
  return holds;
}

}  // namespace

std::vector<Alias> find_aliases(const PhysicsModel& model, const IndexAnalysis& analysis, double t,
                                std::span<const double> x, std::span<const double> der_x) {
  const auto& c = analysis.sigma_method.c;
  const auto& d = analysis.sigma_method.d;
  std::vector<Candidate> possible;
  for (const Candidate& k : candidates(analysis.signature)) {
    if (d[k.a] - c[k.row] == 1 && d[k.b] >= c[k.row]) possible.push_back(k);
  }
  std::vector<bool> holds(c.size(), false);
  for (const std::vector<Candidate>& batch : batches(possible, c.size())) {
    const std::vector<bool> ok = confirmed(model, t, x, der_x, batch);
    for (std::size_t m = 0; m < batch.size(); ++m) holds[batch[m].row] = ok[m];
  }
  std::vector<Alias> aliases;
  std::vector<bool> defined(c.size(), false);  // der(x_a) named by an alias already
  for (const Candidate& k : possible) {
    if (!holds[k.row] || defined[k.a]) continue;
    defined[k.a] = true;
    aliases.push_back({k.row, k.a, k.b});
  }
  return aliases;
}

}  // namespace hdae::reduction
