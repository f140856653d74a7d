#include "events/time_event_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "events/same_time.hpp"

namespace hdae::detail {

TimeEventSchedule::TimeEventSchedule(const ModelStructure& structure)
    : structure_(structure),
      times_(structure.time_events.size(), std::numeric_limits<double>::quiet_NaN()),
      fired_(std::make_unique<bool[]>(structure.time_events.size())) {}

double TimeEventSchedule::next() const {
  double t = std::numeric_limits<double>::infinity();
  for (const double s : times_) {
    if (!std::isnan(s)) t = std::min(t, s);
  }
  return t;
}

bool TimeEventSchedule::collect_due(double t) {
  bool any = false;
  for (std::size_t i = 0; i < times_.size(); ++i) {
    const double s = times_[i];
    const bool due = !std::isnan(s) && (s <= t || same_time(s, t));
    fired_[i] = due;
    if (due) {
      times_[i] = std::numeric_limits<double>::quiet_NaN();
      any = true;
    }
  }
  return any;
}

void TimeEventSchedule::clear_fired() { std::fill_n(fired_.get(), times_.size(), false); }

void TimeEventSchedule::append_fired_names(std::vector<std::string>& names) const {
  for (std::size_t i = 0; i < times_.size(); ++i) {
    if (fired_[i]) names.push_back(structure_.time_events[i].name);
  }
}

}  // namespace hdae::detail
