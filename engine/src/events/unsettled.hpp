// The diagnostic of an event iteration that hit its pass limit: which crossings drive the
// cycle, its period, and each such crossing's Boolean per pass.
#pragma once

#include <string>
#include <vector>

#include "hdae/model.hpp"

namespace hdae::detail {

/// "event iteration at t = ... did not settle after N passes: crossing 'a' kept flipping in a
/// cycle of 2 passes; values per pass: 'a': true false true ..." from the Booleans of every
/// crossing per pass (history[k][pass]).
[[nodiscard]] std::string unsettled_message(double t, int max_passes,
                                            const std::vector<std::vector<char>>& history,
                                            const std::vector<CrossingInfo>& crossings);

}  // namespace hdae::detail
