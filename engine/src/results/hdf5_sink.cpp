// Hdf5Sink and write_result_hdf5 (hdae/hdf5_result.hpp): rows handed to a writer thread
// (results/background_rows.hpp), buffered there a chunk at a time and appended to extendible
// datasets, the rest of the result written at the end.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "hdae/atomic_file.hpp"
#include "hdae/errors.hpp"
#include "hdae/hdf5_result.hpp"
#include "results/background_rows.hpp"
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
/// Rows are written on a thread of the sink's own only with a thread-safe HDF5, whose global
/// lock keeps that thread and a program's own HDF5 calls apart; otherwise on the caller's.
#ifdef H5_HAVE_THREADSAFE
constexpr bool kWriterThread = true;
#else
constexpr bool kWriterThread = false;
#endif
/// 2: strings of fixed length (1: of variable length).
constexpr double kFormatVersion = 2.0;

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

/// File access without HDF5's sieve buffer, which holds small writes to a contiguous dataset
/// until the dataset is closed: a write that fails (a full disk) then fails in H5Dwrite, where
/// it is reported, rather than in closing the dataset, after which HDF5 1.10 keeps the
/// half-closed dataset and crashes closing it again at the program's exit. Every dataset is
/// written whole or a chunk at a time, so the buffer saved nothing.
Id direct_writes(const std::filesystem::path& file) {
  Id access(check(H5Pcreate(H5P_FILE_ACCESS), file, "create the file"));
  check(H5Pset_sieve_buf_size(access.get(), 0), file, "create the file");
  return access;
}

/// Bytes that must be free where the file is created.
constexpr off_t kCreationBytes = off_t{1} << 13;

/// Makes sure the file can be created: HDF5 1.10 leaves a file whose creation failed (no room
/// for its superblock) half-open, and reports an "infinite loop closing library" at exit. The
/// room is claimed first (and given back when HDF5 truncates the file), so a full disk is an
/// IoError before HDF5 sees the file.
void claim_room(const std::filesystem::path& path, const std::filesystem::path& target) {
  const int descriptor = open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
  if (descriptor < 0) {
    throw IoError(
        fmt::format("{}: cannot create the file: {}", target.string(), std::strerror(errno)));
  }
  const int error = posix_fallocate(descriptor, 0, kCreationBytes);
  close(descriptor);
  // A file system without preallocation (EOPNOTSUPP) is left to HDF5.
  if (error != 0 && error != EOPNOTSUPP && error != EINVAL) {
    throw IoError(
        fmt::format("{}: cannot create the file: {}", target.string(), std::strerror(error)));
  }
}

