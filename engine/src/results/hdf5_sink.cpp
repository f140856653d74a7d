// Hdf5Sink and write_result_hdf5 (hdae/result_file.hpp): rows buffered a chunk at a time and
// appended to extendible datasets, the rest of the result written at the end.
#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "hdae/atomic_file.hpp"
#include "hdae/errors.hpp"
#include "hdae/result_file.hpp"
#include "results/hdf5_support.hpp"
#include "results/hdf5_tables.hpp"

namespace hdae {

using detail::hdf5::check;
using detail::hdf5::Id;

namespace {

/// Bytes of values per chunk of /values: large enough that HDF5's per-chunk cost vanishes,
/// small enough that a short result wastes little in its last, partly filled chunk.
constexpr std::size_t kChunkBytes = std::size_t{1} << 16;
/// Rows per chunk of /time.
constexpr hsize_t kTimeChunkRows = 1024;
constexpr double kFormatVersion = 1.0;

/// An extendible chunked dataset of float64: one-dimensional (rank 1) or with `columns`
/// columns (rank 2). Chunks go from the sink's memory to the file as they are written: the
/// dataset has no chunk cache, which would copy every chunk once more on its way, and no fill
/// value, which HDF5 would otherwise write into a chunk before the rows (every element of the
/// dataset is written).
Id create_extendible(hid_t file_id, const char* name, int rank, hsize_t columns, hsize_t chunk_rows,
                     const std::filesystem::path& file) {
  const std::string what = fmt::format("create dataset '{}'", name);
  const hsize_t dims[2] = {0, columns};
  // A chunk must not exceed a fixed dimension, and has at least one element per dimension.
  const hsize_t max_dims[2] = {H5S_UNLIMITED, columns == 0 ? H5S_UNLIMITED : columns};
  const hsize_t chunk[2] = {chunk_rows, std::max<hsize_t>(columns, 1)};
  const Id space(check(H5Screate_simple(rank, dims, max_dims), file, what));
  const Id properties(check(H5Pcreate(H5P_DATASET_CREATE), file, what));
  check(H5Pset_chunk(properties.get(), rank, chunk), file, what);
  check(H5Pset_fill_time(properties.get(), H5D_FILL_TIME_NEVER), file, what);
  const Id access(check(H5Pcreate(H5P_DATASET_ACCESS), file, what));
  check(H5Pset_chunk_cache(access.get(), H5D_CHUNK_CACHE_NSLOTS_DEFAULT, 0,
                           H5D_CHUNK_CACHE_W0_DEFAULT),
        file, what);
  return Id(check(H5Dcreate2(file_id, name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                             properties.get(), access.get()),
                  file, what));
}

/// Appends rows x columns values (row-major; columns ignored for rank 1) to an extendible
/// dataset holding `first` rows.
void append_rows(hid_t dataset, int rank, hsize_t first, hsize_t rows, hsize_t columns,
                 const double* data, const std::filesystem::path& file) {
  const char* what = "append rows";
  const hsize_t new_dims[2] = {first + rows, columns};
  check(H5Dset_extent(dataset, new_dims), file, what);
  if (rank == 2 && columns == 0) return;  // nothing to write, only the rows to count
  const Id space(check(H5Dget_space(dataset), file, what));
  const hsize_t start[2] = {first, 0};
  const hsize_t count[2] = {rows, columns};
  check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr), file,
        what);
  const Id memory(check(H5Screate_simple(rank, count, nullptr), file, what));
  check(H5Dwrite(dataset, H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT, data), file,
        what);
}

}  // namespace

struct Hdf5Sink::State {
  std::filesystem::path target;
  std::unique_ptr<AtomicFile> atomic;
  Id file;
  Id time;
  Id values;
  hsize_t columns = 0;
  hsize_t chunk_rows = 1;
  hsize_t rows_written = 0;
  std::vector<double> time_buffer;
  std::vector<double> value_buffer;
  std::chrono::milliseconds flush_interval{Hdf5Sink::kFlushInterval};
  std::chrono::steady_clock::time_point last_flush;
  std::vector<EventRecord> events;
  std::vector<ResultParameter> parameters;
  std::optional<SimulationStatus> status;
  bool ended = false;

  void write_rows(const double* t, const double* row_values, hsize_t rows);
  void write_buffer();
  void flush();
  void write_rest();
};

void Hdf5Sink::State::write_rows(const double* t, const double* row_values, hsize_t rows) {
  append_rows(time.get(), 1, rows_written, rows, 0, t, target);
  append_rows(values.get(), 2, rows_written, rows, columns, row_values, target);
  rows_written += rows;
}

void Hdf5Sink::State::write_buffer() {
  const auto rows = static_cast<hsize_t>(time_buffer.size());
  if (rows == 0) return;
  write_rows(time_buffer.data(), value_buffer.data(), rows);
  time_buffer.clear();
  value_buffer.clear();
}

