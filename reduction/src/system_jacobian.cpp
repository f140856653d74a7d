#include "system_jacobian.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "equation_derivatives.hpp"
#include "reduced_pattern.hpp"

namespace hdae::reduction {
namespace {

/// Each list sorted and without repeats: slots that several logical slots share (aliases) list
/// a row once, and its quotient is the derivative with respect to the shared unknown.
void sort_unique(std::vector<std::vector<std::size_t>>& lists) {
  for (std::vector<std::size_t>& l : lists) {
    std::sort(l.begin(), l.end());
    l.erase(std::unique(l.begin(), l.end()), l.end());
  }
}

/// The columns of J in x (order 0) or in der(x) (order 1): for each unknown the differentiated
/// rows in which it appears in that argument (those its move disturbs) and those at which J
/// has an entry for it.
struct Columns {
  std::vector<std::vector<std::size_t>> disturbs, gives;
};

Columns columns_of(const SlotLayout& l, const SignatureMatrix& signature, int order) {
  Columns c{std::vector<std::vector<std::size_t>>(l.n), std::vector<std::vector<std::size_t>>(l.n)};
  for (const SignatureEntry& e : signature.entries) {
    if (l.c[e.row] < 1) continue;  // not a row of any stage
    if (e.sigma >= order) c.disturbs[e.col].push_back(e.row);
    if (e.sigma == order && l.d[e.col] - l.c[e.row] == order) c.gives[e.col].push_back(e.row);
  }
  return c;
}

}  // namespace

std::vector<std::vector<std::size_t>> disjoint_groups(
    const std::vector<std::vector<std::size_t>>& rows_of, std::size_t num_rows) {
  std::vector<std::vector<std::size_t>> groups;
  std::vector<std::vector<std::size_t>> groups_at(num_rows);  // per row: groups touching it
  std::vector<std::size_t> clash;  // clash[g] == c + 1: group g shares a row with column c
  for (std::size_t c = 0; c < rows_of.size(); ++c) {
    if (rows_of[c].empty()) continue;
    for (const std::size_t r : rows_of[c]) {
      for (const std::size_t g : groups_at[r]) clash[g] = c + 1;
    }
    std::size_t g = 0;
    while (g < groups.size() && clash[g] == c + 1) ++g;
    if (g == groups.size()) {
      groups.emplace_back();
      clash.push_back(0);
    }
    groups[g].push_back(c);
    for (const std::size_t r : rows_of[c]) groups_at[r].push_back(g);
  }
  return groups;
}

SystemJacobian system_jacobian(const PhysicsModel& model, const SlotLayout& l,
                               const SignatureMatrix& signature, double t,
                               std::span<const double> slots) {
  const std::size_t n = l.n;
  const auto& vars = model.structure().variables;
  std::vector<double> x(n), der_x(n), base(n), r(n), h(n);
  original_point(l, slots, x, der_x);
  Equations<double> at_base(t, x, der_x, base, model.context());
  model.residuals_of(at_base);
  std::vector<Eigen::Triplet<double>> entries;
  for (const int order : {0, 1}) {
    std::vector<double>& v = order == 0 ? x : der_x;
    const Columns c = columns_of(l, signature, order);
    for (const std::vector<std::size_t>& group : disjoint_groups(c.disturbs, n)) {
      const std::vector<double> saved = v;
      for (const std::size_t j : group) {
        h[j] = 1e-7 * std::max(std::abs(v[j]), vars.nominal(j));
        v[j] += h[j];
      }
      Equations<double> moved(t, x, der_x, r, model.context());
      model.residuals_of(moved);
      v = saved;
      for (const std::size_t j : group) {
        for (const std::size_t i : c.gives[j]) {
          entries.emplace_back(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j),
                               (r[i] - base[i]) / h[j]);
        }
      }
    }
  }
  SystemJacobian j(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  j.setFromTriplets(entries.begin(), entries.end());
  return j;
}

void difference_jacobian(
    const PhysicsModel& model, const SlotLayout& l, const SignatureMatrix& signature, double t,
    std::span<const double> slots, std::span<const double> scale,
    const std::function<void(std::size_t row, std::size_t slot, double value)>& entry) {
  const std::size_t rows = l.num_equation_rows;
  std::vector<std::vector<std::size_t>> rows_of(l.num_slots);
  for (const SignatureEntry& e : signature.entries) {
    for_each_derivative_entry(
        l, e, [&](int q, int k) { rows_of[l.slot(e.col, k)].push_back(l.row(e.row, q)); });
  }
  sort_unique(rows_of);
  std::vector<double> base(rows), moved(rows), y(slots.begin(), slots.end()), h(y.size());
  equation_derivatives(model, l, t, y, base);
  for (const std::vector<std::size_t>& group : disjoint_groups(rows_of, rows)) {
    for (const std::size_t k : group) {
      // About the square root of the unit round-off of the slot's size: the usual balance of
      // truncation and rounding for a forward difference.
      h[k] = 1e-8 * std::max(std::abs(y[k]), scale[k]);
      y[k] = slots[k] + h[k];
    }
    equation_derivatives(model, l, t, y, moved);
    for (const std::size_t k : group) {
      y[k] = slots[k];
      for (const std::size_t i : rows_of[k]) entry(i, k, (moved[i] - base[i]) / h[k]);
    }
  }
}

}  // namespace hdae::reduction
