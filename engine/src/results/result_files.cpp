// write_result_files and summary(): what example programs and users call after a run.
#include <string>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "hdae/csv.hpp"
#include "hdae/result.hpp"

namespace hdae {
namespace {

/// "<outcome> at t = <t>", with the message in parentheses when it adds something. A message
/// that starts with the outcome's own name ("interrupted at t = 0.68", "wall-clock limit of
/// 60 s reached at t = 12.5") already is such a line and stands alone, instead of repeating
/// the outcome and the time.
std::string status_line(const SimulationStatus& status) {
  const std::string_view outcome = to_string(status.outcome);
  if (status.message.starts_with(outcome)) return status.message;
  std::string line = fmt::format("{} at t = {}", outcome, status.t);
  if (!status.message.empty()) line += fmt::format(" ({})", status.message);
  return line;
}

}  // namespace

ResultFiles write_result_files(const SimulationResult& result,
                               const std::filesystem::path& csv_file) {
  ResultFiles files{.table = csv_file};
  write_csv(result.table, csv_file);
  // The table exists now, as a new regular file or as what csv_file already was. Beside
  // anything else (/dev/null.units.csv, <pipe>.events.csv) side files would be litter, or
  // fail for want of permission where the device lives.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(csv_file, ec)) return files;
  files.units = std::filesystem::path(csv_file).replace_extension(".units.csv");
  write_units_csv(result.table, files.units);
  files.events = std::filesystem::path(csv_file).replace_extension(".events.csv");
  write_event_log_csv(result.events, files.events);
  return files;
}

ResultFiles write_result_files(const SimulationResult& result,
                               const std::filesystem::path& csv_file,
                               std::span<const ParameterInfo> parameters) {
  ResultFiles files = write_result_files(result, csv_file);
  if (!files.side_files_written()) return files;
  files.params = std::filesystem::path(csv_file).replace_extension(".params.csv");
  write_params_csv(parameters, files.params);
  return files;
}

std::string summary(const SimulationResult& result) {
  std::string s = fmt::format("status: {}", status_line(result.status));
  s += fmt::format("\nrows: {}, events: {}\n", result.table.num_rows(), result.events.size());
  for (const EventRecord& e : result.events) {
    if (e.kind == EventKind::kInitial && e.jumps.empty()) continue;
    s += fmt::format("  event at t = {:.10g} ({}", e.t, to_string(e.kind));
    for (const CrossingRecord& c : e.crossings) {
      s += fmt::format(", {} {}", c.crossing,
                       c.direction == CrossingDirection::kRising ? "rose" : "fell");
    }
    for (const std::string& name : e.time_events) s += fmt::format(", time event {}", name);
    s += fmt::format(", {} pass{})", e.iterations, e.iterations == 1 ? "" : "es");
    for (const JumpRecord& j : e.jumps) {
      s += fmt::format(" {}: {:.8g} -> {:.8g}", j.variable, j.before, j.after);
    }
    s += '\n';
  }
  s += result.statistics.brief_report();
  return s;
}

}  // namespace hdae
