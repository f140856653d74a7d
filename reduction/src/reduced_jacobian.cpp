#include "reduced_jacobian.hpp"

#include <algorithm>
#include <array>
#include <functional>

#include "hdae/errors.hpp"

namespace hdae::reduction {
namespace {

bool same_pattern(const SystemJacobian& a, const SystemJacobian& b) {
  if (!a.isCompressed() || a.rows() != b.rows() || a.cols() != b.cols() ||
      a.nonZeros() != b.nonZeros()) {
    return false;
  }
  const auto columns = static_cast<std::size_t>(a.cols()) + 1;
  const auto entries = static_cast<std::size_t>(a.nonZeros());
  return std::equal(a.outerIndexPtr(), a.outerIndexPtr() + columns, b.outerIndexPtr()) &&
         std::equal(a.innerIndexPtr(), a.innerIndexPtr() + entries, b.innerIndexPtr());
}

}  // namespace

ReducedJacobian::ReducedJacobian(const SlotLayout& layout, const SignatureMatrix& signature)
    : layout_(layout), entries_(signature.entries) {
  if (layout.max_c > kMaxJacobianDepth) {
    throw ModelError("index reduction: exact Jacobians go up to equations differentiated " +
                     std::to_string(kMaxJacobianDepth) + " times");
  }
  groups_ = grouped([](const SignatureEntry&) { return true; }, false);
  const std::vector<Group> der_groups =
      grouped([](const SignatureEntry& e) { return e.sigma >= 1; }, true);
  groups_.insert(groups_.end(), der_groups.begin(), der_groups.end());
  // The state selection reads J_ij = dF_i / dx_j^(d_j - c_i) of the rows differentiated at
  // least once: sigma_ij = d_j - c_i, c_i >= 1. Columns grouped by those rows alone need
  // fewer evaluations than all rows' grouping.
  const auto judged = [&layout](const SignatureEntry& e, int sigma) {
    return e.sigma == sigma && layout.c[e.row] >= 1 && layout.d[e.col] - layout.c[e.row] == sigma;
  };
  selection_groups_ = grouped([&](const SignatureEntry& e) { return judged(e, 0); }, false);
  const std::vector<Group> selection_der_groups =
      grouped([&](const SignatureEntry& e) { return judged(e, 1); }, true);
  selection_groups_.insert(selection_groups_.end(), selection_der_groups.begin(),
                           selection_der_groups.end());
  lay_out_system();
  const auto stride = static_cast<std::size_t>(layout.max_c) + 1;
  a_.assign(entries_.size() * stride + 1, 0.0);
  b_.assign(entries_.size() * stride + 1, 0.0);
  system_values_.assign(entries_.size(), 0.0);
  lay_out_terms();
}

void ReducedJacobian::lay_out_terms() {
  const auto stride = static_cast<std::size_t>(layout_.max_c) + 1;
  const std::size_t zero = entries_.size() * stride;
  for (std::size_t e = 0; e < entries_.size(); ++e) {
    const SignatureEntry& s = entries_[e];
    // F_i^(q) holds x_j up to its (sigma_ij + q)-th derivative.
    for_each_derivative_entry(layout_, s, [&](int q, int k) {
      Term term{layout_.row(s.row, q), layout_.slot(s.col, k), 0.0, 0.0, zero, zero};
      if (k <= q) {
        term.ca = binomial(q, k);
        term.a = stride * e + static_cast<std::size_t>(q - k);
      }
      if (s.sigma == 1 && k >= 1) {
        term.cb = binomial(q, k - 1);
        term.b = stride * e + static_cast<std::size_t>(q - k + 1);
      }
      terms_.push_back(term);
    });
  }
}

std::vector<ReducedJacobian::Group> ReducedJacobian::grouped(
    const std::function<bool(const SignatureEntry&)>& keep, bool der) const {
  // Greedy grouping: a column joins the first group none of whose columns shares one of its
  // kept entries' equations, so one evaluation differentiates the whole group and every kept
  // entry's derivative belongs to one column.
  const std::size_t n = layout_.n;
  std::vector<std::vector<std::size_t>> column_entries(n), row_columns(n);
  for (std::size_t e = 0; e < entries_.size(); ++e) {
    if (!keep(entries_[e])) continue;
    column_entries[entries_[e].col].push_back(e);
    row_columns[entries_[e].row].push_back(entries_[e].col);
  }
  std::vector<Group> groups;
  std::vector<std::size_t> group_of(n, n), taken_by;  // taken_by[g]: last column g clashed with
  for (std::size_t j = 0; j < n; ++j) {
    if (column_entries[j].empty()) continue;
    for (const std::size_t e : column_entries[j]) {
      for (const std::size_t other : row_columns[entries_[e].row]) {
        if (group_of[other] != n) taken_by[group_of[other]] = j + 1;
      }
    }
    std::size_t g = 0;
    while (g < groups.size() && taken_by[g] == j + 1) ++g;
    if (g == groups.size()) {
      groups.push_back(Group{{}, {}, der});
      taken_by.push_back(0);
    }
    group_of[j] = g;
    groups[g].columns.push_back(j);
    groups[g].entries.insert(groups[g].entries.end(), column_entries[j].begin(),
                             column_entries[j].end());
  }
  return groups;
}

template <int Depth>
void ReducedJacobian::directional(const PhysicsModel& model, double t,
                                  std::span<const double> slots, const std::vector<Group>& groups,
                                  std::vector<double>& x_out, std::vector<double>& der_out) const {
  const std::size_t n = layout_.n;
  // Once per Newton matrix and step end: the jets' storage is kept between calls, as in
  // equation_derivatives.cpp.
  using J = DirectedJet<Depth>;
  thread_local std::vector<J> x, der_x, r;
  x.resize(n), der_x.resize(n), r.assign(n, J());
  // x_j, x_j', ..., x_j^(Depth): x reads the first Depth of them, der(x) the last Depth.
  for (std::size_t j = 0; j < n; ++j) {
    std::array<double, Depth + 1> d{};
    for (int k = 0; k <= layout_.d[j] && k <= Depth; ++k) {
      d[static_cast<std::size_t>(k)] = slots[layout_.slot(j, k)];
    }
    x[j] = J::from_derivatives(d.data());
    der_x[j] = J::from_derivatives(d.data() + 1);
  }
  std::array<double, Depth> time{}, zero{}, unit{};
  time[0] = t;
  if constexpr (Depth > 1) time[1] = 1.0;
  unit[0] = 1.0;
  const J tj = J::from_derivatives(time.data());
  // Each evaluation differentiates up to kJetDirections groups, group first + w in direction
  // w, seeded before it and cleared after.
  const auto seed = [&](std::size_t first, std::size_t end, const double* e) {
    for (std::size_t g = first; g < end; ++g) {
      for (const std::size_t j : groups[g].columns) {
        (groups[g].der ? der_x : x)[j].set_direction(static_cast<int>(g - first), e);
      }
    }
  };
  for (std::size_t first = 0; first < groups.size(); first += kJetDirections) {
    const std::size_t end = std::min(groups.size(), first + kJetDirections);
    seed(first, end, unit.data());
    Equations<J> eqs(tj, x, der_x, r, model.context());
    model.residuals_of(eqs);
    seed(first, end, zero.data());
    for (std::size_t g = first; g < end; ++g) {
      std::vector<double>& out = groups[g].der ? der_out : x_out;
      for (const std::size_t e : groups[g].entries) {
        for (int m = 0; m < Depth; ++m) {
          out[static_cast<std::size_t>(Depth) * e + static_cast<std::size_t>(m)] =
              r[entries_[e].row].direction_derivative(static_cast<int>(g - first), m);
        }
      }
    }
  }
}

void ReducedJacobian::differentiate(const PhysicsModel& model, double t,
                                    std::span<const double> slots) const {
  switch (layout_.max_c) {
    case 0:
      return directional<1>(model, t, slots, groups_, a_, b_);
    case 1:
      return directional<2>(model, t, slots, groups_, a_, b_);
    default:
      return directional<3>(model, t, slots, groups_, a_, b_);
  }
}

void ReducedJacobian::lay_out_system() {
  const auto n = static_cast<Eigen::Index>(layout_.n);
  std::vector<Eigen::Triplet<double>> entries;
  for (const Group& g : selection_groups_) {
    for (const std::size_t e : g.entries) {
      entries.emplace_back(static_cast<Eigen::Index>(entries_[e].row),
                           static_cast<Eigen::Index>(entries_[e].col), 0.0);
    }
  }
  system_pattern_.resize(n, n);
  system_pattern_.setFromTriplets(entries.begin(), entries.end());
  system_pattern_.makeCompressed();
  // Each signature entry is one (row, column), so each judged entry owns one stored value.
  system_value_.assign(entries_.size(), 0);
  for (const Group& g : selection_groups_) {
    for (const std::size_t e : g.entries) {
      const auto col = static_cast<Eigen::Index>(entries_[e].col);
      const int* begin = system_pattern_.innerIndexPtr() + system_pattern_.outerIndexPtr()[col];
      const int* end = system_pattern_.innerIndexPtr() + system_pattern_.outerIndexPtr()[col + 1];
      system_value_[e] =
          static_cast<std::size_t>(std::lower_bound(begin, end, static_cast<int>(entries_[e].row)) -
                                   system_pattern_.innerIndexPtr());
    }
  }
}

void ReducedJacobian::system(const PhysicsModel& model, double t, std::span<const double> slots,
                             SystemJacobian& j) const {
  // At every step end for the selection's judgement: the pattern is laid out once and the
  // buffers kept, so a call allocates nothing once j has the pattern. The judged entries in x
  // (sigma_ij = 0) and in der(x) (sigma_ij = 1) are different entries, so they share one
  // buffer.
  if (!same_pattern(j, system_pattern_)) j = system_pattern_;
  directional<1>(model, t, slots, selection_groups_, system_values_, system_values_);
  for (const Group& g : selection_groups_) {
    for (const std::size_t e : g.entries) j.valuePtr()[system_value_[e]] = system_values_[e];
  }
}

void ReducedJacobian::system_of_last(SystemJacobian& j) const {
  if (!same_pattern(j, system_pattern_)) j = system_pattern_;
  const auto stride = static_cast<std::size_t>(layout_.max_c) + 1;
  for (const Group& g : selection_groups_) {
    const std::vector<double>& values = g.der ? b_ : a_;
    for (const std::size_t e : g.entries) j.valuePtr()[system_value_[e]] = values[stride * e];
  }
}

}  // namespace hdae::reduction
