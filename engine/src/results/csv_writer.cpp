// Writing result files (csv.hpp): the table, its units, the event log and the parameters. Numbers
// use fmt's shortest round-trip representation, so read_csv gives back the same bits; names and
// notes are quoted as in RFC 4180 when they would otherwise break the line into the wrong fields.
#include <cmath>
#include <fstream>
#include <iterator>
#include <string_view>

#include <fmt/format.h>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"

namespace hdae {
namespace {

/// Rows are handed to the stream in chunks of this size (write_csv and CsvStreamWriter).
constexpr std::size_t kStreamChunkBytes = 1 << 16;

/// Shortest text that reads back to the same double; every NaN (whatever its sign or
/// payload) as "nan", infinities as "inf" and "-inf".
void append_number(fmt::memory_buffer& out, double v) {
  if (std::isnan(v)) {
    out.append(std::string_view("nan"));
  } else {
    fmt::format_to(std::back_inserter(out), "{}", v);
  }
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

std::string_view kind_name(ColumnKind kind) {
  switch (kind) {
    case ColumnKind::kState:
      return "state";
    case ColumnKind::kDerivative:
      return "derivative";
    case ColumnKind::kOutput:
      return "output";
    case ColumnKind::kOther:
      break;
  }
  return "other";
}

std::string_view direction_name(CrossingDirection direction) {
  switch (direction) {
    case CrossingDirection::kRising:
      return "rising";
    case CrossingDirection::kFalling:
      return "falling";
    case CrossingDirection::kBoth:
      break;
  }
  return "both";
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
    append_number(buffer, table.time(i));
    for (const double v : table.row(i)) {
      buffer.push_back(',');
      append_number(buffer, v);
    }
    buffer.push_back('\n');
    if (buffer.size() >= kStreamChunkBytes) {
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  }
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
}

std::ofstream open_for_writing(const std::filesystem::path& file) {
  std::ofstream out(file);
  if (!out) throw IoError(fmt::format("{}: cannot open for writing", file.string()));
  return out;
}

void close_checked(std::ofstream& out, const std::filesystem::path& file) {
  out.close();
  if (!out) throw IoError(fmt::format("{}: write failed", file.string()));
}

void write_buffer(const fmt::memory_buffer& buffer, const std::filesystem::path& file) {
  std::ofstream out = open_for_writing(file);
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  close_checked(out, file);
}

}  // namespace

void write_csv(const ResultTable& table, const std::filesystem::path& file) {
  std::ofstream out = open_for_writing(file);
  write_table(table, out);
  close_checked(out, file);
}

void write_csv(const ResultTable& table, std::ostream& out) {
  write_table(table, out);
  if (!out) throw IoError("write_csv: the output stream failed");
}

void write_units_csv(const ResultTable& table, const std::filesystem::path& file) {
  fmt::memory_buffer buffer;
  buffer.append(std::string_view("time,s,time\n"));
  for (const ColumnInfo& c : table.columns()) {
    append_field(buffer, c.name);
    buffer.push_back(',');
    append_field(buffer, c.unit);
    buffer.push_back(',');
    buffer.append(kind_name(c.kind));
    buffer.push_back('\n');
  }
  write_buffer(buffer, file);
}

void write_params_csv(std::span<const ParameterInfo> parameters,
                      const std::filesystem::path& file) {
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

void write_event_log_csv(const std::vector<EventRecord>& events,
                         const std::filesystem::path& file) {
  fmt::memory_buffer buffer;
  buffer.append(std::string_view("time,kind,crossings,time_events,iterations,jumps,note\n"));
  std::string list;  // one '|'-joined field, quoted as a whole
  for (const EventRecord& e : events) {
    append_number(buffer, e.t);
    buffer.push_back(',');
    buffer.append(to_string(e.kind));
    buffer.push_back(',');

    list.clear();
    for (const CrossingRecord& c : e.crossings) {
      if (!list.empty()) list += '|';
      list += fmt::format("{}({})", c.crossing, direction_name(c.direction));
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
    append_field(buffer, e.note);
    buffer.push_back('\n');
  }
  write_buffer(buffer, file);
}

}  // namespace hdae

namespace hdae {

struct CsvStreamWriter::State {
  std::filesystem::path file;
  std::ofstream out;
  fmt::memory_buffer buffer;
  bool closed = false;
};

CsvStreamWriter::CsvStreamWriter(const std::filesystem::path& file,
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
  append_number(b, t);
  for (const double v : values) {
    b.push_back(',');
    append_number(b, v);
  }
  b.push_back('\n');
  if (b.size() >= kStreamChunkBytes) {
    state_->out.write(b.data(), static_cast<std::streamsize>(b.size()));
    b.clear();
    if (!state_->out) throw IoError(fmt::format("{}: write failed", state_->file.string()));
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
