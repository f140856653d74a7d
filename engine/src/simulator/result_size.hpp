// The size of a run's result table in memory, judged before the run
// (SimulationOptions::max_result_bytes): an output grid of 10^8 rows is refused with a message
// instead of growing until memory runs out.
#pragma once

#include <cstddef>

#include "hdae/options.hpp"

namespace hdae::detail {

/// OptionError when the grid rows of a run recording `columns` columns (time not counted),
/// held in memory, would take more than options.max_result_bytes; nothing for streamed rows.
void check_result_size(const SimulationOptions& options, std::size_t columns);

}  // namespace hdae::detail
