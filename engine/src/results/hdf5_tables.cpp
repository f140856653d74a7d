#include "results/hdf5_tables.hpp"

#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "results/record_names.hpp"

namespace hdae::detail::hdf5 {
namespace {

/// The event log flattened into one array per field; crossings, time events and jumps get a
/// table each, whose "event" field is the index of their event.
struct FlatEvents {
  std::vector<double> time;
  std::vector<std::string> kind;
  std::vector<std::int64_t> iterations;
  std::vector<std::string> note;
  std::vector<std::int64_t> crossing_event, time_event_event, jump_event, sensitivity_event;
  std::vector<std::string> crossing, direction, time_event, variable, sensitivity;
  std::vector<double> before, after, sensitivity_value;
};

FlatEvents flatten(const std::vector<EventRecord>& events) {
  FlatEvents f;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const EventRecord& e = events[i];
    const auto index = static_cast<std::int64_t>(i);
    f.time.push_back(e.t);
    f.kind.emplace_back(to_string(e.kind));
    f.iterations.push_back(e.iterations);
    f.note.push_back(e.note);
    for (const CrossingRecord& c : e.crossings) {
      f.crossing_event.push_back(index);
      f.crossing.push_back(c.crossing);
      f.direction.emplace_back(direction_name(c.direction));
    }
    for (const std::string& name : e.time_events) {
      f.time_event_event.push_back(index);
      f.time_event.push_back(name);
    }
    for (const JumpRecord& j : e.jumps) {
      f.jump_event.push_back(index);
      f.variable.push_back(j.variable);
      f.before.push_back(j.before);
      f.after.push_back(j.after);
    }
    for (const TimeSensitivity& d : e.time_sensitivities) {
      f.sensitivity_event.push_back(index);
      f.sensitivity.push_back(d.sensitivity);
      f.sensitivity_value.push_back(d.value);
    }
  }
  return f;
}

/// The event index of entry i of a sub-table, checked against the number of events.
std::size_t event_index(const std::vector<std::int64_t>& indices, std::size_t i, std::size_t events,
                        std::string_view where, const std::filesystem::path& file) {
  const std::int64_t k = indices[i];
  if (k < 0 || static_cast<std::size_t>(k) >= events) {
    throw IoError(fmt::format("{}: {}/event[{}] = {} is not the index of one of the {} events",
                              file.string(), where, i, k, events));
  }
  return static_cast<std::size_t>(k);
}

/// Throws unless every array has the length of the first (named first).
void require_lengths(std::initializer_list<std::size_t> sizes, std::string_view group,
                     const std::filesystem::path& file) {
  for (const std::size_t s : sizes) {
    if (s != *sizes.begin()) {
      throw IoError(fmt::format("{}: the datasets of '{}' differ in length", file.string(), group));
    }
  }
}

}  // namespace

void write_columns(hid_t file_id, const std::vector<ColumnInfo>& columns,
                   const std::filesystem::path& file) {
  std::vector<std::string> names, units, kinds;
  for (const ColumnInfo& c : columns) {
    names.push_back(c.name);
    units.push_back(c.unit);
    kinds.emplace_back(kind_name(c.kind));
  }
  const Id group = create_group(file_id, "columns", file);
  write_strings(group.get(), "name", names, file);
  write_strings(group.get(), "unit", units, file);
  write_strings(group.get(), "kind", kinds, file);
}

