#include "state_selection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/LU>
#include <Eigen/QR>

#include "hdae/errors.hpp"

namespace hdae::reduction {
namespace {

using Index = Eigen::Index;

/// A pick whose remaining column norm is below this fraction of the block's largest column
/// norm leaves the block numerically singular.
constexpr double kSingularPick = 1e-10;

std::vector<std::size_t> rows_of_stage(const SlotLayout& l, int kappa) {
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i < l.n; ++i) {
    if (l.c[i] >= kappa) rows.push_back(i);
  }
  return rows;
}

Eigen::MatrixXd block(const Eigen::MatrixXd& j, const std::vector<double>& scale,
                      const std::vector<std::size_t>& rows, const std::vector<std::size_t>& cols) {
  Eigen::MatrixXd b(static_cast<Index>(rows.size()), static_cast<Index>(cols.size()));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t c = 0; c < cols.size(); ++c) {
      b(static_cast<Index>(r), static_cast<Index>(c)) =
          j(static_cast<Index>(rows[r]), static_cast<Index>(cols[c])) * scale[cols[c]];
    }
  }
  return b;
}

/// Columns picked from a stage's block, and |det| of the block they form.
struct Pick {
  std::vector<std::size_t> columns;
  double determinant = 0.0;
};

/// Greedy column pivoting: the forced columns first, then, `count` in all, the candidates with
/// the largest component orthogonal to those taken. That is the pivot order of Householder QR
/// with column pivoting (Businger and Golub), so the forced columns are factorised first and
/// the others, with the forced ones projected out, by Eigen's ColPivHouseholderQR; the product
/// of the pivots is |det| of the block picked. No columns when a pick is numerically zero.
Pick pick_columns(const Eigen::MatrixXd& a, const std::vector<bool>& forced, std::size_t count) {
  const double largest = a.colwise().norm().maxCoeff();
  std::vector<Index> kept, free;
  for (Index c = 0; c < a.cols(); ++c) {
    (forced[static_cast<std::size_t>(c)] ? kept : free).push_back(c);
  }
  Pick pick{{kept.begin(), kept.end()}, 1.0};
  Eigen::MatrixXd rest = a(Eigen::all, free);
  if (!kept.empty()) {
    const auto k = static_cast<Index>(kept.size());
    if (k > a.rows()) return {};
    const Eigen::HouseholderQR<Eigen::MatrixXd> qr(a(Eigen::all, kept));
    for (Index p = 0; p < k; ++p) {
      const double pivot = std::abs(qr.matrixQR()(p, p));
      if (!(pivot > kSingularPick * largest)) return {};
      pick.determinant *= pivot;
    }
    const Eigen::MatrixXd q = qr.householderQ() * Eigen::MatrixXd::Identity(a.rows(), k);
    rest -= q * (q.transpose() * rest);
  }
  if (pick.columns.size() >= count) return pick;
  const auto more = static_cast<Index>(count - pick.columns.size());
  if (more > rest.cols()) return {};
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(rest);
  for (Index p = 0; p < more; ++p) {
    const double pivot = std::abs(qr.matrixQR()(p, p));
    if (!(pivot > kSingularPick * largest)) return {};
    pick.determinant *= pivot;
    const Index column = qr.colsPermutation().indices()[p];
    pick.columns.push_back(static_cast<std::size_t>(free[static_cast<std::size_t>(column)]));
  }
  return pick;
}

[[noreturn]] void throw_singular_stage(int kappa, const std::vector<std::size_t>& rows,
                                       const std::vector<std::string>& names) {
  std::string list;
  for (std::size_t i : rows) list += (list.empty() ? "'" : ", '") + names[i] + "'";
  throw ModelError("state selection: the equations " + list + " differentiated " +
                   std::to_string(kappa - 1) +
                   " times less than their highest derivative cannot be solved for any choice "
                   "of dummy derivatives at this point (numerically singular block)");
}

}  // namespace

bool has_choice(const SlotLayout& l) {
  for (int kappa = 1; kappa <= l.max_c; ++kappa) {
    const std::size_t rows = rows_of_stage(l, kappa).size();
    std::size_t cols = 0;
    for (std::size_t j = 0; j < l.n; ++j) cols += l.d[j] >= kappa ? 1 : 0;
    if (cols > rows) return true;
  }
  return false;
}

StateSelection select_states(const Eigen::MatrixXd& jacobian, const std::vector<double>& scale,
                             const SlotLayout& l, const std::vector<std::string>& equation_names) {
  StateSelection s;
  s.picked.assign(static_cast<std::size_t>(l.max_c) + 1, {});
  s.determinant.assign(static_cast<std::size_t>(l.max_c) + 1, 0.0);
  for (int kappa = l.max_c; kappa >= 1; --kappa) {
    const std::vector<std::size_t> rows = rows_of_stage(l, kappa);
    std::vector<std::size_t> cols;
    std::vector<bool> forced;
    const auto& deeper = kappa < l.max_c ? s.picked[static_cast<std::size_t>(kappa) + 1]
                                         : std::vector<std::size_t>{};
    for (std::size_t j = 0; j < l.n; ++j) {
      if (l.d[j] < kappa) continue;
      cols.push_back(j);
      forced.push_back(std::find(deeper.begin(), deeper.end(), j) != deeper.end());
    }
    const Pick pick = pick_columns(block(jacobian, scale, rows, cols), forced, rows.size());
    if (pick.columns.size() != rows.size()) throw_singular_stage(kappa, rows, equation_names);
    auto& picked = s.picked[static_cast<std::size_t>(kappa)];
    for (std::size_t c : pick.columns) picked.push_back(cols[c]);
    std::sort(picked.begin(), picked.end());
    s.determinant[static_cast<std::size_t>(kappa)] = pick.determinant;
  }
  s.algebraic.assign(l.num_slots, false);
  for (std::size_t j = 0; j < l.n; ++j) {
    int stages = 0;  // stages 1.. that picked j (nested, so contiguous from 1)
    for (int kappa = 1; kappa <= l.max_c; ++kappa) {
      const auto& p = s.picked[static_cast<std::size_t>(kappa)];
      if (std::find(p.begin(), p.end(), j) != p.end()) stages = kappa;
    }
    for (int k = 0; k <= l.d[j]; ++k) {
      const bool algebraic = k >= l.d[j] - stages;
      s.algebraic[l.slot(j, k)] = algebraic;
      if (!algebraic) s.states.push_back(l.slot(j, k));
    }
  }
  return s;
}

double selection_quality(const Eigen::MatrixXd& jacobian, const std::vector<double>& scale,
                         const SlotLayout& l, const StateSelection& current,
                         const StateSelection& fresh) {
  double quality = 1.0;
  for (int kappa = 1; kappa <= l.max_c; ++kappa) {
    const std::vector<std::size_t> rows = rows_of_stage(l, kappa);
    const auto k = static_cast<std::size_t>(kappa);
    const double now = std::abs(block(jacobian, scale, rows, current.picked[k]).determinant());
    const double best = fresh.determinant[k];
    if (best > 0.0) quality = std::min(quality, now / best);
  }
  return quality;
}

}  // namespace hdae::reduction
