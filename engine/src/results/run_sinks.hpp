// The row sinks a run makes itself from SimulationOptions::sinks (docs/design.md, "The data
// path"): the table in memory, CSV and HDF5 files. They are RowSinks like the user's own, and
// the recorder hands them the rows in the order of the options, before the sinks the user
// added.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "hdae/model.hpp"
#include "hdae/options.hpp"
#include "hdae/row_sink.hpp"
#include "hdae/status.hpp"
#include "results/row_recorder.hpp"

namespace hdae {
class Hdf5Sink;
}

namespace hdae::detail {

class RunSinks {
 public:
  /// parameters: the model's, which an HDF5 file stores. Opens no file (begin() does).
  RunSinks(const std::vector<SinkSpec>& sinks, std::span<const ParameterInfo> parameters);
  ~RunSinks();
  RunSinks(const RunSinks&) = delete;
  RunSinks& operator=(const RunSinks&) = delete;

  /// Adds the sinks to the recorder, and those that keep the event log (HDF5) to observers.
  void attach(RowRecorder& recorder, std::vector<EventObserver*>& observers);
  /// The run's status, which an HDF5 file records when its end() comes.
  void set_status(const SimulationStatus& status);
  /// The rows in memory: empty unless the options name a kMemory sink.
  [[nodiscard]] TableSink& table() { return table_; }
  [[nodiscard]] const TableSink& table() const { return table_; }

 private:
  TableSink table_;
  /// Every sink in the order of the options (the table among them when it is named).
  std::vector<RowSink*> in_order_;
  std::vector<std::unique_ptr<RowSink>> files_;
  std::vector<Hdf5Sink*> hdf5_;
};

}  // namespace hdae::detail