bool is_null_device(const std::filesystem::path& file) {
  // std::filesystem::equivalent refuses to compare devices.
  struct stat a {};
  struct stat b {};
  return stat(file.c_str(), &a) == 0 && stat("/dev/null", &b) == 0 && a.st_dev == b.st_dev &&
         a.st_ino == b.st_ino;
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

/// Points the file's descriptor at an anonymous file in memory. HDF5 1.10 cannot close a file
/// whose last writes fail (a full disk, a file-size limit): the failed close leaves the file
/// half-closed, and the program then crashes at exit, where HDF5 closes what is still open.
/// After the first failed write the temporary file is lost anyway (it is removed, the previous
/// result stays), so what HDF5 still writes on closing goes to memory instead, and the close
/// succeeds. A file-size limit holds the file in memory too; there the close fails, and only
/// HDF5's clean-up at exit is kept from running (hdf5_support.cpp).
void redirect_to_memory(hid_t file_id) {
  void* handle = nullptr;
  if (H5Fget_vfd_handle(file_id, H5P_DEFAULT, &handle) < 0 || handle == nullptr) return;
  const int descriptor = *static_cast<int*>(handle);
  const int memory = memfd_create("hdae-discarded-result", MFD_CLOEXEC);
  if (memory < 0) return;
  dup2(memory, descriptor);
  close(memory);
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
  /// Writes the rows between begin() and end(). Writing a row is mostly the kernel's copy of
  /// its bytes into the file, dearer than a copy in memory: the run's thread only makes the
  /// latter, into memory the queue keeps for reuse.
  /// HDF5 is used by one thread at a time: the writer between begin() and end(), the caller's
  /// thread otherwise. Null without a thread-safe HDF5 (kWriterThread).
  std::unique_ptr<detail::BackgroundRows> background;

  /// Runs write; when it throws, the file is given up (redirect_to_memory) before the error
  /// goes on.
  template <typename Write>
  void guarded(Write&& write);
  /// One row (on the writer thread, or the caller's without one): buffered, or written with
  /// the buffer when a chunk is full.
  void write_row(double t, std::span<const double> row_values);
  /// The buffered rows written and the file flushed, when the flush interval is due.
  void write_and_flush();
  void write_rows(const double* t, const double* row_values, hsize_t rows);
  void write_buffer();
  void flush();
  void write_rest();
};

template <typename Write>
void Hdf5Sink::State::guarded(Write&& write) {
  try {
    write();
  } catch (...) {
    if (file.valid()) redirect_to_memory(file.get());
    throw;
  }
}

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
  // Written out before closing, so that a failure (a full disk) comes while the file is
  // still open and can be given up (guarded); the close then has nothing left to write.
  check(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), target, "write the file out");
  time.reset();
  values.reset();
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
  // The writer stops first (its queued rows dropped): it is the one using the ids below.
  state_->background.reset();
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
  s.background.reset();
  s.atomic = std::make_unique<AtomicFile>(s.target);
  if (s.atomic->replaces()) {
    claim_room(s.atomic->path(), s.target);
  } else if (!is_null_device(s.target)) {
    // HDF5 seeks and rewrites what it wrote; a device or pipe cannot hold such a file.
    throw IoError(
        fmt::format("{}: an HDF5 result needs a regular file (or /dev/null to discard "
                    "it), not a device or pipe",
                    s.target.string()));
  }
  s.file = Id(H5Fcreate(s.atomic->path().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT,
                        direct_writes(s.target).get()));
  if (!s.file.valid()) detail::hdf5::fail(s.target, "create the file");
  s.columns = columns.size();
  s.chunk_rows =
      std::max<hsize_t>(1, kChunkBytes / (sizeof(double) * std::max<hsize_t>(1, s.columns)));
  s.guarded([&] {
    detail::hdf5::write_attribute(s.file.get(), "format", "hdae-result", s.target);
    detail::hdf5::write_attribute(s.file.get(), "format_version", kFormatVersion, s.target);
    detail::hdf5::write_columns(s.file.get(), columns, s.target);
    s.time = create_extendible(s.file.get(), "time", 1, 0, kTimeChunkRows, s.target);
    s.values = create_extendible(s.file.get(), "values", 2, s.columns, s.chunk_rows, s.target);
  });
  if (s.chunk_rows > 1) {  // a row of a whole chunk is written without the buffers
    s.time_buffer.reserve(s.chunk_rows);
    s.value_buffer.reserve(s.chunk_rows * s.columns);
  }
  s.last_flush = std::chrono::steady_clock::now();
  if (!kWriterThread) return;
  s.background = std::make_unique<detail::BackgroundRows>(
      [&s](double t, std::span<const double> values) { s.write_row(t, values); },
      [&s] { s.write_and_flush(); });
}

void Hdf5Sink::State::write_row(double t, std::span<const double> row_values) {
  if (!file.valid()) return;
  if (chunk_rows > 1) {
    time_buffer.push_back(t);
    value_buffer.insert(value_buffer.end(), row_values.begin(), row_values.end());
    if (time_buffer.size() < chunk_rows) return;
  }
  const detail::hdf5::QuietErrors quiet;
  guarded([&] {
    if (chunk_rows == 1) {
      // A row fills a chunk of /values: it goes to the file from where it is (the writer's
      // queue, or the caller's row).
      write_rows(&t, row_values.data(), 1);
    } else {
      write_buffer();
    }
  });
}

void Hdf5Sink::State::write_and_flush() {
  if (!file.valid()) return;
  const detail::hdf5::QuietErrors quiet;
  guarded([&] { flush(); });
}

void Hdf5Sink::append(double t, std::span<const double> values) {
  State& s = *state_;
  // The interval is kept on the caller's thread, which knows when a row came.
  const auto now = std::chrono::steady_clock::now();
  const bool due = now - s.last_flush >= s.flush_interval;
  if (due) s.last_flush = now;
  if (s.background) {
    // Rethrows what the writer threw on an earlier row (a full disk), as writing here would.
    s.background->push(t, values);
    if (due) s.background->flush();
    return;
  }
  s.write_row(t, values);
  if (due) s.write_and_flush();
}

void Hdf5Sink::end() {
  State& s = *state_;
  if (s.ended || !s.file.valid()) return;
  s.ended = true;
  if (s.background) {
    // Every row appended so far is written before the rest; a failure of the writer's comes
    // here, and the file is then not committed.
    const std::unique_ptr<detail::BackgroundRows> background = std::move(s.background);
    background->finish();
  }
  const detail::hdf5::QuietErrors quiet;
  s.guarded([&] { s.write_rest(); });
  s.atomic->commit();
}

void Hdf5Sink::on_event(const EventRecord& event) { state_->events.push_back(event); }

std::vector<ResultParameter> result_parameters(std::span<const ParameterInfo> parameters) {
  std::vector<ResultParameter> stored;
  stored.reserve(parameters.size());
  for (const ParameterInfo& p : parameters) {
    stored.push_back({.name = p.name, .value = p.value, .unit = p.unit});
  }
  return stored;
}

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
