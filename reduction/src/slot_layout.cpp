#include "slot_layout.hpp"

#include <algorithm>
#include <string>

namespace hdae::reduction {

SlotLayout make_layout(std::span<const int> c, std::span<const int> d) {
  SlotLayout l;
  l.n = c.size();
  l.c.assign(c.begin(), c.end());
  l.d.assign(d.begin(), d.end());
  for (std::size_t j = 0; j < l.n; ++j) {
    l.first_slot.push_back(l.num_slots);
    l.num_slots += static_cast<std::size_t>(d[j]) + 1;
  }
  for (std::size_t i = 0; i < l.n; ++i) {
    l.first_row.push_back(l.num_equation_rows);
    l.num_equation_rows += static_cast<std::size_t>(c[i]) + 1;
    l.max_c = std::max(l.max_c, c[i]);
  }
  return l;
}

std::string slot_name(const std::string& name, int k) {
  return name + std::string(static_cast<std::size_t>(k), '\'');
}

std::string derived_equation_name(const std::string& name, int q) {
  if (q == 0) return name;
  if (q == 1) return "d/dt (" + name + ")";
  return "d" + std::to_string(q) + "/dt" + std::to_string(q) + " (" + name + ")";
}

ModelStructure reduced_structure(const ModelStructure& original, const SlotLayout& layout) {
  ModelStructure s;
  s.name = original.name;
  for (std::size_t j = 0; j < layout.n; ++j) {
    const VariableInfo v = original.variables.info(j);
    for (int k = 0; k <= layout.d[j]; ++k) {
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
      slot.error_control = k >= 1 && k == layout.d[j] ? ErrorControl::kExcluded : v.error_control;
      slot.abs_tol = k == 0 ? v.abs_tol : std::nullopt;
      // The feasible region bounds the unknown itself, not its derivatives.
      slot.min = k == 0 ? v.min : std::nullopt;
      slot.max = k == 0 ? v.max : std::nullopt;
      s.variables.add(std::move(slot));
    }
  }
  for (std::size_t i = 0; i < layout.n; ++i) {
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
