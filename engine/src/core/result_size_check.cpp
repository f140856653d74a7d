// SimulationOptions::check_result_size (hdae/options.hpp): the output grid's rows held in memory
// against max_result_bytes, judged from the options before a run starts, so that a grid of
// 10^8 rows is refused with a message instead of filling the memory.
#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "hdae/options.hpp"

namespace hdae {
namespace {

/// Rows of the output grid as recorded: the grid points kept by record_every, the first and
/// the last row (event rows come on top).
double grid_rows(const SimulationOptions& o) {
  if (o.record_rows == RecordedRows::kEventsOnly) return 2.0;
  const auto every = static_cast<double>(o.record_every);
  if (!o.output_times.empty()) return std::ceil(static_cast<double>(o.output_times.size()) / every);
  const double points = std::floor((o.stop_s - o.start_s) / o.resolved_output_interval_s());
  return std::floor(points / every) + 2.0;
}

/// "over stop_s - start_s = 500 s every 1e-06 s" or "at 12 output_times".
std::string grid_words(const SimulationOptions& o) {
  if (!o.output_times.empty()) return fmt::format("at {} output_times", o.output_times.size());
  return fmt::format("every output_interval_s = {:g} s over stop_s - start_s = {:g} s",
                     o.resolved_output_interval_s(), o.stop_s - o.start_s);
}

}  // namespace

bool SimulationOptions::keeps_rows_in_memory() const {
  return std::any_of(sinks.begin(), sinks.end(),
                     [](const SinkSpec& s) { return s.kind == SinkKind::kMemory; });
}

void SimulationOptions::check_result_size(std::size_t columns) const {
  if (!keeps_rows_in_memory()) return;
  const double rows = grid_rows(*this);
  const double bytes = rows * static_cast<double>(columns + 1) * sizeof(double);
  if (bytes <= max_result_bytes) return;
  throw OptionError(fmt::format(
      "the result table would hold {:.3g} rows ({}, record_every = {}) of {} columns, {:.3g} "
      "bytes in memory, more than SimulationOptions::max_result_bytes = {:.3g}: choose a "
      "coarser grid, record fewer rows (record_every, record_rows) or columns "
      "(record_columns, record_kinds), stream the rows to a file instead of memory (sinks), "
      "or raise max_result_bytes",
      rows, grid_words(*this), record_every, columns + 1, bytes, max_result_bytes));
}

}  // namespace hdae
