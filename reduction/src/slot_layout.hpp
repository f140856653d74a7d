// Where the reduced system keeps each derivative of each unknown and each derivative of each
// equation (hdae/index_reduction.hpp, step 2).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "hdae/model.hpp"

namespace hdae::reduction {

struct SlotLayout {
  std::size_t n = 0;  ///< unknowns (and equations) of the original model
  std::vector<int> c, d;
  std::vector<std::size_t> first_slot;  ///< x_j^(k) is slot first_slot[j] + k, k <= d_j
  std::vector<std::size_t> first_row;   ///< F_i^(q) is row first_row[i] + q, q <= c_i
  std::size_t num_slots = 0;            ///< sum (d_j + 1): the reduced system's size
  std::size_t num_equation_rows = 0;    ///< sum (c_i + 1); the state rows follow them
  int max_c = 0;

  [[nodiscard]] std::size_t slot(std::size_t j, int k) const {
    return first_slot[j] + static_cast<std::size_t>(k);
  }
  [[nodiscard]] std::size_t row(std::size_t i, int q) const {
    return first_row[i] + static_cast<std::size_t>(q);
  }
  /// Number of states: sum d_j - sum c_i.
  [[nodiscard]] std::size_t num_states() const { return num_slots - num_equation_rows; }
};

[[nodiscard]] SlotLayout make_layout(std::span<const int> c, std::span<const int> d);

/// "x", "x'", "x''", "x'''" for k = 0..3.
[[nodiscard]] std::string slot_name(const std::string& name, int k);
/// "F", "d/dt (F)", "d2/dt2 (F)", "d3/dt3 (F)" for q = 0..3.
[[nodiscard]] std::string derived_equation_name(const std::string& name, int q);

/// The reduced model's structure: one variable per slot (start values from the original:
/// x_j from start, x_j' from der_start, higher ones 0), the rows F_i^(q) as constraints, then
/// num_states() differential rows (named by the state selection), the original's outputs and
/// parameters. No crossings (the state selection adds its own).
[[nodiscard]] ModelStructure reduced_structure(const ModelStructure& original,
                                               const SlotLayout& layout);

}  // namespace hdae::reduction
