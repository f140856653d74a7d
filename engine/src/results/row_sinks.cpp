// The row sinks of hdae/row_sink.hpp: the in-memory table, the streamed CSV file (the HDF5
// file's sink: hdf5_sink.cpp).
#include "hdae/atomic_file.hpp"
#include "hdae/csv.hpp"
#include "hdae/row_sink.hpp"
#include "results/background_rows.hpp"

namespace hdae {

void TableSink::begin(const std::vector<ColumnInfo>& columns) { table_ = ResultTable(columns); }

void TableSink::append(double t, std::span<const double> values) { table_.append(t, values); }

CsvSink::CsvSink(std::filesystem::path file) : file_(std::move(file)) {}

CsvSink::~CsvSink() = default;

void CsvSink::begin(const std::vector<ColumnInfo>& columns) {
  background_.reset();
  file_in_progress_ = std::make_unique<AtomicFile>(file_);
  writer_ = std::make_unique<CsvStreamWriter>(*file_in_progress_, columns);
  background_ = std::make_unique<detail::BackgroundRows>(
      [writer = writer_.get()](double t, std::span<const double> values) {
        writer->append(t, values);
      });
}

void CsvSink::append(double t, std::span<const double> values) {
  if (background_) background_->push(t, values);
}

void CsvSink::end() {
  if (!background_) return;
  // Every row appended so far is complete: after an interruption or a failure the file is a
  // valid prefix of the run and replaces the previous one like a complete result.
  const std::unique_ptr<detail::BackgroundRows> background = std::move(background_);
  background->finish();
  writer_->close();
  file_in_progress_->commit();
}

}  // namespace hdae
