// A result file read back, whichever format wrote it: the HDF5 file of Hdf5Sink or
// write_result_hdf5 (hdf5_result.hpp) or the CSV of CsvSink or write_csv (csv.hpp), told apart
// by their first bytes. hdae-compare reads its reference and result through it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hdae/result.hpp"

namespace hdae {

/// A named model parameter stored with a result.
struct ResultParameter {
  std::string name;
  double value = 0.0;
  std::string unit;
};

/// A result file read back: the table with names, units and kinds, and what else the file
/// holds (an HDF5 file: the event log, the parameters, the status message; a CSV: the table).
struct StoredResult {
  ResultTable table;
  std::vector<EventRecord> events;
  std::vector<ResultParameter> parameters;
  /// Outcome name and message (to_string(Outcome)) when the file records them.
  std::optional<std::string> status;
  std::string status_message;
};

/// Reads a result file of either format, told apart by its first bytes (the HDF5 signature),
/// not by its name: HDF5 as read_result_hdf5, anything else as a CSV (read_csv).
[[nodiscard]] StoredResult read_result(const std::filesystem::path& file);

}  // namespace hdae
