// CoSimulationRecorder (cosimulation_recorder.hpp): the sinks of SimulationOptions::sinks made
// from the public sinks of the engine (row_sink.hpp, hdf5_result.hpp), and the caller's.
#include "cosimulation_recorder.hpp"

#include "hdae/hdf5_result.hpp"

namespace hdae::fmi::detail {

CoSimulationRecorder::CoSimulationRecorder(const SimulationOptions& options,
                                           std::span<const ParameterInfo> parameters,
                                           const RunListeners& listeners) {
  for (const SinkSpec& sink : options.sinks) {
    switch (sink.kind) {
      case SinkKind::kMemory:
        sinks_.push_back(&table_);
        break;
      case SinkKind::kCsv:
        files_.push_back(std::make_unique<CsvSink>(sink.file));
        sinks_.push_back(files_.back().get());
        break;
      case SinkKind::kHdf5: {
        auto hdf5 = std::make_unique<Hdf5Sink>(sink.file);
        hdf5->set_parameters(result_parameters(parameters));
        hdf5_.push_back(hdf5.get());
        observers_.push_back(hdf5.get());
        sinks_.push_back(hdf5.get());
        files_.push_back(std::move(hdf5));
        break;
      }
    }
  }
  for (RowSink* sink : listeners.sinks) sinks_.push_back(sink);
  for (EventObserver* observer : listeners.observers) observers_.push_back(observer);
}

CoSimulationRecorder::~CoSimulationRecorder() = default;

void CoSimulationRecorder::begin(const std::vector<ColumnInfo>& columns) {
  for (RowSink* sink : sinks_) sink->begin(columns);
}

void CoSimulationRecorder::row(double t, std::span<const double> values) {
  holding_ = false;
  for (RowSink* sink : sinks_) sink->append(t, values);
}

void CoSimulationRecorder::hold(double t, std::span<const double> values) {
  held_.assign(values.begin(), values.end());
  held_t_ = t;
  holding_ = true;
}

std::optional<double> CoSimulationRecorder::row_held() {
  if (!holding_) return std::nullopt;
  row(held_t_, held_);
  return held_t_;
}

void CoSimulationRecorder::event(const EventRecord& record, SimulationResult& result) {
  result.events.push_back(record);
  for (EventObserver* observer : observers_) observer->on_event(record);
}

void CoSimulationRecorder::end(SimulationResult& result) {
  if (ended_) return;
  ended_ = true;
  for (Hdf5Sink* hdf5 : hdf5_) hdf5->set_status(result.status);
  for (RowSink* sink : sinks_) sink->end();
  result.table = table_.take_table();
}

}  // namespace hdae::fmi::detail
