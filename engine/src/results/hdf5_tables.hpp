// The parts of an HDF5 result file besides the rows (hdae/hdf5_result.hpp has the layout):
// the column descriptions, the event log and the parameters, written and read as groups of
// one-dimensional datasets of equal length, one dataset per field, so that every reader
// (h5py, pandas) sees plain arrays.
#pragma once

#include <filesystem>
#include <vector>

#include "hdae/hdf5_result.hpp"
#include "results/hdf5_support.hpp"

namespace hdae::detail::hdf5 {

void write_columns(hid_t file_id, const std::vector<ColumnInfo>& columns,
                   const std::filesystem::path& file);
void write_event_log(hid_t file_id, const std::vector<EventRecord>& events,
                     const std::filesystem::path& file);
void write_parameters(hid_t file_id, const std::vector<ResultParameter>& parameters,
                      const std::filesystem::path& file);

[[nodiscard]] std::vector<ColumnInfo> read_columns(hid_t file_id,
                                                   const std::filesystem::path& file);
/// Empty when the file has no /events group.
[[nodiscard]] std::vector<EventRecord> read_event_log(hid_t file_id,
                                                      const std::filesystem::path& file);
/// Empty when the file has no /parameters group.
[[nodiscard]] std::vector<ResultParameter> read_parameters(hid_t file_id,
                                                           const std::filesystem::path& file);

}  // namespace hdae::detail::hdf5
