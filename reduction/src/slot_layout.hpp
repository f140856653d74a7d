// Where the reduced system keeps each derivative of each unknown and each derivative of each
// equation (hdae/index_reduction.hpp, step 2).
//
// Every derivative x_j^(k), k = 0..d_j, is a slot; every F_i^(q), q = 0..c_i, a row. An equation
// that only names a derivative, der(x_a) = x_b (a kinematic row der(x) = v), makes slots
// equal: x_a^(q+1) is x_b^(q) for q = 0..c_i, the row and all its derivatives hold by
// construction. Such slots share one unknown of the reduced system, named after the lowest
// derivative among them (v, not x'), and the rows leave the system: IDA integrates fewer
// unknowns, and its dense solves cost with their square.
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "hdae/model.hpp"

namespace hdae::reduction {

/// Row `row` of the original model says der(x_derivative_of) = x_equals, and nothing else.
struct Alias {
  std::size_t row = 0;
  std::size_t derivative_of = 0;
  std::size_t equals = 0;
  friend bool operator==(const Alias&, const Alias&) = default;
};

struct SlotLayout {
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

  std::size_t n = 0;  ///< unknowns (and equations) of the original model
  std::vector<int> c, d;
  std::vector<Alias> aliases;
  std::vector<std::size_t> first_logical;  ///< x_j^(k) is logical slot first_logical[j] + k
  std::vector<std::size_t> unknown_of;     ///< per logical slot: the reduced system's unknown
  /// per unknown: the logical slot it is named after (the lowest derivative among its slots)
  std::vector<std::size_t> named_after;
  std::vector<std::size_t> first_row;  ///< F_i^(q) is row first_row[i] + q; kNone: an alias
  /// stage_rows[kappa] (kappa = 1..max c): the equations with c_i >= kappa; stage_candidates:
  /// the unknowns with d_j >= kappa (the state selection's stages); index 0 unused.
  std::vector<std::vector<std::size_t>> stage_rows, stage_candidates;
  std::size_t num_slots = 0;          ///< unknowns of the reduced system
  std::size_t num_equation_rows = 0;  ///< rows F_i^(q) kept; the state rows follow them
  int max_c = 0;

  /// The reduced system's unknown holding x_j^(k), k <= d_j.
  [[nodiscard]] std::size_t slot(std::size_t j, int k) const {
    return unknown_of[first_logical[j] + static_cast<std::size_t>(k)];
  }
  [[nodiscard]] bool has_rows(std::size_t i) const { return first_row[i] != kNone; }
  /// The row of F_i^(q), q <= c_i, for an equation that is no alias.
  [[nodiscard]] std::size_t row(std::size_t i, int q) const {
    return first_row[i] + static_cast<std::size_t>(q);
  }
  /// The original unknown j and derivative k a logical slot stands for.
  [[nodiscard]] std::pair<std::size_t, int> logical(std::size_t s) const;
  [[nodiscard]] std::size_t num_logical() const {
    return n == 0 ? 0 : first_logical[n - 1] + static_cast<std::size_t>(d[n - 1]) + 1;
  }
  /// Number of states: unknowns less rows.
  [[nodiscard]] std::size_t num_states() const { return num_slots - num_equation_rows; }
};

/// The layout for offsets c, d with the given aliases merged (each with d_a - c_i = 1 and
/// d_b >= c_i, so that every x_a^(q+1), q <= c_i, has its x_b^(q)).
[[nodiscard]] SlotLayout make_layout(std::span<const int> c, std::span<const int> d,
                                     std::span<const Alias> aliases = {});

/// The layout with unknown u renumbered number[u] (a permutation of its unknowns): a new mode's
/// layout made to keep the numbering of the run it continues.
[[nodiscard]] SlotLayout renumbered(SlotLayout layout, std::span<const std::size_t> number);

/// "x", "x'", "x''", "x'''" for k = 0..3.
[[nodiscard]] std::string slot_name(const std::string& name, int k);
/// "F", "d/dt (F)", "d2/dt2 (F)", "d3/dt3 (F)" for q = 0..3.
[[nodiscard]] std::string derived_equation_name(const std::string& name, int q);

/// The reduced model's structure: one variable per unknown, described by the slot it is named
/// after (start values from the original: x_j from start, x_j' from der_start, higher ones 0),
/// the rows F_i^(q) of the equations that are no aliases as constraints, then num_states()
/// differential rows (named by the state selection), the original's outputs and parameters.
[[nodiscard]] ModelStructure reduced_structure(const ModelStructure& original,
                                               const SlotLayout& layout);

}  // namespace hdae::reduction
