// What a run records (SimulationOptions::record_columns, record_kinds, record_rows,
// record_every), for a run that makes its rows itself rather than through a Simulator: an
// imported Co-Simulation FMU (hdae/fmi.hpp), which steps itself from one output point to the
// next. The Simulator's recorder chooses with the same rules, so one set of options selects the
// same columns and rows, with the same errors, whichever runs the model.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "hdae/options.hpp"
#include "hdae/result.hpp"

namespace hdae {

/// Indices into columns, in order, of the columns options.record_columns and record_kinds
/// select; all of them when both are empty. OptionError, as a Simulator's run of the model
/// named `model` throws it, for a pattern that matches no column or a kind with no column.
[[nodiscard]] std::vector<std::size_t> recorded_columns(std::span<const ColumnInfo> columns,
                                                        const SimulationOptions& options,
                                                        std::string_view model);

/// Whether the row of output point k >= 1 (t0 + k dt, or output_times[k - 1]) is recorded:
/// record_rows is kGrid and k is a multiple of record_every. The t0 row, the rows at events
/// and the run's last row are recorded whatever this says.
[[nodiscard]] bool records_output_point(const SimulationOptions& options, std::size_t k);

}  // namespace hdae
