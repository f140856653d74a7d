// An example's reference run: its model with the reference parameters
// (Example::reference_parameters over the defaults) and its options, of which
// hdae-make-references tightens rel_tol to kReferenceRelTol to write references/<name>.csv
// with the columns Example::reference_signals. The regression tests run the same model at the
// example's own rel_tol and compare with that file.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "hdae/result.hpp"
#include "registry/example.hpp"

namespace hdae::examples {

/// Reference results are computed at this relative tolerance: two orders below the
/// examples' 1e-8, so the reference's own error is negligible against the comparison tube.
inline constexpr double kReferenceRelTol = 1e-10;

/// The reference run's rel_tol: Example::reference_rel_tol when set, else kReferenceRelTol.
[[nodiscard]] inline double reference_rel_tol(const Example& example) {
  return example.reference_rel_tol > 0.0 ? example.reference_rel_tol : kReferenceRelTol;
}

/// The example's model built with its reference parameters.
[[nodiscard]] std::unique_ptr<SimulationModel> make_reference_model(const Example& example);

/// The columns signals of a result table (units and kinds kept), in that order; throws
/// std::out_of_range naming a missing column.
[[nodiscard]] ResultTable keep_columns(const ResultTable& table,
                                       const std::vector<std::string>& signals);

}  // namespace hdae::examples
