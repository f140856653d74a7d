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
  x_groups_ = grouped([](const SignatureEntry&) { return true; });
  der_groups_ = grouped([](const SignatureEntry& e) { return e.sigma >= 1; });
  // The state selection reads J_ij = dF_i / dx_j^(d_j - c_i) of the rows differentiated at
  // least once: sigma_ij = d_j - c_i, c_i >= 1. Columns grouped by those rows alone need
  // fewer evaluations than all rows' grouping.
  const auto judged = [&layout](const SignatureEntry& e, int sigma) {
    return e.sigma == sigma && layout.c[e.row] >= 1 && layout.d[e.col] - layout.c[e.row] == sigma;
  };
  selection_x_groups_ = grouped([&](const SignatureEntry& e) { return judged(e, 0); });
  selection_der_groups_ = grouped([&](const SignatureEntry& e) { return judged(e, 1); });
  lay_out_system();
  const auto stride = static_cast<std::size_t>(layout.max_c) + 1;
  a_.assign(entries_.size() * stride, 0.0);
  b_.assign(entries_.size() * stride, 0.0);
}

std::vector<ReducedJacobian::Group> ReducedJacobian::grouped(
    const std::function<bool(const SignatureEntry&)>& keep) const {
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
      groups.emplace_back();
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
                                  bool der, std::vector<double>& out) const {
  const std::size_t n = layout_.n;
  // Once per Newton matrix: the jets' storage is kept between calls, as in
  // equation_derivatives.cpp.
  using J = DirectedJet<Depth>;
  thread_local std::vector<J> x, der_x, r;
  x.resize(n), der_x.resize(n), r.assign(n, J());
  std::array<double, Depth> zero{}, unit{};
  unit[0] = 1.0;
  // x_j, x_j', ..., x_j^(Depth): x reads the first Depth of them, der(x) the last Depth.
  const auto seed = [&](std::size_t j, bool in_der, const double* direction) {
    std::array<double, Depth + 1> d{};
    for (int k = 0; k <= layout_.d[j] && k <= Depth; ++k) {
      d[static_cast<std::size_t>(k)] = slots[layout_.slot(j, k)];
    }
    if (in_der) {
      der_x[j] = J::with_direction(d.data() + 1, direction);
    } else {
      x[j] = J::with_direction(d.data(), direction);
    }
  };
  // Every unknown without direction once; each group seeds its own columns and clears them
  // again after its evaluation.
  for (std::size_t j = 0; j < n; ++j) seed(j, false, zero.data()), seed(j, true, zero.data());
  std::array<double, Depth> time{};
  time[0] = t;
  if constexpr (Depth > 1) time[1] = 1.0;
  const J tj = J::with_direction(time.data(), zero.data());
  for (const Group& group : groups) {
    for (const std::size_t j : group.columns) seed(j, der, unit.data());
    Equations<J> eqs(tj, x, der_x, r, model.context());
    model.residuals_of(eqs);
    for (const std::size_t j : group.columns) seed(j, der, zero.data());
    for (const std::size_t e : group.entries) {
      for (int m = 0; m < Depth; ++m) {
        out[static_cast<std::size_t>(Depth) * e + static_cast<std::size_t>(m)] =
            r[entries_[e].row].direction_derivative(m);
      }
    }
  }
}

void ReducedJacobian::differentiate(const PhysicsModel& model, double t,
                                    std::span<const double> slots) const {
  const auto run = [&](const std::vector<Group>& groups, bool der, std::vector<double>& out) {
    switch (layout_.max_c) {
      case 0:
        return directional<1>(model, t, slots, groups, der, out);
      case 1:
        return directional<2>(model, t, slots, groups, der, out);
      default:
        return directional<3>(model, t, slots, groups, der, out);
    }
  };
  run(x_groups_, false, a_);
  run(der_groups_, true, b_);
}

