// Ties a model's ...Parameters struct (the C++ way to build it) to its declared run-time
// parameters (model_builder.hpp): one table row per struct field gives the parameter's name,
// unit, range and description and how to reach the field. The model declares the rows first,
// valued from the struct it was built with, so parameter i is row i; parameters_changed()
// reads the current values back into a copy of the struct, checks the rules between them and
// only then takes the copy, so evaluate() keeps reading plain struct fields.
#pragma once

#include <limits>
#include <span>

#include "hdae/model.hpp"

namespace hdae::models::detail {

/// Lower bound of a quantity that must be > 0 (bounds are inclusive): the smallest positive
/// double.
inline constexpr double kPositive = std::numeric_limits<double>::denorm_min();

template <typename Struct>
struct ParameterField {
  ParameterInfo info;         ///< name, unit, range, description; the value comes from the struct
  double& (*field)(Struct&);  ///< the struct member the parameter sets
};

/// Declares one parameter per row through declare (the model's declare_parameter), valued
/// from p. Called before any other parameter is declared, so row i becomes parameter i.
template <typename Struct, typename Declare>
void declare_fields(std::span<const ParameterField<Struct>> rows, Struct p, Declare declare) {
  for (const ParameterField<Struct>& row : rows) {
    ParameterInfo info = row.info;
    info.value = row.field(p);
    declare(std::move(info));
  }
}

/// p with each row's field set to the current value of parameter i (row i).
template <typename Struct>
[[nodiscard]] Struct read_fields(std::span<const ParameterField<Struct>> rows,
                                 const ModelStructure& s, Struct p) {
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i].field(p) = s.parameters[i].value;
  return p;
}

}  // namespace hdae::models::detail