void write_event_log(hid_t file_id, const std::vector<EventRecord>& events,
                     const std::filesystem::path& file) {
  const FlatEvents f = flatten(events);
  const Id group = create_group(file_id, "events", file);
  write_doubles(group.get(), "time", f.time, file);
  write_strings(group.get(), "kind", f.kind, file);
  write_integers(group.get(), "iterations", f.iterations, file);
  write_strings(group.get(), "note", f.note, file);
  const Id crossings = create_group(group.get(), "crossings", file);
  write_integers(crossings.get(), "event", f.crossing_event, file);
  write_strings(crossings.get(), "crossing", f.crossing, file);
  write_strings(crossings.get(), "direction", f.direction, file);
  const Id time_events = create_group(group.get(), "time_events", file);
  write_integers(time_events.get(), "event", f.time_event_event, file);
  write_strings(time_events.get(), "name", f.time_event, file);
  const Id jumps = create_group(group.get(), "jumps", file);
  write_integers(jumps.get(), "event", f.jump_event, file);
  write_strings(jumps.get(), "variable", f.variable, file);
  write_doubles(jumps.get(), "before", f.before, file);
  write_doubles(jumps.get(), "after", f.after, file);
  if (f.sensitivity_event.empty()) return;  // a run without sensitivities
  const Id times = create_group(group.get(), "time_sensitivities", file);
  write_integers(times.get(), "event", f.sensitivity_event, file);
  write_strings(times.get(), "sensitivity", f.sensitivity, file);
  write_doubles(times.get(), "value", f.sensitivity_value, file);
}

void write_parameters(hid_t file_id, const std::vector<ResultParameter>& parameters,
                      const std::filesystem::path& file) {
  if (parameters.empty()) return;
  std::vector<std::string> names, units;
  std::vector<double> values;
  for (const ResultParameter& p : parameters) {
    names.push_back(p.name);
    values.push_back(p.value);
    units.push_back(p.unit);
  }
  const Id group = create_group(file_id, "parameters", file);
  write_strings(group.get(), "name", names, file);
  write_doubles(group.get(), "value", values, file);
  write_strings(group.get(), "unit", units, file);
}

std::vector<ColumnInfo> read_columns(hid_t file_id, const std::filesystem::path& file) {
  const Id group = open_group(file_id, "columns", file);
  const auto names = read_strings(group.get(), "name", "columns/name", file);
  const auto units = read_strings(group.get(), "unit", "columns/unit", file);
  const auto kinds = read_strings(group.get(), "kind", "columns/kind", file);
  require_lengths({names.size(), units.size(), kinds.size()}, "columns", file);
  std::vector<ColumnInfo> columns;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::optional<ColumnKind> kind = kind_from_name(kinds[i]);
    if (!kind) {
      throw IoError(
          fmt::format("{}: columns/kind[{}] = \"{}\" is not a column kind (state, "
                      "derivative, output, other)",
                      file.string(), i, kinds[i]));
    }
    columns.push_back({names[i], units[i], *kind});
  }
  return columns;
}

