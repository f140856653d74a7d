// The sensitivity check: for every bundled model (hdae/models/catalog.hpp), the forward
// sensitivities of a run (SimulationOptions::sensitivities) against central differences of two
// runs with the source moved either way, at rows on a grid that events of the runs lie between
// (docs/design.md, "Sensitivities"). scripts/sensitivity-check.sh runs it over the catalog
// (program hdae-sensitivity-check); tests/sensitivity/test_sensitivity_check.cpp over a subset.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace hdae::sensitivity_check {

/// What the check runs for one model.
struct Plan {
  std::string model;  ///< the catalog's name
  /// Parameters and start values "start(<variable>)", as SimulationOptions::sensitivities.
  std::vector<std::string> sources;
  double stop_s = 1.0;  ///< long enough for the model's events
  /// Rows compared: t0 (after its consistent start) and `intervals` more, evenly to stop_s.
  std::size_t intervals = 10;
  /// The central differences' step relative to the source's magnitude (as the run's quotients
  /// measure it: |p|, or max(|x_j(t0)|, nominal_j)). The perturbed runs' errors divided by
  /// the step fall with a larger one and the differences' truncation grows with its square;
  /// 1e-4 keeps both below a few 1e-6 of the column on most models.
  double relative_step = 1e-4;
  /// Sources whose differences need a step of their own (source, relative step): a source the
  /// solution depends on so strongly that the plan's step leaves the differences' truncation
  /// above the tolerance, beside sources whose runs' errors need the larger one.
  std::vector<std::pair<std::string, double>> source_steps;
  /// KLU for the augmented system however small (SimulationOptions::sparse_min_unknowns).
  bool sparse = false;
};

/// The check of one source of a plan.
struct SourceCheck {
  enum class Verdict { kPass, kFail };
  std::string model;
  std::string source;
  Verdict verdict = Verdict::kFail;
  /// The largest |s - d| / m over the columns and rows compared: s the sensitivity, d the
  /// central difference, m the column's magnitude (the largest |d| over its rows, at least its
  /// variable's largest |x| over the source's magnitude).
  double worst = 0.0;
  std::string worst_at;     ///< "<column> at t = <t>"
  std::size_t rows = 0;     ///< rows compared
  std::size_t skipped = 0;  ///< rows between the events of the perturbed runs
  std::string message;      ///< why it failed or was refused
};

/// One plan per catalog entry, in the catalog's order: the table of plans.cpp, or for a model
/// it does not list, up to two of its parameters and the start value of its first unknown.
[[nodiscard]] std::vector<Plan> plans();
/// The plan of the model called name; std::out_of_range naming it when there is none.
[[nodiscard]] Plan plan_for(const std::string& name);

/// Runs the plan: the sensitivity run at rel_tol 1e-9 (the tightest the engine allows), two
/// runs per source at the reference tolerance (1e-10, or the example's own where it cannot
/// reach that), and compares; one outcome per source, kPass when worst <= tolerance.
[[nodiscard]] std::vector<SourceCheck> check(const Plan& plan, double tolerance);

/// The outcomes as a table: model, source, worst relative error, where, verdict.
[[nodiscard]] std::string format_table(const std::vector<SourceCheck>& outcomes, double tolerance);

}  // namespace hdae::sensitivity_check
