// Result tables built from formulas for the comparison tests: a time grid, optional event
// instants (a left and a right row at the same time) and signals given as functions of time
// and of the index of the segment between events.
#pragma once

#include <cmath>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "hdae/result.hpp"

namespace hdae::test {

/// A signal y(t, segment): segment counts the events at or before t (0 before the first),
/// so the left row at an event sees segment k and the right row segment k + 1.
struct SignalFormula {
  std::string name;
  std::function<double(double t, std::size_t segment)> y;
};

/// Rows on the grid t0, t0 + h, ... (up to t1 inclusive) plus two rows at every event time
/// (events strictly inside (t0, t1), increasing; a grid point equal to an event is dropped).
inline ResultTable make_table(double t0, double t1, double h, const std::vector<double>& events,
                              const std::vector<SignalFormula>& signals) {
  std::vector<ColumnInfo> columns;
  for (const SignalFormula& s : signals)
    columns.push_back(ColumnInfo{s.name, "", ColumnKind::kState});
  ResultTable table(std::move(columns));
  std::vector<double> values(signals.size());
  auto add = [&](double t, std::size_t segment) {
    for (std::size_t j = 0; j < signals.size(); ++j) values[j] = signals[j].y(t, segment);
    table.append(t, values);
  };
  const auto steps = static_cast<std::size_t>(std::llround((t1 - t0) / h));
  std::size_t next_event = 0;
  for (std::size_t i = 0; i <= steps; ++i) {
    const double t = i == steps ? t1 : t0 + static_cast<double>(i) * h;
    while (next_event < events.size() && events[next_event] <= t) {
      add(events[next_event], next_event);
      add(events[next_event], next_event + 1);
      ++next_event;
    }
    if (next_event > 0 && events[next_event - 1] == t) continue;
    add(t, next_event);
  }
  return table;
}

}  // namespace hdae::test
