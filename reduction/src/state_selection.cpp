#include "state_selection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/LU>
#include <Eigen/SparseLU>

#include "block_selection.hpp"
#include "column_pivoting.hpp"
#include "hdae/errors.hpp"

namespace hdae::reduction {
namespace {

using Index = Eigen::Index;

const std::vector<std::size_t>& rows_of_stage(const SlotLayout& l, int kappa) {
  return l.stage_rows[static_cast<std::size_t>(kappa)];
}

/// For each row of J its position in `rows`, -1 for the others.
std::vector<Index> positions(Index n, const std::vector<std::size_t>& rows) {
  std::vector<Index> at(static_cast<std::size_t>(n), -1);
  for (std::size_t r = 0; r < rows.size(); ++r) at[rows[r]] = static_cast<Index>(r);
  return at;
}

/// J's rows `rows` and columns `cols`, each column scaled by its unknown's nominal value, handed
/// to put(row, column, value).
template <class Put>
void for_block(const SystemJacobian& j, const std::vector<double>& scale,
               const std::vector<std::size_t>& rows, const std::vector<std::size_t>& cols,
               Put&& put) {
  const std::vector<Index> at = positions(j.rows(), rows);
  for (std::size_t c = 0; c < cols.size(); ++c) {
    for (SystemJacobian::InnerIterator it(j, static_cast<Index>(cols[c])); it; ++it) {
      const Index r = at[static_cast<std::size_t>(it.row())];
      if (r >= 0) put(r, static_cast<Index>(c), it.value() * scale[cols[c]]);
    }
  }
}

Eigen::MatrixXd block(const SystemJacobian& j, const std::vector<double>& scale,
                      const std::vector<std::size_t>& rows, const std::vector<std::size_t>& cols) {
  Eigen::MatrixXd b =
      Eigen::MatrixXd::Zero(static_cast<Index>(rows.size()), static_cast<Index>(cols.size()));
  for_block(j, scale, rows, cols, [&b](Index r, Index c, double v) { b(r, c) = v; });
  return b;
}

SystemJacobian sparse_block(const SystemJacobian& j, const std::vector<double>& scale,
                            const std::vector<std::size_t>& rows,
                            const std::vector<std::size_t>& cols) {
  std::vector<Eigen::Triplet<double>> entries;
  for_block(j, scale, rows, cols,
            [&entries](Index r, Index c, double v) { entries.emplace_back(r, c, v); });
  SystemJacobian b(static_cast<Index>(rows.size()), static_cast<Index>(cols.size()));
  b.setFromTriplets(entries.begin(), entries.end());
  return b;
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

/// The stage's block split by the selection: B (its rows, the picked columns) and A (its rows,
/// the candidates not picked), each column scaled by its unknown's nominal value; which picked
/// columns may be exchanged (those a deeper stage did not force).
struct Exchange {
  std::vector<std::size_t> rows;
  std::vector<bool> free;
  std::vector<std::size_t> picked_columns, other_columns;
};

Exchange exchange_of(const SlotLayout& l, int kappa, const std::vector<std::size_t>& picked,
                     const std::vector<std::size_t>& forced) {
  Exchange x;
  x.rows = rows_of_stage(l, kappa);
  std::vector<char> mark(l.n, 0);  // 1: picked, 2: forced
  for (const std::size_t c : picked) mark[c] = 1;
  for (const std::size_t c : forced) mark[c] = 2;
  for (const std::size_t c : l.stage_candidates[static_cast<std::size_t>(kappa)]) {
    if (mark[c] == 0) x.other_columns.push_back(c);
  }
  x.picked_columns = picked;
  for (const std::size_t c : picked) x.free.push_back(mark[c] == 1);
  return x;
}

/// The largest factor by which exchanging one free picked column for a candidate grows |det| of
/// the stage's block: |(B^-1 A)_pc| (Cramer's rule), with the p and c where it is largest.
/// Infinite when B is singular.
struct Growth {
  double factor = 0.0;
  Index picked = -1, other = -1;

  /// Takes column c of B^-1 A.
  template <class Column>
  void take(const Column& factors, const std::vector<bool>& free, Index c) {
    for (Index p = 0; p < factors.size(); ++p) {
      if (free[static_cast<std::size_t>(p)] && std::abs(factors(p)) > factor) {
        *this = {std::abs(factors(p)), p, c};
      }
    }
  }
};

constexpr Growth kSingular{std::numeric_limits<double>::infinity(), -1, -1};

/// A small stage's matrices live on the stack: it is judged at every step end.
using SmallMatrix =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kDenseRows, kDenseRows>;
using SmallVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kDenseRows, 1>;

/// Column `col` of J at the stage's rows (at most kDenseRows), scaled by its nominal value.
void small_column(const SystemJacobian& j, const std::vector<double>& scale,
                  const std::vector<std::size_t>& rows, std::size_t col, SmallVector& v) {
  v.setZero(static_cast<Index>(rows.size()));
  for (SystemJacobian::InnerIterator it(j, static_cast<Index>(col)); it; ++it) {
    const auto at = std::find(rows.begin(), rows.end(), static_cast<std::size_t>(it.row()));
    if (at != rows.end()) v(at - rows.begin()) = it.value() * scale[col];
  }
}

Growth dense_growth(const SystemJacobian& j, const std::vector<double>& scale, const Exchange& x) {
  const auto n = static_cast<Index>(x.rows.size());
  SmallMatrix b(n, n);
  SmallVector column;
  for (Index c = 0; c < n; ++c) {
    small_column(j, scale, x.rows, x.picked_columns[static_cast<std::size_t>(c)], column);
    b.col(c) = column;
  }
  const Eigen::PartialPivLU<SmallMatrix> lu(b);
  const double det = std::abs(lu.determinant());
  if (!(det > 0.0) || !std::isfinite(det)) return kSingular;
  // Column by column: the blocks are small, where Eigen's blocked solve for a matrix of
  // right-hand sides costs more than the solves themselves.
  Growth g;
  for (std::size_t c = 0; c < x.other_columns.size(); ++c) {
    small_column(j, scale, x.rows, x.other_columns[c], column);
    const SmallVector factors = lu.solve(column);
    g.take(factors, x.free, static_cast<Index>(c));
  }
  return g;
}

Growth sparse_growth(const SystemJacobian& j, const std::vector<double>& scale, const Exchange& x) {
  Eigen::SparseLU<SystemJacobian, Eigen::COLAMDOrdering<int>> lu;
  lu.compute(sparse_block(j, scale, x.rows, x.picked_columns));
  if (lu.info() != Eigen::Success) return kSingular;
  // All columns in one solve: the factors' supernodes then work on blocks of right-hand sides.
  const Eigen::MatrixXd factors = lu.solve(block(j, scale, x.rows, x.other_columns));
  if (!factors.allFinite()) return kSingular;
  Growth g;
  for (Index c = 0; c < factors.cols(); ++c) g.take(factors.col(c), x.free, c);
  return g;
}

Growth largest_growth(const SystemJacobian& j, const std::vector<double>& scale,
                      const Exchange& x) {
  if (x.other_columns.empty()) return {};
  return x.rows.size() > kDenseRows ? sparse_growth(j, scale, x) : dense_growth(j, scale, x);
}

/// Exchanges columns while one grows |det| by more than round-off: a block of locally largest
/// volume (no single exchange improves it; Goreinov, Tyrtyshnikov et al., "How to find a good
/// submatrix"), so that a fresh selection stands at quality 1. |det| grows with every exchange,
/// which ends the loop; the bound on exchanges only guards against round-off cycling.
void refine(const SystemJacobian& j, const std::vector<double>& scale, const SlotLayout& l,
            int kappa, std::vector<std::size_t>& picked, const std::vector<std::size_t>& forced) {
  for (std::size_t round = 0; round < 4 * l.n; ++round) {
    const Exchange x = exchange_of(l, kappa, picked, forced);
    const Growth g = largest_growth(j, scale, x);
    if (!(g.factor > kExchangeGain) || g.picked < 0) return;
    picked[static_cast<std::size_t>(g.picked)] = x.other_columns[static_cast<std::size_t>(g.other)];
  }
}

[[noreturn]] void throw_shared_state(const SlotLayout& l, std::size_t unknown) {
  const auto [j, k] = l.logical(l.named_after[unknown]);
  throw ModelError("state selection: slot " + std::to_string(k) + " of unknown " +
                   std::to_string(j) + " would be a state twice (through an equation der(x) = v)");
}

/// The stage's picks by column-pivoted orthogonalisation, the deeper stage's picks first;
/// none when the block is singular for every choice.
std::vector<std::size_t> fresh_picks(const SystemJacobian& j, const std::vector<double>& scale,
                                     const SlotLayout& l, int kappa,
                                     const std::vector<std::size_t>& deeper) {
  const std::vector<std::size_t>& rows = rows_of_stage(l, kappa);
  std::vector<std::size_t> cols;
  std::vector<bool> forced;
  for (std::size_t c : l.stage_candidates[static_cast<std::size_t>(kappa)]) {
    cols.push_back(c);
    forced.push_back(std::find(deeper.begin(), deeper.end(), c) != deeper.end());
  }
  const Pick pick = pick_columns(block(j, scale, rows, cols), forced, rows.size());
  if (pick.columns.size() != rows.size()) return {};
  std::vector<std::size_t> picked;
  for (std::size_t c : pick.columns) picked.push_back(cols[c]);
  return picked;
}

bool contains_all(const std::vector<std::size_t>& sorted, const std::vector<std::size_t>& some) {
  return std::all_of(some.begin(), some.end(), [&sorted](std::size_t c) {
    return std::binary_search(sorted.begin(), sorted.end(), c);
  });
}

/// The stage as block_selection.hpp judges it, and its picks as positions among its
/// candidates and back.
struct LargeStage {
  SelectionStage stage;
  std::vector<std::size_t> candidates, position;

  LargeStage(const SystemJacobian& j, const std::vector<double>& scale, const SlotLayout& l,
             int kappa, const std::vector<std::size_t>& forced, bool exact)
      : candidates(l.stage_candidates[static_cast<std::size_t>(kappa)]), position(l.n, 0) {
    stage.block = sparse_block(j, scale, rows_of_stage(l, kappa), candidates);
    stage.exact = exact;
    std::vector<char> is_forced(l.n, 0);
    for (const std::size_t u : forced) is_forced[u] = 1;
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      position[candidates[c]] = c;
      stage.forced.push_back(is_forced[candidates[c]] != 0);
    }
  }
  [[nodiscard]] std::vector<std::size_t> positions(const std::vector<std::size_t>& unknowns) const {
    std::vector<std::size_t> p;
    p.reserve(unknowns.size());
    for (const std::size_t u : unknowns) p.push_back(position[u]);
    return p;
  }
  [[nodiscard]] std::vector<std::size_t> unknowns(const std::vector<std::size_t>& positions) const {
    std::vector<std::size_t> u;
    u.reserve(positions.size());
    for (const std::size_t p : positions) u.push_back(candidates[p]);
    return u;
  }
};

/// A large stage's picks, from `start` (empty: afresh) within its diagonal blocks; where the
/// blocks cannot be made regular, the stage's fresh picks as a whole, improved within blocks.
std::vector<std::size_t> large_stage_picks(const SystemJacobian& j,
                                           const std::vector<double>& scale, const SlotLayout& l,
                                           int kappa, const std::vector<std::size_t>& deeper,
                                           const std::vector<std::size_t>& start, bool exact) {
  const LargeStage s(j, scale, l, kappa, deeper, exact);
  std::vector<std::size_t> picked = block_picks(s.stage, s.positions(start));
  if (!picked.empty()) return s.unknowns(picked);
  const std::vector<std::size_t> whole = fresh_picks(j, scale, l, kappa, deeper);
  if (whole.empty()) return {};
  picked = block_picks(s.stage, s.positions(whole));
  return picked.empty() ? whole : s.unknowns(picked);
}

}  // namespace

bool judged_by_blocks(const SlotLayout& l, int kappa) {
  return rows_of_stage(l, kappa).size() > kDenseRows;
}

bool has_choice(const SlotLayout& l) {
  for (int kappa = 1; kappa <= l.max_c; ++kappa) {
    const auto k = static_cast<std::size_t>(kappa);
    if (l.stage_candidates[k].size() > l.stage_rows[k].size()) return true;
  }
  return false;
}

StateSelection select_states(const SystemJacobian& jacobian, const std::vector<double>& scale,
                             const SlotLayout& l, const std::vector<std::string>& equation_names,
                             bool exact, const StateSelection* previous) {
  StateSelection s;
  s.picked.assign(static_cast<std::size_t>(l.max_c) + 1, {});
  for (int kappa = l.max_c; kappa >= 1; --kappa) {
    const auto k = static_cast<std::size_t>(kappa);
    const auto& deeper = kappa < l.max_c ? s.picked[k + 1] : std::vector<std::size_t>{};
    auto& picked = s.picked[k];
    const bool keep = previous != nullptr && contains_all(previous->picked[k], deeper);
    if (judged_by_blocks(l, kappa)) {
      picked = large_stage_picks(jacobian, scale, l, kappa, deeper,
                                 keep ? previous->picked[k] : std::vector<std::size_t>{}, exact);
      if (picked.empty()) throw_singular_stage(kappa, rows_of_stage(l, kappa), equation_names);
    } else if (keep) {
      picked = previous->picked[k];
    } else {
      picked = fresh_picks(jacobian, scale, l, kappa, deeper);
      if (picked.empty()) throw_singular_stage(kappa, rows_of_stage(l, kappa), equation_names);
    }
    if (!judged_by_blocks(l, kappa)) refine(jacobian, scale, l, kappa, picked, deeper);
    std::sort(picked.begin(), picked.end());
  }
  // An unknown of the reduced system that several slots share (an alias, slot_layout.hpp) is
  // a state when one of them is: the selection keeps the alias row's block regular, so at most
  // one of them is.
  s.algebraic.assign(l.num_slots, true);
  for (std::size_t j = 0; j < l.n; ++j) {
    int stages = 0;  // stages 1.. that picked j (nested, so contiguous from 1)
    for (int kappa = 1; kappa <= l.max_c; ++kappa) {
      const auto& p = s.picked[static_cast<std::size_t>(kappa)];
      if (std::find(p.begin(), p.end(), j) != p.end()) stages = kappa;
    }
    for (int k = 0; k < l.d[j] - stages; ++k) {
      const std::size_t u = l.slot(j, k);
      if (!s.algebraic[u]) throw_shared_state(l, u);
      s.algebraic[u] = false;
      s.states.push_back(u);
      s.next.push_back(l.slot(j, k + 1));
    }
  }
  return s;
}

double large_stage_quality(const SystemJacobian& jacobian, const std::vector<double>& scale,
                           const SlotLayout& l, int kappa, const std::vector<std::size_t>& picked,
                           const std::vector<std::size_t>& forced, bool exact) {
  const LargeStage s(jacobian, scale, l, kappa, forced, exact);
  return block_quality(s.stage, s.positions(picked));
}

}  // namespace hdae::reduction
