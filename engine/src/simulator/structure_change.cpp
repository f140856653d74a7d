#include "simulator/structure_change.hpp"

#include <optional>
#include <string>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "simulator/run_settings.hpp"

namespace hdae::detail {
namespace {

/// "" when both lists hold the same names in the same order, else what differs, in words.
template <class Info>
std::string changed_names(const std::vector<Info>& before, const std::vector<Info>& now,
                          const char* what) {
  if (before.size() != now.size()) {
    return fmt::format("{} {}s instead of {}", now.size(), what, before.size());
  }
  for (std::size_t k = 0; k < now.size(); ++k) {
    if (before[k].name != now[k].name) {
      return fmt::format("{} {} '{}' where the run's is '{}'", what, k, now[k].name,
                         before[k].name);
    }
  }
  return {};
}

}  // namespace

void StructureChange::check(const ModelStructure& now, const SimulationOptions& options, double t,
                            std::span<const std::size_t> previous, std::size_t before) const {
  const std::string model = fmt::format("model '{}' changed its unknowns at t = {}", now.name, t);
  now.validate();
  check_linear_solver(options, now);
  if (previous.size() != now.num_unknowns()) {
    throw ModelError(fmt::format("{}: it declares {} unknowns but unknowns_changed lists {}", model,
                                 now.num_unknowns(), previous.size()));
  }
  for (std::size_t j = 0; j < previous.size(); ++j) {
    if (previous[j] != EventContext::kNewUnknown && previous[j] >= before) {
      throw ModelError(fmt::format(
          "{}: unknowns_changed carries unknown '{}' on from index {}, beyond the {} unknowns "
          "before",
          model, now.variables.name(j), previous[j], before));
    }
  }
  // The crossing table, the time-event schedule and the chattering watch are the run's.
  std::string changed = changed_names(crossings_, now.crossings, "crossing");
  if (changed.empty()) changed = changed_names(time_events_, now.time_events, "time event");
  if (!changed.empty()) {
    throw ModelError(fmt::format(
        "{}: it declares {}; the crossings and time events of a run stay those it started with",
        model, changed));
  }
}

void check_pattern_change(const ModelStructure& now, std::size_t n, bool had_pattern, double t) {
  const std::string model =
      fmt::format("model '{}' changed its sparsity pattern at t = {}", now.name, t);
  if (now.num_unknowns() != n) {
    throw ModelError(fmt::format(
        "{}: it declares {} unknowns where the run has {}; other unknowns need unknowns_changed",
        model, now.num_unknowns(), n));
  }
  if (const bool has_pattern = !now.sparsity.empty(); has_pattern != had_pattern) {
    throw ModelError(fmt::format(
        "{}: it declared {} before and {} now; a run keeps its dense or sparse path, so a "
        "pattern can be replaced but not added or removed",
        model, had_pattern ? "one" : "none", had_pattern ? "none" : "one"));
  }
  // Checked before the pattern is built: building it places entries by their column.
  std::optional<SparsityEntry> outside;
  now.sparsity.for_each([&](std::size_t row, std::size_t col) {
    if (!outside && (row >= n || col >= n)) outside = SparsityEntry{row, col};
  });
  if (outside) {
    throw ModelError(
        fmt::format("{}: entry (row {}, column {}) is outside the {}x{} residual Jacobian", model,
                    outside->row, outside->col, n, n));
  }
}

}  // namespace hdae::detail
