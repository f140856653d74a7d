// The record selection of runs that make their rows themselves (hdae/record_selection.hpp),
// through the selection the Simulator's recorder uses (column_selection.hpp).
#include "hdae/record_selection.hpp"

#include <algorithm>

#include "results/column_selection.hpp"

namespace hdae {
namespace {

/// Columns given as a list.
class ListedColumns final : public detail::ColumnSource {
 public:
  explicit ListedColumns(std::span<const ColumnInfo> columns) : columns_(columns) {}
  [[nodiscard]] std::size_t size() const override { return columns_.size(); }
  [[nodiscard]] ColumnKind kind(std::size_t c) const override { return columns_[c].kind; }
  [[nodiscard]] ColumnInfo column(std::size_t c) const override { return columns_[c]; }

 private:
  std::span<const ColumnInfo> columns_;
};

}  // namespace

std::vector<std::size_t> recorded_columns(std::span<const ColumnInfo> columns,
                                          const SimulationOptions& options,
                                          std::string_view model) {
  return detail::select_columns(ListedColumns(columns), options.record_columns,
                                options.record_kinds, model);
}

bool records_output_point(const SimulationOptions& options, std::size_t k) {
  // As RowRecorder::keeps_grid_row, which reads record_every 0 as 1.
  return options.record_rows == RecordedRows::kGrid &&
         k % std::max<std::size_t>(options.record_every, 1) == 0;
}

}  // namespace hdae
