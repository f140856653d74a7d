// Where a run's rows and events go (docs/design.md, "The data path"). A hdae::Simulator hands
// every stored row — the t0 row(s), each output point, both limits at every event, a last row
// when the run ends early — to each of its row sinks, in time order, and every event record to
// each of its event observers as soon as the event is over. The result table in memory
// (TableSink), a CSV file (CsvSink) and an HDF5 file (Hdf5Sink, hdf5_result.hpp) are sinks like
// any other, which a run makes itself when SimulationOptions::sinks names them; a user's own
// sink (a plot, a socket, a reducer that keeps only maxima) derives from RowSink and is added
// with Simulator::add_row_sink.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "hdae/result.hpp"

namespace hdae {

namespace detail {
class BackgroundRows;
}  // namespace detail

class CsvStreamWriter;
class AtomicFile;

/// Receives the rows of a run. begin() comes first (once), then append() for every row, then
/// end() once when the run is over (also after a failure, or when the simulator is destroyed
/// before reaching the stop time). An exception thrown by a sink ends the run like a failure
/// of the engine (the rows so far stay in the other sinks).
class RowSink {
 public:
  virtual ~RowSink() = default;
  /// The columns every row will have: x, der(x), outputs (ResultTable's order).
  virtual void begin(const std::vector<ColumnInfo>& columns) = 0;
  /// One row: time and values (one per column); the span is valid during the call only.
  virtual void append(double t, std::span<const double> values) = 0;
  /// The run is over; flush what is buffered.
  virtual void end() {}
};

/// Receives every event of a run (EventRecord: crossings, time events, passes, jumps) once its
/// event iteration is over, including the initial one at t0.
class EventObserver {
 public:
  virtual ~EventObserver() = default;
  virtual void on_event(const EventRecord& event) = 0;
};

/// Keeps the rows in a ResultTable.
class TableSink final : public RowSink {
 public:
  void begin(const std::vector<ColumnInfo>& columns) override;
  void append(double t, std::span<const double> values) override;
  [[nodiscard]] const ResultTable& table() const { return table_; }
  [[nodiscard]] ResultTable take_table() { return std::move(table_); }

 private:
  ResultTable table_;
};

/// Streams the rows to a CSV file (the format of write_csv), buffered in 64 KiB chunks, so the
/// rows survive an interruption and a long run needs no memory for them. The rows go to a
/// temporary file beside the target (atomic_file.hpp), created by begin() and renamed over
/// the target by end(): every end of a run that calls end() — the stop time, an interruption,
/// a failure — leaves a valid CSV ending at a complete row, while a killed process leaves the
/// previous file untouched. The text is made and written on a thread of the sink's own, the
/// run's thread only copying each row, so formatting overlaps the integration on another
/// core. Errors throw IoError naming the file, at the next row or at end().
class CsvSink final : public RowSink {
 public:
  explicit CsvSink(std::filesystem::path file);
  ~CsvSink() override;
  void begin(const std::vector<ColumnInfo>& columns) override;
  void append(double t, std::span<const double> values) override;
  void end() override;

 private:
  std::filesystem::path file_;
  std::unique_ptr<AtomicFile> file_in_progress_;
  std::unique_ptr<CsvStreamWriter> writer_;
  /// Last: its thread writes to writer_, so it goes first.
  std::unique_ptr<detail::BackgroundRows> background_;
};

/// Calls a function for every row.
class FunctionSink final : public RowSink {
 public:
  using Function = std::function<void(double t, std::span<const double> values)>;
  explicit FunctionSink(Function f) : f_(std::move(f)) {}
  void begin(const std::vector<ColumnInfo>& columns) override { columns_ = columns; }
  void append(double t, std::span<const double> values) override { f_(t, values); }
  [[nodiscard]] const std::vector<ColumnInfo>& columns() const { return columns_; }

 private:
  Function f_;
  std::vector<ColumnInfo> columns_;
};

}  // namespace hdae