namespace {

std::vector<EventRecord> read_event_list(hid_t group, const std::filesystem::path& file) {
  const auto time = read_doubles(group, "time", "events/time", file);
  const auto kind = read_strings(group, "kind", "events/kind", file);
  const auto iterations = read_integers(group, "iterations", "events/iterations", file);
  const auto note = read_strings(group, "note", "events/note", file);
  require_lengths({time.size(), kind.size(), iterations.size(), note.size()}, "events", file);
  std::vector<EventRecord> events(time.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    const std::optional<EventKind> k = event_kind_from_name(kind[i]);
    if (!k) {
      throw IoError(fmt::format("{}: events/kind[{}] = \"{}\" is not an event kind", file.string(),
                                i, kind[i]));
    }
    events[i] = {
        .t = time[i], .kind = *k, .iterations = static_cast<int>(iterations[i]), .note = note[i]};
  }
  return events;
}

void read_crossings(hid_t events_group, std::vector<EventRecord>& events,
                    const std::filesystem::path& file) {
  const Id g = open_group(events_group, "crossings", file);
  const auto event = read_integers(g.get(), "event", "events/crossings/event", file);
  const auto crossing = read_strings(g.get(), "crossing", "events/crossings/crossing", file);
  const auto direction = read_strings(g.get(), "direction", "events/crossings/direction", file);
  require_lengths({event.size(), crossing.size(), direction.size()}, "events/crossings", file);
  for (std::size_t i = 0; i < event.size(); ++i) {
    const std::optional<CrossingDirection> d = direction_from_name(direction[i]);
    if (!d) {
      throw IoError(
          fmt::format("{}: events/crossings/direction[{}] = \"{}\" is not rising or "
                      "falling",
                      file.string(), i, direction[i]));
    }
    events[event_index(event, i, events.size(), "events/crossings", file)].crossings.push_back(
        {crossing[i], *d});
  }
}

void read_time_events_and_jumps(hid_t events_group, std::vector<EventRecord>& events,
                                const std::filesystem::path& file) {
  const Id te = open_group(events_group, "time_events", file);
  const auto te_event = read_integers(te.get(), "event", "events/time_events/event", file);
  const auto te_name = read_strings(te.get(), "name", "events/time_events/name", file);
  require_lengths({te_event.size(), te_name.size()}, "events/time_events", file);
  for (std::size_t i = 0; i < te_event.size(); ++i) {
    events[event_index(te_event, i, events.size(), "events/time_events", file)]
        .time_events.push_back(te_name[i]);
  }
  const Id j = open_group(events_group, "jumps", file);
  const auto event = read_integers(j.get(), "event", "events/jumps/event", file);
  const auto variable = read_strings(j.get(), "variable", "events/jumps/variable", file);
  const auto before = read_doubles(j.get(), "before", "events/jumps/before", file);
  const auto after = read_doubles(j.get(), "after", "events/jumps/after", file);
  require_lengths({event.size(), variable.size(), before.size(), after.size()}, "events/jumps",
                  file);
  for (std::size_t i = 0; i < event.size(); ++i) {
    events[event_index(event, i, events.size(), "events/jumps", file)].jumps.push_back(
        {variable[i], before[i], after[i]});
  }
}

/// events/time_sensitivities, which only a run with sensitivities writes.
void read_time_sensitivities(hid_t events_group, std::vector<EventRecord>& events,
                             const std::filesystem::path& file) {
  if (!has_link(events_group, "time_sensitivities")) return;
  const Id g = open_group(events_group, "time_sensitivities", file);
  const auto event = read_integers(g.get(), "event", "events/time_sensitivities/event", file);
  const auto name =
      read_strings(g.get(), "sensitivity", "events/time_sensitivities/sensitivity", file);
  const auto value = read_doubles(g.get(), "value", "events/time_sensitivities/value", file);
  require_lengths({event.size(), name.size(), value.size()}, "events/time_sensitivities", file);
  for (std::size_t i = 0; i < event.size(); ++i) {
    events[event_index(event, i, events.size(), "events/time_sensitivities", file)]
        .time_sensitivities.push_back({name[i], value[i]});
  }
}

}  // namespace

std::vector<EventRecord> read_event_log(hid_t file_id, const std::filesystem::path& file) {
  if (!has_link(file_id, "events")) return {};
  const Id group = open_group(file_id, "events", file);
  std::vector<EventRecord> events = read_event_list(group.get(), file);
  read_crossings(group.get(), events, file);
  read_time_events_and_jumps(group.get(), events, file);
  read_time_sensitivities(group.get(), events, file);
  return events;
}

std::vector<ResultParameter> read_parameters(hid_t file_id, const std::filesystem::path& file) {
  if (!has_link(file_id, "parameters")) return {};
  const Id group = open_group(file_id, "parameters", file);
  const auto names = read_strings(group.get(), "name", "parameters/name", file);
  const auto values = read_doubles(group.get(), "value", "parameters/value", file);
  const auto units = read_strings(group.get(), "unit", "parameters/unit", file);
  require_lengths({names.size(), values.size(), units.size()}, "parameters", file);
  std::vector<ResultParameter> parameters;
  for (std::size_t i = 0; i < names.size(); ++i) {
    parameters.push_back({names[i], values[i], units[i]});
  }
  return parameters;
}

}  // namespace hdae::detail::hdf5
