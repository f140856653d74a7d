#include "sensitivity/model_linearisation.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

namespace hdae::detail {
namespace {

/// The cj of the second call. J(c) - J(0) = c dF/d(der_x) carries the rounding of
/// dF/dx + c dF/d(der_x), so c large against the ratio of those parts keeps dF/d(der_x) to
/// the unit round-off; a power of two divides out exactly.
constexpr double kDerivativeWeight = 1073741824.0;  // 2^30

/// The adds of one jacobian() call, in the model's order, into a vector kept between calls.
class CollectedEntries final : public JacobianEntries {
 public:
  explicit CollectedEntries(std::vector<CollectedEntry>& into) : entries_(into) {
    entries_.clear();
  }
  void add(Eq row, Var col, double value) override {
    entries_.push_back({row.index, col.index, value});
  }

 private:
  std::vector<CollectedEntry>& entries_;
};

/// Each position once, in (row, col) order, the model's adds summed.
void sum_by_position(std::vector<CollectedEntry>& entries) {
  std::sort(entries.begin(), entries.end(), [](const CollectedEntry& a, const CollectedEntry& b) {
    return std::tie(a.row, a.col) < std::tie(b.row, b.col);
  });
  std::size_t out = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (out > 0 && entries[out - 1].row == entries[i].row &&
        entries[out - 1].col == entries[i].col) {
      entries[out - 1].value += entries[i].value;
    } else {
      entries[out++] = entries[i];
    }
  }
  entries.resize(out);
}

bool same_positions(const std::vector<CollectedEntry>& a, const std::vector<CollectedEntry>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const CollectedEntry& u, const CollectedEntry& v) {
                      return u.row == v.row && u.col == v.col;
                    });
}

}  // namespace

void ModelLinearisation::take(SimulationModel& model, double t, std::span<const double> x,
                              std::span<const double> der_x) {
  CollectedEntries at_zero(at_zero_);
  model.jacobian(t, 0.0, x, der_x, at_zero);
  CollectedEntries weighted(weighted_);
  model.jacobian(t, kDerivativeWeight, x, der_x, weighted);
  // A model adds the same positions in the same order whatever cj (the usual case): the adds
  // pair up. Otherwise each position's sums do, a position missing from one call being 0.
  if (!same_positions(at_zero_, weighted_)) {
    sum_by_position(at_zero_);
    sum_by_position(weighted_);
    merge_positions();
  }
  entries_.clear();
  for (std::size_t i = 0; i < at_zero_.size(); ++i) {
    const double d_der = (weighted_[i].value - at_zero_[i].value) / kDerivativeWeight;
    entries_.push_back({at_zero_[i].row, at_zero_[i].col, at_zero_[i].value, d_der});
  }
}

void ModelLinearisation::merge_positions() {
  std::vector<CollectedEntry> zero;
  std::vector<CollectedEntry> weighted;
  std::size_t i = 0;
  std::size_t j = 0;
  const auto before = [](const CollectedEntry& a, const CollectedEntry& b) {
    return std::tie(a.row, a.col) < std::tie(b.row, b.col);
  };
  while (i < at_zero_.size() || j < weighted_.size()) {
    const bool from_zero =
        j == weighted_.size() || (i < at_zero_.size() && !before(weighted_[j], at_zero_[i]));
    const bool from_weighted =
        i == at_zero_.size() || (j < weighted_.size() && !before(at_zero_[i], weighted_[j]));
    const CollectedEntry& at = from_zero ? at_zero_[i] : weighted_[j];
    zero.push_back({at.row, at.col, from_zero ? at_zero_[i++].value : 0.0});
    weighted.push_back({at.row, at.col, from_weighted ? weighted_[j++].value : 0.0});
  }
  at_zero_ = std::move(zero);
  weighted_ = std::move(weighted);
}

void ModelLinearisation::apply(std::span<const double> s, std::span<const double> der_s,
                               std::span<double> r) const {
  std::fill(r.begin(), r.end(), 0.0);
  for (const Entry& e : entries_) r[e.row] += e.d_x * s[e.col] + e.d_der * der_s[e.col];
}

}  // namespace hdae::detail
