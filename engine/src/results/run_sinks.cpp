// The row sinks of SimulationOptions::sinks (run_sinks.hpp).
#include "results/run_sinks.hpp"

#include "hdae/hdf5_result.hpp"

namespace hdae::detail {

RunSinks::RunSinks(const std::vector<SinkSpec>& sinks, std::span<const ParameterInfo> parameters) {
  for (const SinkSpec& sink : sinks) {
    switch (sink.kind) {
      case SinkKind::kMemory:
        in_order_.push_back(&table_);
        break;
      case SinkKind::kCsv:
        files_.push_back(std::make_unique<CsvSink>(sink.file));
        in_order_.push_back(files_.back().get());
        break;
      case SinkKind::kHdf5: {
        auto hdf5 = std::make_unique<Hdf5Sink>(sink.file);
        hdf5->set_parameters(result_parameters(parameters));
        hdf5_.push_back(hdf5.get());
        in_order_.push_back(hdf5.get());
        files_.push_back(std::move(hdf5));
        break;
      }
    }
  }
}

RunSinks::~RunSinks() = default;

void RunSinks::attach(RowRecorder& recorder, std::vector<EventObserver*>& observers) {
  for (RowSink* sink : in_order_) recorder.add_sink(*sink);
  for (Hdf5Sink* hdf5 : hdf5_) observers.push_back(hdf5);
}

void RunSinks::set_status(const SimulationStatus& status) {
  for (Hdf5Sink* hdf5 : hdf5_) hdf5->set_status(status);
}

}  // namespace hdae::detail
