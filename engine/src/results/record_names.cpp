#include "results/record_names.hpp"

namespace hdae {

std::string_view to_string(ColumnKind kind) { return detail::kind_name(kind); }

}  // namespace hdae

namespace hdae::detail {

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

std::optional<ColumnKind> kind_from_name(std::string_view name) {
  for (const ColumnKind k :
       {ColumnKind::kState, ColumnKind::kDerivative, ColumnKind::kOutput, ColumnKind::kOther}) {
    if (kind_name(k) == name) return k;
  }
  return std::nullopt;
}

std::optional<CrossingDirection> direction_from_name(std::string_view name) {
  for (const CrossingDirection d :
       {CrossingDirection::kRising, CrossingDirection::kFalling, CrossingDirection::kBoth}) {
    if (direction_name(d) == name) return d;
  }
  return std::nullopt;
}

std::optional<EventKind> event_kind_from_name(std::string_view name) {
  for (const EventKind k : {EventKind::kInitial, EventKind::kTime, EventKind::kState,
                            EventKind::kTerminal, EventKind::kStep}) {
    if (to_string(k) == name) return k;
  }
  return std::nullopt;
}

}  // namespace hdae::detail
