// Result files in HDF5 (the reading of either format: stored_result.hpp).
//
// An HDF5 result file holds a whole run in one file, written by Hdf5Sink as the run goes:
//   /time                    float64 [rows]            time of each row
//   /values                  float64 [rows, columns]   the recorded columns, row-major
//   /columns/name, unit, kind  strings [columns]       kind: state, derivative, output, other
//   /events/time, kind, iterations, note               one entry per event (kind as in
//                                                      to_string(EventKind), e.g. "state")
//   /events/crossings/event, crossing, direction       crossings that flipped (event = index
//   /events/time_events/event, name                    into /events/time); time events fired
//   /events/jumps/event, variable, before, after       variables that jumped
//   /parameters/name, value, unit                      the model's parameters, when given
// and the root attributes format = "hdae-result", format_version = 2, and status, status_t,
// status_message when the status is known (write_result_hdf5, Hdf5Sink::set_status). Strings
// are fixed-length UTF-8, NUL-padded to the longest of their dataset. A fixed-length string
// lies in its dataset's own data, so a damaged file cannot send the reader through HDF5's
// global heap, which trusts the addresses it finds; strings of variable length (format
// version 1 stored them so) are refused with an IoError naming the dataset. Rows are two per event
// instant (left, then right limit) as in ResultTable. h5py reads the file directly (f["values"][:],
// f["columns/name"].asstr()[:], f.attrs["status"].decode()), and pandas through it:
// pandas.DataFrame(f["values"][:], index=f["time"][:], columns=names).
//
// Reading checks what a file claims against what it stores before allocating: a dataset
// whose dimensions ask for more bytes than the file holds for it is an IoError naming the
// dataset. Writing gives up a file whose writes failed (a full disk) without leaving HDF5 a
// half-closed file, and an HDF5 result must be a regular file or /dev/null.
//
// Streaming: /time and /values are extendible chunked datasets (about 64 KiB per chunk, at
// least one row), without fill values (every element is written) or a chunk cache, so a chunk
// goes from the sink's memory to the file without a copy. Rows are buffered per chunk and
// written when the chunk is full (a row of 64 KiB or more is a chunk, written as it comes),
// and the buffer is written and the file flushed (H5Fflush) at least every flush interval
// (Hdf5Sink::kFlushInterval by default) of wall-clock time, so the temporary file of a run
// killed outright is readable up to its last flush. The event log, the parameters and the status
// are written by end(). The file is written under a temporary name and renamed by end()
// (atomic_file.hpp): a run killed outright leaves the previous file untouched.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "hdae/model.hpp"
#include "hdae/result.hpp"
#include "hdae/row_sink.hpp"
#include "hdae/stored_result.hpp"

namespace hdae {

/// Streams the rows (and, as an EventObserver, the events) of a run to an HDF5 file. A run
/// makes one itself for SinkSpec::hdf5 in SimulationOptions::sinks, with the model's
/// parameters and the run's status; one made by hand is added to a Simulator with add_row_sink
/// and add_event_observer. Errors throw IoError naming the file.
class Hdf5Sink final : public RowSink, public EventObserver {
 public:
  static constexpr std::chrono::seconds kFlushInterval{2};

  /// flush_interval: how often, at least, the rows so far are written and the file flushed
  /// (wall-clock time; zero flushes after every row). Throws OptionError when it is negative.
  explicit Hdf5Sink(std::filesystem::path file,
                    std::chrono::milliseconds flush_interval = kFlushInterval);
  ~Hdf5Sink() override;
  Hdf5Sink(const Hdf5Sink&) = delete;
  Hdf5Sink& operator=(const Hdf5Sink&) = delete;

  /// Parameters written to /parameters by end(); may be called any time before.
  void set_parameters(std::vector<ResultParameter> parameters);
  /// The run's status, written as root attributes by end(); may be called any time before.
  void set_status(const SimulationStatus& status);

  void begin(const std::vector<ColumnInfo>& columns) override;
  void append(double t, std::span<const double> values) override;
  /// Writes the buffered rows, the event log, the parameters and the status, closes the file
  /// and renames it into place.
  void end() override;
  void on_event(const EventRecord& event) override;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// A model's parameters (ModelStructure::parameters) as a result file stores them.
[[nodiscard]] std::vector<ResultParameter> result_parameters(
    std::span<const ParameterInfo> parameters);

/// Writes a finished (or partial) result as one HDF5 file, replaced atomically.
void write_result_hdf5(const SimulationResult& result, const std::filesystem::path& file,
                       std::vector<ResultParameter> parameters = {});

/// Whether the file starts with the HDF5 signature (`\x89HDF\r\n\x1a\n`).
[[nodiscard]] bool is_hdf5_file(const std::filesystem::path& file);

/// Reads an HDF5 result file (the layout above); throws IoError naming the file and the
/// dataset that is missing or malformed.
[[nodiscard]] StoredResult read_result_hdf5(const std::filesystem::path& file);

}  // namespace hdae