void Hdf5Sink::State::flush() {
  write_buffer();
  check(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), target, "flush the file");
  last_flush = std::chrono::steady_clock::now();
}

void Hdf5Sink::State::write_rest() {
  write_buffer();
  detail::hdf5::write_event_log(file.get(), events, target);
  detail::hdf5::write_parameters(file.get(), parameters, target);
  if (status) {
    detail::hdf5::write_attribute(file.get(), "status", to_string(status->outcome), target);
    detail::hdf5::write_attribute(file.get(), "status_t", status->t, target);
    detail::hdf5::write_attribute(file.get(), "status_message", status->message, target);
  }
  time.reset();
  values.reset();
  // Closing writes the file's metadata out; a failure here (a full disk) loses the file.
  if (!file.reset()) detail::hdf5::fail(target, "write the file out");
}

Hdf5Sink::Hdf5Sink(std::filesystem::path file, std::chrono::milliseconds flush_interval)
    : state_(std::make_unique<State>()) {
  if (flush_interval.count() < 0) {
    throw OptionError(fmt::format("Hdf5Sink: flush_interval must not be negative (got {} ms)",
                                  flush_interval.count()));
  }
  state_->target = std::move(file);
  state_->flush_interval = flush_interval;
}

Hdf5Sink::~Hdf5Sink() {
  const detail::hdf5::QuietErrors quiet;
  state_->time.reset();
  state_->values.reset();
  state_->file.reset();  // the temporary file goes with state_->atomic, the target stays
}

void Hdf5Sink::set_parameters(std::vector<ResultParameter> parameters) {
  state_->parameters = std::move(parameters);
}

void Hdf5Sink::set_status(const SimulationStatus& status) { state_->status = status; }

void Hdf5Sink::begin(const std::vector<ColumnInfo>& columns) {
  const detail::hdf5::QuietErrors quiet;
  State& s = *state_;
  s.atomic = std::make_unique<AtomicFile>(s.target);
  s.file = Id(H5Fcreate(s.atomic->path().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  if (!s.file.valid()) detail::hdf5::fail(s.target, "create the file");
  detail::hdf5::write_attribute(s.file.get(), "format", "hdae-result", s.target);
  detail::hdf5::write_attribute(s.file.get(), "format_version", kFormatVersion, s.target);
  detail::hdf5::write_columns(s.file.get(), columns, s.target);
  s.columns = columns.size();
  s.chunk_rows =
      std::max<hsize_t>(1, kChunkBytes / (sizeof(double) * std::max<hsize_t>(1, s.columns)));
  s.time = create_extendible(s.file.get(), "time", 1, 0, kTimeChunkRows, s.target);
  s.values = create_extendible(s.file.get(), "values", 2, s.columns, s.chunk_rows, s.target);
  if (s.chunk_rows > 1) {  // a row of a whole chunk is written without the buffers
    s.time_buffer.reserve(s.chunk_rows);
    s.value_buffer.reserve(s.chunk_rows * s.columns);
  }
  s.last_flush = std::chrono::steady_clock::now();
}

void Hdf5Sink::append(double t, std::span<const double> values) {
  State& s = *state_;
  if (!s.file.valid()) return;
  const bool due = std::chrono::steady_clock::now() - s.last_flush >= s.flush_interval;
  if (s.chunk_rows == 1) {
    // A row fills a chunk of /values: it goes to the file from the caller's memory.
    const detail::hdf5::QuietErrors quiet;
    s.write_rows(&t, values.data(), 1);
  } else {
    s.time_buffer.push_back(t);
    s.value_buffer.insert(s.value_buffer.end(), values.begin(), values.end());
    if (s.time_buffer.size() < s.chunk_rows && !due) return;
    const detail::hdf5::QuietErrors quiet;
    s.write_buffer();
  }
  if (due) {
    const detail::hdf5::QuietErrors quiet;
    s.flush();
  }
}

void Hdf5Sink::end() {
  State& s = *state_;
  if (s.ended || !s.file.valid()) return;
  s.ended = true;
  const detail::hdf5::QuietErrors quiet;
  s.write_rest();
  s.atomic->commit();
}

void Hdf5Sink::on_event(const EventRecord& event) { state_->events.push_back(event); }

void write_result_hdf5(const SimulationResult& result, const std::filesystem::path& file,
                       std::vector<ResultParameter> parameters) {
  Hdf5Sink sink(file);
  sink.set_parameters(std::move(parameters));
  sink.set_status(result.status);
  for (const EventRecord& e : result.events) sink.on_event(e);
  sink.begin(result.table.columns());
  for (std::size_t i = 0; i < result.table.num_rows(); ++i) {
    sink.append(result.table.time(i), result.table.row(i));
  }
  sink.end();
}

}  // namespace hdae
