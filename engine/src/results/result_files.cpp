// write_result_files and summary(): what example programs and users call after a run.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "hdae/atomic_file.hpp"
#include "hdae/csv.hpp"
#include "hdae/result.hpp"
#include "results/csv_in_place.hpp"
#include "results/set_lock.hpp"

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

/// The table, its units and event log, and the parameters file when parameters is set: all
/// complete before any is renamed, so an interruption while writing leaves the previous result
/// whole; the table goes last, as the file readers look for first.
ResultFiles write_files(const SimulationResult& result, const std::filesystem::path& csv_file,
                        std::optional<std::span<const ParameterInfo>> parameters) {
  ResultFiles files{.table = csv_file};
  AtomicFile table(csv_file);
  if (!table.replaces()) {
    // Beside a device or a pipe (/dev/null.units.csv, <pipe>.events.csv) side files would be
    // litter, or fail for want of permission where the device lives.
    detail::write_csv_in_place(result.table, detail::write_path_of(table));
    return files;
  }
  const auto beside = [&](const char* extension) {
    return std::filesystem::path(csv_file).replace_extension(extension);
  };
  files.units = beside(".units.csv");
  files.events = beside(".events.csv");
  if (parameters) files.params = beside(".params.csv");
  AtomicFile units(files.units);
  AtomicFile events(files.events);
  std::optional<AtomicFile> params;
  if (parameters) params.emplace(files.params);
  detail::write_units_csv_in_place(result.table, detail::write_path_of(units));
  detail::write_event_log_csv_in_place(result.events, detail::write_path_of(events));
  if (params) detail::write_params_csv_in_place(*parameters, detail::write_path_of(*params));
  detail::write_csv_in_place(result.table, detail::write_path_of(table));
  const detail::SetLock lock(table.target());  // another writer of this set renames before or after
  units.commit();
  events.commit();
  if (params) params->commit();
  table.commit();
  return files;
}

}  // namespace

ResultFiles write_result_files(const SimulationResult& result,
                               const std::filesystem::path& csv_file) {
  return write_files(result, csv_file, std::nullopt);
}

ResultFiles write_result_files(const SimulationResult& result,
                               const std::filesystem::path& csv_file,
                               std::span<const ParameterInfo> parameters) {
  return write_files(result, csv_file, parameters);
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
    for (const ImpulseRecord& i : e.impulses) {
      s += fmt::format(" impulse of {}: {:.8g}", i.variable, i.integral);
    }
    for (const TimeSensitivity& d : e.time_sensitivities) {
      s += fmt::format(" d(t)/d({}): {:.8g}", d.sensitivity, d.value);
    }
    s += '\n';
  }
  s += result.statistics.brief_report();
  return s;
}

}  // namespace hdae
