// Writing result files (csv.hpp): the table, its units and the event log. Numbers use the
// shortest round-trip representation (shortest_double.hpp), so read_csv gives back the same bits;
// names and notes are quoted as in RFC 4180 when they would otherwise break the line into the wrong
// fields.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <span>
#include <string_view>

#include <fmt/format.h>

#include "hdae/atomic_file.hpp"
#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "results/csv_in_place.hpp"
#include "results/record_names.hpp"
#include "results/shortest_double.hpp"

namespace hdae {
namespace {

/// Rows are handed to the stream in chunks of this size (write_csv and CsvStreamWriter).
constexpr std::size_t kStreamChunkBytes = 1 << 16;

/// Shortest text that reads back to the same double (shortest_double.hpp).
void append_number(fmt::memory_buffer& out, double v) {
  out.reserve(out.size() + detail::kMaxShortestChars);
  out.resize(
      static_cast<std::size_t>(detail::write_shortest(out.data() + out.size(), v) - out.data()));
}

/// One line of the table: time, then the values, comma-separated. Room for the longest line is
/// made once, and the numbers are written straight into it.
void append_row(fmt::memory_buffer& out, double t, std::span<const double> values) {
  out.reserve(out.size() + (values.size() + 1) * (detail::kMaxShortestChars + 1));
  char* const begin = out.data();
  char* p = detail::write_shortest(begin + out.size(), t);
  for (const double v : values) {
    *p++ = ',';
    p = detail::write_shortest(p, v);
  }
  *p++ = '\n';
  out.resize(static_cast<std::size_t>(p - begin));
}

/// The text as one CSV field: quoted, with inner quotes doubled, when it holds a separator
/// (',' or ';', both accepted by read_csv), a quote, a line break, or spaces at either end
/// (read_csv strips those outside quotes).
void append_field(fmt::memory_buffer& out, std::string_view text) {
  const bool needs_quotes = text.find_first_of(",;\"\r\n") != std::string_view::npos ||
                            (!text.empty() && (text.front() == ' ' || text.front() == '\t' ||
                                               text.back() == ' ' || text.back() == '\t'));
  if (!needs_quotes) {
    out.append(text);
    return;
  }
  out.push_back('"');
  for (const char c : text) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

void write_table(const ResultTable& table, std::ostream& out) {
  fmt::memory_buffer buffer;
  buffer.append(std::string_view("time"));
  for (const ColumnInfo& c : table.columns()) {
    buffer.push_back(',');
    append_field(buffer, c.name);
  }
  buffer.push_back('\n');
  // Flushed in chunks so a long result is not held twice in memory.
  for (std::size_t i = 0; i < table.num_rows(); ++i) {
    append_row(buffer, table.time(i), table.row(i));
    if (buffer.size() >= kStreamChunkBytes) {
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
      if (!out) return;  // the caller reports it, with errno as the write left it
    }
  }
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
}

/// IoError "<file>: write failed: <why>", why from errno, which the failed write() of the
/// stream left (EFBIG "File too large" beyond ulimit -f, ENOSPC for a full disk).
[[noreturn]] void throw_write_failed(const std::filesystem::path& file, int error) {
  if (error == 0) throw IoError(fmt::format("{}: write failed", file.string()));
  throw IoError(fmt::format("{}: write failed: {}", file.string(), std::strerror(error)));
}

std::ofstream open_for_writing(const detail::WritePath& file) {
  std::ofstream out(file.open);
  if (!out) throw IoError(fmt::format("{}: cannot open for writing", file.shown.string()));
  return out;
}

void close_checked(std::ofstream& out, const detail::WritePath& file) {
  // A write that failed before left its reason in errno; a stream that failed no write may
  // still fail in close(), when it writes what it buffered.
  int error = errno;
  if (out) {
    errno = 0;
    out.close();
    error = errno;
  }
  if (!out) throw_write_failed(file.shown, error);
}

void write_buffer(const fmt::memory_buffer& buffer, const detail::WritePath& file) {
  std::ofstream out = open_for_writing(file);
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  close_checked(out, file);
}

/// "J2:0.25|start(w2):-1.5", each value to full precision.
std::string time_sensitivities_field(const std::vector<TimeSensitivity>& list) {
  fmt::memory_buffer field;
  for (const TimeSensitivity& d : list) {
    if (field.size() > 0) field.push_back('|');
    field.append(d.sensitivity);
    field.push_back(':');
    append_number(field, d.value);
  }
  return {field.data(), field.size()};
}

}  // namespace

namespace detail {

void write_csv_in_place(const ResultTable& table, const WritePath& file) {
  std::ofstream out = open_for_writing(file);
  write_table(table, out);
  close_checked(out, file);
}

}  // namespace detail

void write_csv(const ResultTable& table, const std::filesystem::path& file) {
  AtomicFile atomic(file);
  detail::write_csv_in_place(table, detail::write_path_of(atomic));
  atomic.commit();
}

void write_csv(const ResultTable& table, std::ostream& out) {
  write_table(table, out);
  if (!out) throw IoError("write_csv: the output stream failed");
}

namespace detail {

void write_units_csv_in_place(const ResultTable& table, const WritePath& file) {
  fmt::memory_buffer buffer;
  buffer.append(std::string_view("time,s,time\n"));
  for (const ColumnInfo& c : table.columns()) {
    append_field(buffer, c.name);
    buffer.push_back(',');
    append_field(buffer, c.unit);
    buffer.push_back(',');
    buffer.append(detail::kind_name(c.kind));
    buffer.push_back('\n');
  }
  write_buffer(buffer, file);
}

void write_params_csv_in_place(std::span<const ParameterInfo> parameters, const WritePath& file) {
  fmt::memory_buffer buffer;
  buffer.append(std::string_view("name,value,unit\n"));
  for (const ParameterInfo& p : parameters) {
    append_field(buffer, p.name);
    buffer.push_back(',');
    append_number(buffer, p.value);
    buffer.push_back(',');
    append_field(buffer, p.unit);
    buffer.push_back('\n');
  }
  write_buffer(buffer, file);
}

void write_event_log_csv_in_place(const std::vector<EventRecord>& events, const WritePath& file) {
  fmt::memory_buffer buffer;
  buffer.append(std::string_view(
      "time,kind,crossings,time_events,iterations,jumps,time_sensitivities,note\n"));
  std::string list;  // one '|'-joined field, quoted as a whole
  for (const EventRecord& e : events) {
    append_number(buffer, e.t);
    buffer.push_back(',');
    buffer.append(to_string(e.kind));
    buffer.push_back(',');

    list.clear();
    for (const CrossingRecord& c : e.crossings) {
      if (!list.empty()) list += '|';
      list += fmt::format("{}({})", c.crossing, detail::direction_name(c.direction));
    }
    append_field(buffer, list);
    buffer.push_back(',');

    list.clear();
    for (const std::string& name : e.time_events) {
      if (!list.empty()) list += '|';
      list += name;
    }
    append_field(buffer, list);
    fmt::format_to(std::back_inserter(buffer), ",{},", e.iterations);

    // Full precision: the log is where a reader checks a jump against a known answer.
    fmt::memory_buffer jumps;
    for (const JumpRecord& j : e.jumps) {
      if (jumps.size() > 0) jumps.push_back('|');
      jumps.append(j.variable);
      jumps.push_back(':');
      append_number(jumps, j.before);
      jumps.append(std::string_view("->"));
      append_number(jumps, j.after);
    }
    append_field(buffer, std::string_view(jumps.data(), jumps.size()));
    buffer.push_back(',');
    append_field(buffer, time_sensitivities_field(e.time_sensitivities));
    buffer.push_back(',');
    append_field(buffer, e.note);
    buffer.push_back('\n');
  }
  write_buffer(buffer, file);
}

}  // namespace detail

void write_units_csv(const ResultTable& table, const std::filesystem::path& file) {
  AtomicFile atomic(file);
  detail::write_units_csv_in_place(table, detail::write_path_of(atomic));
  atomic.commit();
}

void write_params_csv(std::span<const ParameterInfo> parameters,
                      const std::filesystem::path& file) {
  AtomicFile atomic(file);
  detail::write_params_csv_in_place(parameters, detail::write_path_of(atomic));
  atomic.commit();
}

void write_event_log_csv(const std::vector<EventRecord>& events,
                         const std::filesystem::path& file) {
  AtomicFile atomic(file);
  detail::write_event_log_csv_in_place(events, detail::write_path_of(atomic));
  atomic.commit();
}

}  // namespace hdae

namespace hdae {

struct CsvStreamWriter::State {
  detail::WritePath file;
  std::ofstream out;
  fmt::memory_buffer buffer;
  bool closed = false;
};

CsvStreamWriter::CsvStreamWriter(const std::filesystem::path& file,
                                 const std::vector<ColumnInfo>& columns)
    : CsvStreamWriter(detail::WritePath{file, file}, columns) {}

CsvStreamWriter::CsvStreamWriter(const AtomicFile& file, const std::vector<ColumnInfo>& columns)
    : CsvStreamWriter(detail::write_path_of(file), columns) {}

CsvStreamWriter::CsvStreamWriter(const detail::WritePath& file,
                                 const std::vector<ColumnInfo>& columns)
    : state_(std::make_unique<State>()) {
  state_->file = file;
  state_->out = open_for_writing(file);
  state_->buffer.append(std::string_view("time"));
  for (const ColumnInfo& c : columns) {
    state_->buffer.push_back(',');
    append_field(state_->buffer, c.name);
  }
  state_->buffer.push_back('\n');
}

CsvStreamWriter::~CsvStreamWriter() {
  try {
    close();
  } catch (const IoError&) {  // NOLINT(bugprone-empty-catch): a destructor must not throw
  }
}

void CsvStreamWriter::append(double t, std::span<const double> values) {
  fmt::memory_buffer& b = state_->buffer;
  append_row(b, t, values);
  if (b.size() >= kStreamChunkBytes) {
    errno = 0;
    state_->out.write(b.data(), static_cast<std::streamsize>(b.size()));
    b.clear();
    if (!state_->out) throw_write_failed(state_->file.shown, errno);
  }
}

void CsvStreamWriter::close() {
  if (state_->closed) return;
  state_->closed = true;
  state_->out.write(state_->buffer.data(), static_cast<std::streamsize>(state_->buffer.size()));
  state_->buffer.clear();
  close_checked(state_->out, state_->file);
}

}  // namespace hdae
