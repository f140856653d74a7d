#include "consistent_start.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Core>
#include <Eigen/QR>
#include <Eigen/SparseCore>

#include "minimum_norm.hpp"

namespace hdae::reduction {
namespace {

using Index = Eigen::Index;
using Vector = Eigen::VectorXd;
using Sparse = Eigen::SparseMatrix<double>;

constexpr int kMaxIterations = 50;
/// Converged when a step moves no unknown by more than this share of its magnitude (or scale,
/// when that is larger): the iteration has stalled at the point it converged to.
constexpr double kTolerance = 1e-13;
/// Rows hold to round-off when each is within this multiple of its round-off: the change that
/// moving every unknown by a few units in the last place makes (which shows the cancellations
/// inside the row as well as the sizes of its terms), or the unit round-off of the sizes of its
/// terms when larger. A genuine inconsistency leaves residuals far above that.
constexpr double kRoundOffMultiple = 100.0;
/// A step below this share of each unknown's size leaves a correction of its square (Newton)
/// or of the difference Jacobian's relative error times it, both far below round-off: once the
/// rows hold to round-off after such a step, the next step would move nothing.
constexpr double kSettledStep = 1e-7;
constexpr double kNoiseUlps = 4.0;         ///< ulps the unknowns move by to see the rows' round-off
constexpr double kApproximateStep = 1e-8;  ///< the same for approximate rows (StartProblem)
/// Pivots below this share of the size of a group's columns count as zero when the group solves
/// for what the looser groups cannot produce: the central differences of the Jacobian carry
/// relative errors up to about 1e-10.
constexpr double kRankTolerance = 1e-9;

/// A step that must be shortened at a border goes this share of the way to it (ITI paper
/// section 6), so the next iterate stays strictly inside and its quotients can be taken.
constexpr double kShareToBorder = 0.9;
/// Halvings of a step that leads to a non-finite residual before the iteration gives up.
constexpr int kMaxHalvings = 30;
/// In the sparse steps, how much less a group moves than its looser neighbour for the same
/// effect on the equations.
constexpr double kLevelWeight = 1e3;

/// The problem's quantities as Eigen vectors, bounds filled in (infinite when not given).
struct Region {
  Vector lower, upper;
};

Region region_of(const StartProblem& p, Index n) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  Region r{Vector::Constant(n, -kInf), Vector::Constant(n, kInf)};
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

/// Orthonormal basis of the range of m: the columns of its pivoted QR factorisation down to its
/// numerical rank.
Eigen::MatrixXd range_basis(const Eigen::MatrixXd& m) {
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(m);

  return qr.householderQ() * Eigen::MatrixXd::Identity(m.rows(), qr.rank());
}

/// The columns of b whose unknowns are at `level` (which == 0) or looser (which < 0).
std::vector<Index> columns_at(const StartProblem& p, const std::vector<bool>& held, int level,
                              int which) {
  std::vector<Index> cols;
  for (std::size_t j = 0; j < held.size(); ++j) {
    const int l = static_cast<int>(p.firmness[j]);
    if (!held[j] && (which == 0 ? l == level : l < level)) cols.push_back(static_cast<Index>(j));
  }
  return cols;
}

/// z of the linearised equations b u = rhs (z = s u) in which only unknowns up to firmness
/// `top` move, firmest first: each group makes only what the looser groups cannot, by its
/// minimum norm in units of the scales.
Vector cascade(const StartProblem& p, const Eigen::MatrixXd& b, Vector rhs,
               const std::vector<bool>& held, int top) {
  Vector u = Vector::Zero(b.cols());
  for (int level = top; level >= 0; --level) {
    const std::vector<Index> mine = columns_at(p, held, level, 0);
    if (mine.empty()) continue;
    Eigen::MatrixXd m = b(Eigen::all, mine);
    const double size = m.norm();
    Vector target = rhs;
    // Only what the looser unknowns cannot produce is this level's to make.
    const std::vector<Index> looser = columns_at(p, held, level, -1);
    if (!looser.empty()) {
      const Eigen::MatrixXd q = range_basis(b(Eigen::all, looser));
      m -= q * (q.transpose() * m);
      target -= q * (q.transpose() * target);
    }
    // What the projection leaves below kRankTolerance of the level's own size is round-off of
    // directions the looser unknowns do produce: judged against the projected matrix alone it
    // would pass for a direction, and this level would move by round-off over round-off.
    const double left = m.norm();
    if (!(left > kRankTolerance * size)) continue;
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
    cod.setThreshold(kRankTolerance * size / left);
    cod.compute(m);
    const Vector part = cod.solve(target);
    u(mine) = part;
    rhs -= b(Eigen::all, mine) * part;
  }
  return u;
}

/// The sparse form of cascade: the groups up to `top` at once, each group's moves weighted
/// kLevelWeight^level, by the minimum-norm solution (consistent_start.hpp says why).
Vector cascade(const StartProblem& p, const Sparse& b, const Vector& rhs,
               const std::vector<bool>& held, int top) {
  std::vector<Eigen::Triplet<double>> entries;
  std::vector<Index> cols;
  std::vector<double> weights;
  for (std::size_t j = 0; j < held.size(); ++j) {
    const int level = static_cast<int>(p.firmness[j]);
    if (held[j] || level > top) continue;
    const double w = std::pow(kLevelWeight, level);
    const auto c = static_cast<Index>(cols.size());
    for (Sparse::InnerIterator it(b, static_cast<Index>(j)); it; ++it) {
      entries.emplace_back(it.row(), c, it.value() / w);
    }
    cols.push_back(static_cast<Index>(j));
    weights.push_back(w);
  }
  Vector u = Vector::Zero(b.cols());
  if (cols.empty()) return u;
  Sparse m(b.rows(), static_cast<Index>(cols.size()));
  m.setFromTriplets(entries.begin(), entries.end());
  const Vector v = minimum_norm_solution(m, rhs, kRankTolerance);
  for (std::size_t k = 0; k < cols.size(); ++k) u[cols[k]] = v[static_cast<Index>(k)] / weights[k];
  return u;
}

/// Rows of b (and rhs, tolerance) divided by their norms, so that the factorisations see each
/// alike.
void normalise_rows(Eigen::MatrixXd& b, Vector& rhs, Vector& tolerance) {
  for (Index i = 0; i < b.rows(); ++i) {
    const double norm = b.row(i).norm();
    if (norm > 0.0) {
      b.row(i) /= norm;
      rhs[i] /= norm;
      tolerance[i] /= norm;
    }
  }
}

void normalise_rows(Sparse& b, Vector& rhs, Vector& tolerance) {
  Vector norm = Vector::Zero(b.rows());
  for (Index c = 0; c < b.outerSize(); ++c) {
    for (Sparse::InnerIterator it(b, c); it; ++it) norm[it.row()] += it.value() * it.value();
  }
  norm = norm.cwiseSqrt();
  for (Index c = 0; c < b.outerSize(); ++c) {
    for (Sparse::InnerIterator it(b, c); it; ++it) {
      if (norm[it.row()] > 0.0) it.valueRef() /= norm[it.row()];
    }
  }
  for (Index i = 0; i < b.rows(); ++i) {
    if (norm[i] > 0.0) {
      rhs[i] /= norm[i];
      tolerance[i] /= norm[i];
    }
  }
}

/// The point y_new = g + z of the linearised equations A z = A (y - g) - E nearest to the given
/// values, firmest first: guesses alone when they make the equations hold to their round-off
/// (so that consistent given values stay exactly as given), else given values too, else fixed
/// ones (cascade). The unknowns in `held` are kept where they are (z_j = y_j - g_j).
template <class Matrix>
Vector prioritised_step(const StartProblem& p, const Matrix& a, const Vector& s, const Vector& y,
                        const Vector& g, const Vector& e, const Vector& noise,
                        const std::vector<bool>& held) {
  const Index n = y.size();
  Vector fixed_z = Vector::Zero(n);
  for (Index j = 0; j < n; ++j) {
    if (held[static_cast<std::size_t>(j)]) fixed_z[j] = y[j] - g[j];
  }
  Matrix b = a * s.asDiagonal();  // z_j in units of s_j
  Vector rhs = a * (y - g) - e - a * fixed_z;
  Vector tolerance = kRoundOffMultiple * noise;
  normalise_rows(b, rhs, tolerance);
  Vector u;
  for (int top = 0; top <= static_cast<int>(Firmness::kFixed); ++top) {
    u = cascade(p, b, rhs, held, top);
    if (((b * u - rhs).cwiseAbs().array() <= tolerance.array()).all()) break;
  }
  Vector z = s.cwiseProduct(u);
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
template <class Matrix>
Vector next_iterate(const StartProblem& p, const Region& region, const Matrix& a, const Vector& s,
                    const Vector& y, const Vector& g, const Vector& e, const Vector& noise,
                    Vector& r) {
  std::vector<bool> held(static_cast<std::size_t>(y.size()), false);
  Vector y_new = prioritised_step(p, a, s, y, g, e, noise, held);
  if (mark_leaving(region, y_new, held)) {
    const Vector parallel = prioritised_step(p, a, s, y, g, e, noise, held);
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

/// The round-off of each row at y: the larger of the unit round-off of the sizes of its terms
/// (sum_j |a_ij| max(|y_j|, scale_j)) and the largest change of the row when every unknown moves
/// by kNoiseUlps units in the last place, in two sign patterns.
template <class Matrix>
Vector round_off(const StartProblem& p, const Matrix& a, const Vector& y, const Vector& s,
                 const Vector& e) {
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  const Vector sizes = y.cwiseAbs().cwiseMax(s);
  Vector noise = kEps * (a.cwiseAbs() * sizes);
  Vector moved(y.size()), r(e.size());
  for (int pattern = 0; pattern < 2; ++pattern) {
    for (Index j = 0; j < y.size(); ++j) {
      const bool up = ((j >> pattern) & 1) == 0;
      moved[j] = y[j] + (up ? 1.0 : -1.0) * kNoiseUlps * kEps * sizes[j];
    }
    evaluate(p, moved, r);
    if (r.allFinite()) noise = noise.cwiseMax((r - e).cwiseAbs());
    if (!p.approximate) continue;
    // Difference quotients' truncation and rounding, which a move of a few units in the last
    // place does not show: the change at their step less the linearisation's part.
    const Vector step = (moved - y) * (kApproximateStep / (kNoiseUlps * kEps));
    evaluate(p, y + step, r);
    if (r.allFinite()) noise = noise.cwiseMax((r - e - a * step).cwiseAbs());
  }
  // A row that depends on no unknown and evaluates exactly still needs a positive scale.
  return noise.cwiseMax(std::numeric_limits<double>::min());
}

/// The row whose residual is largest against its round-off.
Index worst_row(const Vector& e, const Vector& noise) {
  Index row = 0;
  e.cwiseAbs().cwiseQuotient(noise).maxCoeff(&row);
  return row;
}

/// The first row not finite at the point the iteration stopped at, as the worst one.
void name_non_finite_row(const Vector& e, StartResult& result) {
  for (Index i = 0; i < e.size(); ++i) {
    if (std::isfinite(e[i])) continue;
    result.worst_row = static_cast<std::size_t>(i);
    result.residual_norm = e[i];
    return;
  }
}

/// The Gauss-Newton iteration of consistent_start, with the Jacobian jacobian_at(y, e) gives.
template <class JacobianOf>
StartResult iterate(const StartProblem& p, const JacobianOf& jacobian_at) {
  const auto n = static_cast<Index>(p.guess.size());
  const Vector g = Eigen::Map<const Vector>(p.guess.data(), n);
  const Vector s = Eigen::Map<const Vector>(p.scale.data(), n);
  const Region region = region_of(p, n);
  Vector y = g;
  Vector e(static_cast<Index>(p.num_equations));
  Vector e_new(e.size());
  evaluate(p, y, e);
  StartResult result;
  if (e.size() == 0) {
    result.converged = true;
    result.y.assign(y.data(), y.data() + n);
    return result;
  }
  Vector noise = Vector::Ones(e.size());
  const auto judge_rows = [&] {
    const Index row = worst_row(e, noise);
    result.worst_row = static_cast<std::size_t>(row);
    result.residual_norm = std::abs(e[row]);
    result.round_off = noise[row];
  };
  for (int it = 0; it < kMaxIterations && e.allFinite(); ++it) {
    const auto a = jacobian_at(region, y, e);
    noise = round_off(p, a, y, s, e);
    judge_rows();
    // A point on which every row holds to round-off is consistent: a start that already is
    // one is kept as it is, and an iterate that is one after a step that no longer moves
    // anything at the unknowns' sizes ends the iteration.
    const bool holds = result.residual_norm <= kRoundOffMultiple * result.round_off;
    if (holds && (it == 0 || result.step <= kSettledStep)) {
      result.converged = true;
      break;
    }
    const Vector y_new = next_iterate(p, region, a, s, y, g, e, noise, e_new);
    const Vector moved = (y_new - y).cwiseQuotient(s.cwiseMax(y.cwiseAbs()));
    Index slot = 0;
    result.step = moved.cwiseAbs().maxCoeff(&slot);
    result.unsettled_slot = static_cast<std::size_t>(slot);
    result.iterations = it + 1;
    y = y_new;
    e.swap(e_new);
    if (result.step < kTolerance && e.allFinite()) {
      // Stalled: a solution when the rows hold to round-off there; otherwise a point where the
      // linearisation has no step left.
      noise = round_off(p, jacobian_at(region, y, e), y, s, e);
      judge_rows();
      result.converged = result.residual_norm <= kRoundOffMultiple * result.round_off;
      break;
    }
  }
  if (!result.converged && e.allFinite()) judge_rows();
  if (!result.converged) name_non_finite_row(e, result);
  result.y.assign(y.data(), y.data() + n);
  return result;
}

}  // namespace

StartResult consistent_start(const StartProblem& p) {
  if (p.jacobian && p.guess.size() > kSparseStart) {
    return iterate(p, [&p](const Region&, const Vector& y, const Vector&) {
      Sparse a;
      p.jacobian({y.data(), static_cast<std::size_t>(y.size())}, a);
      return a;
    });
  }
  return iterate(p, [&p](const Region& region, const Vector& y, const Vector& e) {
    return difference_jacobian(p, region, y, e);
  });
}

}  // namespace hdae::reduction
