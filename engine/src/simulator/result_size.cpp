#include "simulator/result_size.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::detail {
namespace {

/// Rows of the output grid as recorded: the grid points kept by record_every, the first and
/// the last row (event rows come on top).
double grid_rows(const SimulationOptions& o) {
  if (o.record_rows == RecordedRows::kEventsOnly) return 2.0;
  const auto every = static_cast<double>(o.record_every);
  if (!o.output_times.empty()) return std::ceil(static_cast<double>(o.output_times.size()) / every);
  const double points = std::floor((o.stop_s - o.start_s) / o.resolved_output_interval_s());
  return std::floor(points / every) + 2.0;
}

/// "over stop_s - start_s = 500 s every 1e-06 s" or "at 12 output_times".
std::string grid_words(const SimulationOptions& o) {
  if (!o.output_times.empty()) return fmt::format("at {} output_times", o.output_times.size());
  return fmt::format("every output_interval_s = {:g} s over stop_s - start_s = {:g} s",
                     o.resolved_output_interval_s(), o.stop_s - o.start_s);
}

/// Whether a sink of the options keeps the rows in memory (SinkKind::kMemory).
bool keeps_rows_in_memory(const SimulationOptions& o) {
  return std::any_of(o.sinks.begin(), o.sinks.end(),
                     [](const SinkSpec& s) { return s.kind == SinkKind::kMemory; });
}

/// A string's bytes: the object, and its buffer when that is not the one inside the object.
double string_bytes(const std::string& s) {
  constexpr std::size_t kInside = 15;  // libstdc++'s short-string buffer
  return static_cast<double>(sizeof(std::string) + (s.capacity() > kInside ? s.capacity() + 1 : 0));
}

}  // namespace

double held_bytes(const EventRecord& record) {
  double bytes = sizeof(EventRecord) + string_bytes(record.note) - sizeof(std::string);
  for (const CrossingRecord& c : record.crossings) {
    bytes += sizeof(CrossingRecord) + string_bytes(c.crossing) - sizeof(std::string);
  }
  for (const std::string& name : record.time_events) bytes += string_bytes(name);
  for (const JumpRecord& j : record.jumps) {
    bytes += sizeof(JumpRecord) + string_bytes(j.variable) - sizeof(std::string);
  }
  for (const ImpulseRecord& i : record.impulses) {
    bytes += sizeof(ImpulseRecord) + string_bytes(i.variable) - sizeof(std::string);
  }
  for (const TimeSensitivity& s : record.time_sensitivities) {
    bytes += sizeof(TimeSensitivity) + string_bytes(s.sensitivity) - sizeof(std::string);
  }
  return bytes;
}

ResultBudget::ResultBudget(const SimulationOptions& options, std::size_t columns)
    : limit_(options.max_result_bytes),
      row_bytes_(keeps_rows_in_memory(options) ? static_cast<double>(columns + 1) * sizeof(double)
                                               : 0.0) {}

std::optional<SimulationStatus> ResultBudget::after_event(double t, const EventRecord& record,
                                                          std::size_t table_rows,
                                                          std::size_t events) {
  event_bytes_ += held_bytes(record);
  const double table_bytes = static_cast<double>(table_rows) * row_bytes_;
  const double bytes = table_bytes + event_bytes_;
  if (bytes <= limit_) return std::nullopt;
  return SimulationStatus{
      Outcome::kResultLimit, t,
      fmt::format("the result held in memory reached {:.3g} bytes at t = {} ({} table rows, {:.3g} "
                  "bytes; {} events in the event log, {:.3g} bytes), more than "
                  "SimulationOptions::max_result_bytes = {:.3g}: events come faster than the "
                  "run can keep them (a time event rescheduled without end?); keep fewer rows or "
                  "columns (record_rows, record_every, record_columns) or stream the rows "
                  "(sinks), shorten the run, or raise max_result_bytes",
                  bytes, t, table_rows, table_bytes, events, event_bytes_, limit_)};
}

void check_result_size(const SimulationOptions& options, std::size_t columns) {
  if (!keeps_rows_in_memory(options)) return;
  const double rows = grid_rows(options);
  const double bytes = rows * static_cast<double>(columns + 1) * sizeof(double);
  if (bytes <= options.max_result_bytes) return;
  throw OptionError(fmt::format(
      "the result table would hold {:.3g} rows ({}, record_every = {}) of {} columns, {:.3g} "
      "bytes in memory, more than SimulationOptions::max_result_bytes = {:.3g}: choose a "
      "coarser grid, record fewer rows (record_every, record_rows) or columns "
      "(record_columns, record_kinds), stream the rows to a file instead of memory (sinks), "
      "or raise max_result_bytes",
      rows, grid_words(options), options.record_every, columns + 1, bytes,
      options.max_result_bytes));
}

}  // namespace hdae::detail
