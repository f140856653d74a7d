#include "slot_layout.hpp"

#include <algorithm>
#include <numeric>
#include <string>

namespace hdae::reduction {
namespace {

/// Union-find over the logical slots: the classes of slots that are one unknown.
class SlotClasses {
 public:
  explicit SlotClasses(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  std::size_t find(std::size_t s) {
    while (parent_[s] != s) s = parent_[s] = parent_[parent_[s]];
    return s;
  }
  void unite(std::size_t a, std::size_t b) { parent_[find(a)] = find(b); }

 private:
  std::vector<std::size_t> parent_;
};

}  // namespace

std::pair<std::size_t, int> SlotLayout::logical(std::size_t s) const {
  const auto it = std::upper_bound(first_logical.begin(), first_logical.end(), s);
  const auto j = static_cast<std::size_t>(it - first_logical.begin()) - 1;
  return {j, static_cast<int>(s - first_logical[j])};
}

SlotLayout make_layout(std::span<const int> c, std::span<const int> d,
                       std::span<const Alias> aliases) {
  SlotLayout l;
  l.n = c.size();
  l.c.assign(c.begin(), c.end());
  l.d.assign(d.begin(), d.end());
  l.aliases.assign(aliases.begin(), aliases.end());
  std::size_t logical = 0;
  for (std::size_t j = 0; j < l.n; ++j) {
    l.first_logical.push_back(logical);
    logical += static_cast<std::size_t>(d[j]) + 1;
  }
  SlotClasses classes(logical);
  std::vector<bool> alias_row(l.n, false);
  for (const Alias& a : aliases) {
    alias_row[a.row] = true;
    for (int q = 0; q <= c[a.row]; ++q) {
      classes.unite(l.first_logical[a.derivative_of] + static_cast<std::size_t>(q) + 1,
                    l.first_logical[a.equals] + static_cast<std::size_t>(q));
    }
  }
  // Each class is named after its lowest derivative (v rather than x'), the first such slot.
  std::vector<std::size_t> name(logical, SlotLayout::kNone);
  for (std::size_t s = 0; s < logical; ++s) {
    std::size_t& best = name[classes.find(s)];
    if (best == SlotLayout::kNone || l.logical(s).second < l.logical(best).second) best = s;
  }
  std::vector<std::size_t> index(logical, SlotLayout::kNone);
  for (std::size_t s = 0; s < logical; ++s) {
    if (name[classes.find(s)] != s) continue;
    index[classes.find(s)] = l.named_after.size();
    l.named_after.push_back(s);
  }
  for (std::size_t s = 0; s < logical; ++s) l.unknown_of.push_back(index[classes.find(s)]);
  l.num_slots = l.named_after.size();
  for (std::size_t i = 0; i < l.n; ++i) {
    l.max_c = std::max(l.max_c, c[i]);
    if (alias_row[i]) {
      l.first_row.push_back(SlotLayout::kNone);
      continue;
    }
    l.first_row.push_back(l.num_equation_rows);
    l.num_equation_rows += static_cast<std::size_t>(c[i]) + 1;
  }
  l.stage_rows.assign(static_cast<std::size_t>(l.max_c) + 1, {});
  l.stage_candidates.assign(static_cast<std::size_t>(l.max_c) + 1, {});
  for (int kappa = 1; kappa <= l.max_c; ++kappa) {
    const auto k = static_cast<std::size_t>(kappa);
    for (std::size_t i = 0; i < l.n; ++i) {
      if (c[i] >= kappa) l.stage_rows[k].push_back(i);
      if (d[i] >= kappa) l.stage_candidates[k].push_back(i);
    }
  }
  return l;
}

SlotLayout renumbered(SlotLayout layout, std::span<const std::size_t> number) {
  for (std::size_t& u : layout.unknown_of) u = number[u];
  std::vector<std::size_t> named_after(layout.num_slots);
  for (std::size_t u = 0; u < layout.num_slots; ++u) named_after[number[u]] = layout.named_after[u];
  layout.named_after = std::move(named_after);
  return layout;
}

std::string slot_name(const std::string& name, int k) {
  return name + std::string(static_cast<std::size_t>(k), '\'');
}

std::string derived_equation_name(const std::string& name, int q) {
  if (q == 0) return name;
  if (q == 1) return "d/dt (" + name + ")";
  return "d" + std::to_string(q) + "/dt" + std::to_string(q) + " (" + name + ")";
}

namespace {

/// The description of one logical slot, x_j^(k), from the original variable's.
VariableInfo slot_info(const VariableInfo& v, int k, int d) {
  VariableInfo slot;
  slot.name = slot_name(v.name, k);
  slot.unit = k == 0 ? v.unit : (k == 1 ? v.der_unit : std::string());
  slot.start = k == 0 ? v.start : (k == 1 ? v.der_start.value_or(0.0) : 0.0);
  slot.fixed = k == 0 ? v.fixed : false;
  slot.nominal = v.nominal;
  // The highest derivative slot is a dummy derivative in every selection (no state row
  // reaches it): the equations fix it from the lower slots, so its accuracy follows theirs.
  // Its own local error would be that of the (k+1)-th derivative of a quantity the states
  // carry k orders lower, and IDA's error test on it would halve the steps for nothing the
  // results gain (docs/design.md, "Index reduction").
  slot.error_control = k >= 1 && k == d ? ErrorControl::kExcluded : v.error_control;
  slot.abs_tol = k == 0 ? v.abs_tol : std::nullopt;
  // The feasible region bounds the unknown itself, not its derivatives.
  slot.min = k == 0 ? v.min : std::nullopt;
  slot.max = k == 0 ? v.max : std::nullopt;
  return slot;
}

}  // namespace

ModelStructure reduced_structure(const ModelStructure& original, const SlotLayout& layout) {
  ModelStructure s;
  s.name = original.name;
  std::vector<VariableInfo> infos(layout.num_slots);
  for (std::size_t u = 0; u < layout.num_slots; ++u) {
    const auto [j, k] = layout.logical(layout.named_after[u]);
    infos[u] = slot_info(original.variables.info(j), k, layout.d[j]);
  }
  // The other slots of an unknown: error control when any of them needs it, the bounds of an
  // unknown itself when it is one of them.
  for (std::size_t l = 0; l < layout.num_logical(); ++l) {
    const std::size_t u = layout.unknown_of[l];
    if (l == layout.named_after[u]) continue;
    const auto [j, k] = layout.logical(l);
    const VariableInfo other = slot_info(original.variables.info(j), k, layout.d[j]);
    if (other.error_control == ErrorControl::kIncluded) {
      infos[u].error_control = ErrorControl::kIncluded;
    }
    if (other.min && (!infos[u].min || *other.min > *infos[u].min)) infos[u].min = other.min;
    if (other.max && (!infos[u].max || *other.max < *infos[u].max)) infos[u].max = other.max;
  }
  for (VariableInfo& info : infos) s.variables.add(std::move(info));
  for (std::size_t i = 0; i < layout.n; ++i) {
    if (!layout.has_rows(i)) continue;
    for (int q = 0; q <= layout.c[i]; ++q) {
      s.equations.add({derived_equation_name(original.equations.name(i), q), RowKind::kConstraint});
    }
  }
  for (std::size_t m = 0; m < layout.num_states(); ++m) {
    s.equations.add({"state " + std::to_string(m + 1), RowKind::kDifferential});
  }
  s.outputs = original.outputs;
  s.parameters = original.parameters;
  // The original's crossings and time events first, at their own indices: its template and its
  // event handler then address them unchanged (IndexReducedModel forwards both).
  s.crossings = original.crossings;
  s.time_events = original.time_events;
  return s;
}

}  // namespace hdae::reduction
