// A mode of the model read as an explicit ODE, x' = f(t, x), for CVODE and ARKODE
// (SimulationOptions::method; docs/design.md, "Integrators"). F is linear in der_x (the
// model contract), so F(t, x, der_x) = M(t, x) der_x + F(t, x, 0), and the mode is an explicit
// ODE when it has no constraint rows and M has exactly one non-zero entry in every row and
// every column: row i holds the derivative of variable p(i) with coefficient m_i, and
// f_p(i) = -F_i(t, x, 0) / m_i. M is found at the mode's start from its columns
// F(t, x, e_j) - F(t, x, 0) (a colour of columns at a time on the sparse path); whether the
// m_i depend on (t, x), and whether the crossings read der_x, is probed at a second point, so
// that f costs one residual call where it can and two where it must.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "events/crossing_table.hpp"
#include "hdae/declarations.hpp"
#include "model/model_calls.hpp"
#include "sparsity/sparsity_pattern.hpp"

namespace hdae::detail {

struct ExplicitForm {
  std::vector<std::size_t> variable_of_row;  ///< p(i): the variable whose derivative row i holds
  std::vector<double> coefficient;           ///< m_i at the mode's start
  /// The m_i were the same at a second point: f needs F(t, x, 0) only; otherwise each f also
  /// evaluates F(t, x, 1) - F(t, x, 0) = m(t, x).
  bool constant_coefficients = true;
  /// Some crossing value changed with der_x: the root functions need f first.
  bool crossings_read_derivatives = false;
};

/// The explicit form of the mode of row_kinds at (t, x, der_x), der_x consistent there, or
/// why there is none (in *why, naming the row or the variable); pattern: the model's, for
/// the sparse path's coloured probes, or nullptr.
[[nodiscard]] std::optional<ExplicitForm> find_explicit_form(
    ModelCalls& model, CrossingTable& crossings, double t, std::span<const double> x,
    std::span<const double> der_x, std::span<const RowKind> row_kinds,
    const sparsity::SparsityPattern* pattern, std::string* why);

}  // namespace hdae::detail
