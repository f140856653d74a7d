#include "block_selection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>

#include <btf.h>

#include <Eigen/LU>

#include "column_pivoting.hpp"

namespace hdae::reduction {
namespace {

using Index = Eigen::Index;

/// An entry below this fraction of the stage's largest is left out of the first transversal: a
/// transversal through entries that small is nearly singular, and its repair may need
/// candidates of other blocks, which the exchanges within blocks do not see.
constexpr double kVanishing = 1e-8;

/// The same where the entries are difference quotients (system_jacobian.hpp): their steps of
/// 1e-7 of each unknown's size leave an entry that vanishes at about that fraction of its
/// neighbours (the step times a second derivative), so it counts only a hundred times above.
constexpr double kNoisyVanishing = 1e-5;

/// Columns of the stage's block in compressed form with BTF's int indices.
struct Compressed {
  std::vector<int> starts{0}, rows;

  /// Column `column` of a, its entries larger than `above` in magnitude.
  void add(const SystemJacobian& a, std::size_t column, double above = -1.0) {
    for (SystemJacobian::InnerIterator it(a, static_cast<Index>(column)); it; ++it) {
      if (std::abs(it.value()) > above) rows.push_back(static_cast<int>(it.row()));
    }
    starts.push_back(static_cast<int>(rows.size()));
  }
};

/// The picked columns B in block upper triangular form: per diagonal block its rows, its picks
/// (positions in `picked`) and the candidates it may take (those whose last row lies in it).
struct Blocks {
  std::vector<std::vector<std::size_t>> rows, picks, others;
  std::vector<std::size_t> block_of, place;  ///< per row of the stage: its block, its place
};

std::optional<Blocks> block_form(const SelectionStage& s, const std::vector<std::size_t>& picked) {
  const auto n = static_cast<int>(picked.size());
  Compressed b;
  for (const std::size_t c : picked) b.add(s.block, c);
  std::vector<int> p(picked.size()), q(picked.size()), r(picked.size() + 1),
      work(5 * picked.size());
  double effort = 0.0;
  int matched = 0;
  const int count = btf_order(n, b.starts.data(), b.rows.data(), 0.0, &effort, p.data(), q.data(),
                              r.data(), &matched, work.data());
  if (matched < n) return std::nullopt;  // structurally singular
  Blocks f;
  const auto blocks = static_cast<std::size_t>(count);
  f.rows.resize(blocks), f.picks.resize(blocks), f.others.resize(blocks);
  f.block_of.resize(picked.size()), f.place.resize(picked.size());
  for (std::size_t k = 0; k < blocks; ++k) {
    for (int i = r[k]; i < r[k + 1]; ++i) {
      const auto row = static_cast<std::size_t>(p[static_cast<std::size_t>(i)]);
      f.block_of[row] = k;
      f.place[row] = f.rows[k].size();
      f.rows[k].push_back(row);
      f.picks[k].push_back(static_cast<std::size_t>(BTF_UNFLIP(q[static_cast<std::size_t>(i)])));
    }
  }
  std::vector<char> is_picked(static_cast<std::size_t>(s.block.cols()), 0);
  for (const std::size_t c : picked) is_picked[c] = 1;
  for (std::size_t c = 0; c < is_picked.size(); ++c) {
    if (is_picked[c] != 0) continue;
    std::optional<std::size_t> last;
    for (SystemJacobian::InnerIterator it(s.block, static_cast<Index>(c)); it; ++it) {
      last = std::max(last.value_or(0), f.block_of[static_cast<std::size_t>(it.row())]);
    }
    if (last) f.others[*last].push_back(c);
  }
  return f;
}

/// Rows of block k by the stage's candidates `columns`.
Eigen::MatrixXd dense(const SelectionStage& s, const Blocks& f, std::size_t k,
                      const std::vector<std::size_t>& columns) {
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(static_cast<Index>(f.rows[k].size()),
                                            static_cast<Index>(columns.size()));
  for (std::size_t c = 0; c < columns.size(); ++c) {
    for (SystemJacobian::InnerIterator it(s.block, static_cast<Index>(columns[c])); it; ++it) {
      const auto row = static_cast<std::size_t>(it.row());
      if (f.block_of[row] == k)
        m(static_cast<Index>(f.place[row]), static_cast<Index>(c)) = it.value();
    }
  }
  return m;
}

std::vector<std::size_t> columns_of(const Blocks& f, std::size_t k,
                                    const std::vector<std::size_t>& picked) {
  std::vector<std::size_t> columns;
  for (const std::size_t position : f.picks[k]) columns.push_back(picked[position]);
  return columns;
}

/// The largest growth of block k's |det| by one exchange: picked[pick] for candidate `other`.
/// Infinite, with no exchange, when the block is singular.
struct Exchange {
  double factor = 0.0;
  std::optional<std::size_t> pick;
  std::size_t other = 0;
};

Exchange best_exchange(const SelectionStage& s, const Blocks& f, std::size_t k,
                       const std::vector<std::size_t>& picked) {
  const std::vector<std::size_t> columns = columns_of(f, k, picked);
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(dense(s, f, k, columns));
  const double det = std::abs(lu.determinant());
  if (!(det > 0.0) || !std::isfinite(det)) return {std::numeric_limits<double>::infinity(), {}, 0};
  Exchange best;
  if (f.others[k].empty()) return best;
  const Eigen::MatrixXd factors = lu.solve(dense(s, f, k, f.others[k]));  // Cramer's rule
  if (!factors.allFinite()) return {std::numeric_limits<double>::infinity(), {}, 0};
  for (Index c = 0; c < factors.cols(); ++c) {
    for (Index p = 0; p < factors.rows(); ++p) {
      const std::size_t position = f.picks[k][static_cast<std::size_t>(p)];
      if (!s.forced[picked[position]] && std::abs(factors(p, c)) > best.factor) {
        best = {std::abs(factors(p, c)), position, f.others[k][static_cast<std::size_t>(c)]};
      }
    }
  }
  return best;
}

/// Block k's picks afresh by column pivoting over its picks and the candidates it may take.
bool pick_afresh(const SelectionStage& s, const Blocks& f, std::size_t k,
                 std::vector<std::size_t>& picked) {
  std::vector<std::size_t> columns = columns_of(f, k, picked);
  columns.insert(columns.end(), f.others[k].begin(), f.others[k].end());
  std::vector<bool> forced;
  forced.reserve(columns.size());
  for (const std::size_t c : columns) forced.push_back(s.forced[c]);
  const Pick pick = pick_columns(dense(s, f, k, columns), forced, f.rows[k].size());
  if (pick.columns.size() != f.rows[k].size()) return false;
  for (std::size_t i = 0; i < pick.columns.size(); ++i) {
    picked[f.picks[k][i]] = columns[pick.columns[i]];
  }
  return true;
}

/// A maximum transversal of the stage's block (Duff's, SuiteSparse's BTF), the forced
/// candidates offered first and the others by decreasing column norm: a column matched stays
/// matched, so every forced one is picked where any choice can pick them all. Entries that
/// (nearly) vanish at this point are left out (kVanishing): a block made singular by one may
/// have no candidate of its own to repair it (the links of a chain lying flat, whose rods
/// cannot fix their heights).
std::vector<std::size_t> transversal(const SelectionStage& s) {
  std::vector<std::size_t> order(s.forced.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto norm = [&s](std::size_t c) { return s.block.col(static_cast<Index>(c)).norm(); };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (s.forced[a] != s.forced[b]) return static_cast<bool>(s.forced[a]);
    return norm(a) > norm(b);
  });
  const double vanishing =
      (s.exact ? kVanishing : kNoisyVanishing) * s.block.coeffs().cwiseAbs().maxCoeff();
  Compressed a;
  for (const std::size_t c : order) a.add(s.block, c, vanishing);
  const auto rows = static_cast<std::size_t>(s.block.rows());
  std::vector<int> match(rows), work(5 * order.size());
  double effort = 0.0;
  const int matched =
      btf_maxtrans(static_cast<int>(rows), static_cast<int>(order.size()), a.starts.data(),
                   a.rows.data(), 0.0, &effort, match.data(), work.data());
  if (static_cast<std::size_t>(matched) < rows) return {};
  std::vector<std::size_t> picked;
  picked.reserve(match.size());
  for (const int column : match) picked.push_back(order[static_cast<std::size_t>(column)]);
  const auto forced = static_cast<std::size_t>(std::count(s.forced.begin(), s.forced.end(), true));
  const auto taken = static_cast<std::size_t>(
      std::count_if(picked.begin(), picked.end(), [&s](std::size_t c) { return s.forced[c]; }));
  return taken == forced ? picked : std::vector<std::size_t>{};
}

/// One round over the blocks: each singular block picked afresh, each other one exchanging
/// its best pick where that grows |det|. Blocks keep the form, so their exchanges combine.
/// Empty optional when a block cannot be made regular; else whether anything changed.
std::optional<bool> improve(const SelectionStage& s, std::vector<std::size_t>& picked) {
  const std::optional<Blocks> f = block_form(s, picked);
  if (!f) return std::nullopt;
  bool changed = false;
  for (std::size_t k = 0; k < f->rows.size(); ++k) {
    const Exchange x = best_exchange(s, *f, k, picked);
    if (std::isinf(x.factor)) {
      if (!pick_afresh(s, *f, k, picked)) return std::nullopt;
      changed = true;
    } else if (x.factor > kExchangeGain && x.pick) {
      picked[*x.pick] = x.other;
      changed = true;
    }
  }
  return changed;
}

}  // namespace

std::vector<std::size_t> block_picks(const SelectionStage& stage, std::vector<std::size_t> start) {
  std::vector<std::size_t> picked = start.empty() ? transversal(stage) : std::move(start);
  if (picked.empty()) return {};
  // Bounded only against round-off cycling: |det| grows with every exchange.
  for (std::size_t round = 0; round < 4 * stage.forced.size() + 4; ++round) {
    const std::optional<bool> changed = improve(stage, picked);
    if (!changed) return {};
    if (!*changed) break;
  }
  return picked;
}

double block_quality(const SelectionStage& stage, const std::vector<std::size_t>& picked) {
  const std::optional<Blocks> f = block_form(stage, picked);
  if (!f) return 0.0;
  double quality = 1.0;
  for (std::size_t k = 0; k < f->rows.size(); ++k) {
    const Exchange x = best_exchange(stage, *f, k, picked);
    if (x.factor > 1.0) quality = std::min(quality, 1.0 / x.factor);
  }
  return quality;
}

}  // namespace hdae::reduction
