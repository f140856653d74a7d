// Result tables to and from CSV (docs/design.md, "The data path"). Values are written with the
// shortest representation that reads back to the same double, so a write/read round trip is exact.
// The first line holds "time" and the column names; units and kinds go to a second file
// (write_units_csv).
#pragma once

#include <filesystem>
#include <iosfwd>
#include <memory>
#include <span>
#include <vector>

#include "hdae/model.hpp"
#include "hdae/result.hpp"

namespace hdae {

class AtomicFile;
namespace detail {
struct WritePath;
}

/// Writes time and all columns; throws IoError naming the file on failure. Every function here
/// that writes a file replaces it atomically (atomic_file.hpp): a previous file stays whole
/// until the new one is complete.
void write_csv(const ResultTable& table, const std::filesystem::path& file);
void write_csv(const ResultTable& table, std::ostream& out);

/// Appends result rows to a CSV file as they are produced (header first, then rows flushed
/// in 64 KiB chunks and on close()), in the same format as write_csv.
class CsvStreamWriter {
 public:
  /// Creates (truncates) the file and writes the header; throws IoError naming the file.
  CsvStreamWriter(const std::filesystem::path& file, const std::vector<ColumnInfo>& columns);
  /// Writes file.path() (its temporary file); messages name file.target().
  CsvStreamWriter(const AtomicFile& file, const std::vector<ColumnInfo>& columns);
  CsvStreamWriter(const CsvStreamWriter&) = delete;
  CsvStreamWriter& operator=(const CsvStreamWriter&) = delete;
  ~CsvStreamWriter();

  void append(double t, std::span<const double> values);
  /// Flushes and closes; throws IoError when writing failed. Called by the destructor too
  /// (which swallows errors).
  void close();

 private:
  CsvStreamWriter(const detail::WritePath& file, const std::vector<ColumnInfo>& columns);

  struct State;
  std::unique_ptr<State> state_;
};

/// Writes "name,unit,kind" per column (time first) beside a result CSV.
void write_units_csv(const ResultTable& table, const std::filesystem::path& file);

/// Writes "name,value,unit" per parameter (values at full precision, as in write_csv) beside a
/// result CSV: the parameter values of the run.
void write_params_csv(std::span<const ParameterInfo> parameters, const std::filesystem::path& file);

/// Reads a file that write_params_csv wrote (header "name,value,unit"): name, value and unit of
/// each parameter, in file order (range and description are not in the file). IoError with
/// file and line for malformed input: another header, a line without three fields, a value
/// that is not a finite number, a name given twice.
[[nodiscard]] std::vector<ParameterInfo> read_params_csv(const std::filesystem::path& file);

/// Writes one line per event: time, kind, crossings, time events, iterations, jumps.
void write_event_log_csv(const std::vector<EventRecord>& events, const std::filesystem::path& file);

/// The files write_result_files wrote.
struct ResultFiles {
  std::filesystem::path table;   ///< the CSV file given
  std::filesystem::path units;   ///< `<stem>.units.csv`; empty when not written
  std::filesystem::path events;  ///< `<stem>.events.csv`; empty when not written
  std::filesystem::path params;  ///< `<stem>.params.csv`; empty when not written

  [[nodiscard]] bool side_files_written() const { return !units.empty(); }
};

/// Writes a whole result beside each other: `<stem>.csv` (the table), `<stem>.units.csv` and
/// `<stem>.events.csv` (the event log), where csv_file is `<dir>/<stem>.csv`. All three are written
/// under temporary names first and renamed when all are complete. The units file and
/// event log are written only beside a regular file: when csv_file is a device (/dev/null,
/// /dev/stdout), a named pipe or a socket, the table goes to it and nothing else is created.
/// Throws IoError naming the file that cannot be written.
ResultFiles write_result_files(const SimulationResult& result,
                               const std::filesystem::path& csv_file);
/// The same, and `<stem>.params.csv` with the run's parameter values (write_params_csv), under
/// the same rule: only beside a regular file. A model without parameters gets the header.
ResultFiles write_result_files(const SimulationResult& result,
                               const std::filesystem::path& csv_file,
                               std::span<const ParameterInfo> parameters);

/// Reads a result CSV (',' or ';' separated, first column "time" or "t", no column name given
/// twice); throws IoError with file and line for malformed input.
[[nodiscard]] ResultTable read_csv(const std::filesystem::path& file);

}  // namespace hdae
