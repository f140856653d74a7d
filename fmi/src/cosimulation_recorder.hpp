// Where the rows and events of a Co-Simulation run (cosimulation_model.hpp) go: the row sinks
// SimulationOptions::sinks names (the result's table, CSV and HDF5 files streamed as the run
// goes), then the caller's sinks and event observers (RunListeners), in the order a Simulator's
// run hands them rows, with the same begin/append/end sequence; and the output row the row
// selection left out last, which becomes the run's last row when the run ends before a later
// one, as a Simulator's run keeps it.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "hdae/fmi.hpp"
#include "hdae/model.hpp"
#include "hdae/options.hpp"
#include "hdae/result.hpp"
#include "hdae/row_sink.hpp"

namespace hdae {
class Hdf5Sink;
}

namespace hdae::fmi::detail {

class CoSimulationRecorder {
 public:
  /// parameters: the model's, which an HDF5 file stores. Opens no file (begin() does).
  CoSimulationRecorder(const SimulationOptions& options, std::span<const ParameterInfo> parameters,
                       const RunListeners& listeners);
  ~CoSimulationRecorder();
  CoSimulationRecorder(const CoSimulationRecorder&) = delete;
  CoSimulationRecorder& operator=(const CoSimulationRecorder&) = delete;

  /// The columns of every row, to every sink.
  void begin(const std::vector<ColumnInfo>& columns);
  /// One row, to every sink; a held row is dropped (this one comes later).
  void row(double t, std::span<const double> values);
  /// Keeps a row the selection leaves out, in case the run ends before another.
  void hold(double t, std::span<const double> values);
  /// The held row, if any, to every sink: the run ended without a later row. Its time, or
  /// nothing.
  [[nodiscard]] std::optional<double> row_held();
  /// An event: into result's log and to every observer.
  void event(const EventRecord& record, SimulationResult& result);
  /// The run is over (result.status says how): the status to the HDF5 files, end() to every
  /// sink, and the table (when SimulationOptions::sinks names it) into result. Once.
  void end(SimulationResult& result);

 private:
  TableSink table_;
  std::vector<std::unique_ptr<RowSink>> files_;
  std::vector<Hdf5Sink*> hdf5_;
  std::vector<RowSink*> sinks_;  ///< in the order they get the rows
  std::vector<EventObserver*> observers_;
  std::vector<double> held_;
  double held_t_ = 0.0;
  bool holding_ = false;
  bool ended_ = false;
};

}  // namespace hdae::fmi::detail
