#include "simulator/result_size.hpp"

#include <string>

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::detail {
namespace {

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
      row_bytes_(options.keeps_rows_in_memory() ? static_cast<double>(columns + 1) * sizeof(double)
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

}  // namespace hdae::detail
