#include "events/unsettled.hpp"

#include <algorithm>
#include <functional>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace hdae::detail {
namespace {

/// "a: T F T F" — a crossing's Boolean per pass, for the iteration-limit diagnostic.
std::string pass_history(const std::string& name, const std::vector<char>& values) {
  std::string s = fmt::format("'{}':", name);
  for (const char v : values) s += v != 0 ? " true" : " false";
  return s;
}

/// Why the event iteration did not settle, from the Booleans of every crossing per pass:
/// the shortest period P with which the last 2P passes repeat, and the crossings that
/// change within that cycle (those that drive it). Without such a cycle, the crossings that
/// flipped in the last pass.
std::string unsettled_crossings(const std::vector<std::vector<char>>& history,
                                const std::vector<CrossingInfo>& crossings) {
  const std::size_t passes = history.empty() ? 0 : history.front().size();
  auto same_pass = [&history](std::size_t i, std::size_t j) {
    return std::all_of(history.begin(), history.end(),
                       [i, j](const std::vector<char>& h) { return h[i] == h[j]; });
  };
  std::size_t period = 0;
  for (std::size_t p = 1; 2 * p <= passes && period == 0; ++p) {
    bool repeats = true;
    for (std::size_t i = passes - p; i < passes && repeats; ++i) repeats = same_pass(i, i - p);
    if (repeats) period = p;
  }
  // Passes examined: the last cycle and the pass before it, or just the last two passes.
  const std::size_t from = passes - std::min(passes, (period == 0 ? 1 : period) + 1);
  std::vector<std::string> names;
  for (std::size_t k = 0; k < history.size(); ++k) {
    const auto& h = history[k];
    const auto first = h.begin() + static_cast<std::ptrdiff_t>(from);
    if (std::adjacent_find(first, h.end(), std::not_equal_to<>()) != h.end()) {
      names.push_back(fmt::format("'{}'", crossings[k].name));
    }
  }
  if (names.empty()) {
    return "no crossing flipped in the last passes; the model kept asking for another pass "
           "(request_iteration) or scheduling time events for this instant";
  }
  std::string text = fmt::format("crossing{} {} kept flipping", names.size() == 1 ? "" : "s",
                                 fmt::join(names, ", "));
  if (period > 1) text += fmt::format(" in a cycle of {} passes", period);
  return text;
}

}  // namespace

std::string unsettled_message(double t, int max_passes,
                              const std::vector<std::vector<char>>& history,
                              const std::vector<CrossingInfo>& crossings) {
  std::vector<std::string> lines;
  for (std::size_t k = 0; k < history.size(); ++k) {
    const auto& h = history[k];
    if (std::adjacent_find(h.begin(), h.end(), std::not_equal_to<>()) != h.end()) {
      lines.push_back(pass_history(crossings[k].name, h));
    }
  }
  std::string message = fmt::format("event iteration at t = {} did not settle after {} passes: {}",
                                    t, max_passes, unsettled_crossings(history, crossings));
  if (!lines.empty()) message += fmt::format("; values per pass: {}", fmt::join(lines, "; "));
  return message;
}

}  // namespace hdae::detail