void ReducedJacobian::lay_out_system() {
  const auto n = static_cast<Eigen::Index>(layout_.n);
  std::vector<Eigen::Triplet<double>> entries;
  for (const auto* groups : {&selection_x_groups_, &selection_der_groups_}) {
    for (const Group& g : *groups) {
      for (const std::size_t e : g.entries) {
        entries.emplace_back(static_cast<Eigen::Index>(entries_[e].row),
                             static_cast<Eigen::Index>(entries_[e].col), 0.0);
      }
    }
  }
  system_pattern_.resize(n, n);
  system_pattern_.setFromTriplets(entries.begin(), entries.end());
  system_pattern_.makeCompressed();
  // Each signature entry is one (row, column), so each judged entry owns one stored value.
  system_value_.assign(entries_.size(), 0);
  for (const auto* groups : {&selection_x_groups_, &selection_der_groups_}) {
    for (const Group& g : *groups) {
      for (const std::size_t e : g.entries) {
        const auto col = static_cast<Eigen::Index>(entries_[e].col);
        const int* begin = system_pattern_.innerIndexPtr() + system_pattern_.outerIndexPtr()[col];
        const int* end = system_pattern_.innerIndexPtr() + system_pattern_.outerIndexPtr()[col + 1];
        system_value_[e] = static_cast<std::size_t>(
            std::lower_bound(begin, end, static_cast<int>(entries_[e].row)) -
            system_pattern_.innerIndexPtr());
      }
    }
  }
}

void ReducedJacobian::system(const PhysicsModel& model, double t, std::span<const double> slots,
                             SystemJacobian& j) const {
  const std::size_t n = layout_.n;
  // At every step end for the selection's judgement: the pattern is laid out once and the
  // buffers kept, so a call allocates nothing once j has the pattern.
  if (!same_pattern(j, system_pattern_)) j = system_pattern_;
  Workspace& w = workspace_;
  w.x.resize(n), w.der_x.resize(n), w.r.resize(n);
  const double zero = 0.0, unit = 1.0;
  const auto value = [&](std::size_t c, bool der) {
    return der ? (layout_.d[c] >= 1 ? slots[layout_.slot(c, 1)] : 0.0) : slots[layout_.slot(c, 0)];
  };
  const auto seed = [&](std::size_t c, bool der, const double* direction) {
    const double v = value(c, der);
    (der ? w.der_x : w.x)[c] = DirectedJet1::with_direction(&v, direction);
  };
  // Every unknown at the point without direction once; each group seeds its own columns and
  // clears them again after its evaluation.
  for (std::size_t c = 0; c < n; ++c) seed(c, false, &zero), seed(c, true, &zero);
  const auto run = [&](const std::vector<Group>& groups, bool der) {
    for (const Group& g : groups) {
      for (const std::size_t c : g.columns) seed(c, der, &unit);
      Equations<DirectedJet1> eqs(DirectedJet1::with_direction(&t, &zero), w.x, w.der_x, w.r,
                                  model.context());
      model.residuals_of(eqs);
      for (const std::size_t c : g.columns) seed(c, der, &zero);
      // The groups hold only entries with sigma_ij = d_j - c_i: x_j or der(x_j).
      for (const std::size_t e : g.entries) {
        j.valuePtr()[system_value_[e]] = w.r[entries_[e].row].direction_derivative(0);
      }
    }
  };
  run(selection_x_groups_, false);
  run(selection_der_groups_, true);
}

void ReducedJacobian::system_of_last(SystemJacobian& j) const {
  if (!same_pattern(j, system_pattern_)) j = system_pattern_;
  const auto stride = static_cast<std::size_t>(layout_.max_c) + 1;
  const auto take = [&](const std::vector<Group>& groups, const std::vector<double>& values) {
    for (const Group& g : groups) {
      for (const std::size_t e : g.entries) j.valuePtr()[system_value_[e]] = values[stride * e];
    }
  };
  take(selection_x_groups_, a_);
  take(selection_der_groups_, b_);
}

}  // namespace hdae::reduction
