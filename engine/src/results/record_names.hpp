// The words result files use for column kinds and crossing directions ("state", "rising"), in
// the units CSV, the event log and HDF5 files alike, and their way back.
#pragma once

#include <optional>
#include <string_view>

#include "hdae/result.hpp"

namespace hdae::detail {

[[nodiscard]] std::string_view kind_name(ColumnKind kind);
[[nodiscard]] std::string_view direction_name(CrossingDirection direction);
/// The kind kind_name gives this word; empty for any other word.
[[nodiscard]] std::optional<ColumnKind> kind_from_name(std::string_view name);
[[nodiscard]] std::optional<CrossingDirection> direction_from_name(std::string_view name);
/// The event kind to_string(EventKind) gives this word; empty for any other word.
[[nodiscard]] std::optional<EventKind> event_kind_from_name(std::string_view name);

}  // namespace hdae::detail
