#include "sensitivity_check/sensitivity_check.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "hdae/simulator.hpp"
#include "registry/reference_run.hpp"
#include "registry/registry.hpp"
#include "sensitivity_check/start_moved.hpp"

namespace hdae::sensitivity_check {
namespace {

/// The tightest rel_tol of a run with sensitivities (the engine refuses a tighter one).
constexpr double kSensitivityRelTol = 1e-9;

/// A source as the perturbed runs move it.
struct Source {
  std::string name;
  std::optional<std::size_t> start;  ///< the unknown of a start value; empty: a parameter
  double value = 0.0;
  double scale = 1.0;  ///< |p|, or max(|x_j(t0)|, nominal_j), as the engine's quotients
};

Source resolve(const SimulationModel& model, const std::string& name) {
  const ModelStructure& s = model.structure();
  if (name.starts_with("start(") && name.ends_with(")")) {
    const std::string variable = name.substr(6, name.size() - 7);
    for (std::size_t j = 0; j < s.num_unknowns(); ++j) {
      if (s.variables.name(j) != variable) continue;
      const double v = s.variables.start(j);
      return {name, j, v, std::max(std::abs(v), s.variables.nominal(j))};
    }
    throw std::out_of_range(fmt::format("model '{}' has no variable '{}'", s.name, variable));
  }
  const double v = model.parameter(name);
  return {name, std::nullopt, v, v != 0.0 ? std::abs(v) : 1.0};
}

SimulationOptions options_for(const examples::Example& example, const Plan& plan, double rel_tol) {
  SimulationOptions o = example.options;
  o.stop_s = plan.stop_s;
  o.output_interval_s.reset();
  o.step_to_outputs = false;
  o.output_times.clear();
  const double span = plan.stop_s - o.start_s;
  for (std::size_t i = 1; i < plan.intervals; ++i) {
    o.output_times.push_back(o.start_s +
                             span * static_cast<double>(i) / static_cast<double>(plan.intervals));
  }
  o.rel_tol = rel_tol;
  o.log_level = LogLevel::kOff;
  if (plan.sparse) {
    o.linear_solver = LinearSolverKind::kKlu;
    o.sparse_min_unknowns = 1;
  }
  return o;
}

/// The times compared: t0 and the grid, stop_s last.
std::vector<double> comparison_times(const SimulationOptions& o) {
  std::vector<double> times{o.start_s};
  times.insert(times.end(), o.output_times.begin(), o.output_times.end());
  times.push_back(o.stop_s);
  return times;
}

/// The last row at time t (after the events at t), or none.
std::optional<std::size_t> row_at(const ResultTable& table, double t) {
  for (std::size_t k = table.num_rows(); k-- > 0;) {
    if (table.time(k) == t) return k;
  }
  return std::nullopt;
}

/// Events strictly before t: where the perturbed runs have had different numbers of them,
/// their difference there measures the event's shift, not a derivative.
std::size_t events_before(const SimulationResult& r, double t) {
  return static_cast<std::size_t>(std::count_if(r.events.begin(), r.events.end(),
                                                [t](const EventRecord& e) { return e.t < t; }));
}

/// A run that must reach its stop time; the status message otherwise.
SimulationResult run(SimulationModel& model, const SimulationOptions& o) {
  SimulationResult r = simulate(model, o);
  if (r.status.outcome != hdae::Outcome::kReachedStopTime) {
    throw std::runtime_error(fmt::format("stopped at t = {:g}: {}", r.status.t, r.status.message));
  }
  return r;
}

/// A run of a fresh model with the source moved by delta.
SimulationResult perturbed(const examples::Example& example, const Source& source, double delta,
                           const SimulationOptions& o) {
  const std::unique_ptr<SimulationModel> model = examples::make_reference_model(example);
  if (!source.start) {
    model->set_parameter(source.name, source.value + delta);
    return run(*model, o);
  }
  StartMoved moved(*model, *source.start, delta);
  return run(moved, o);
}

/// The nominal value of the unknown called name, or 0 for an output.
double nominal(const VariableTable& variables, const std::string& name) {
  for (std::size_t j = 0; j < variables.size(); ++j) {
    if (variables.name(j) == name) return variables.nominal(j);
  }
  return 0.0;
}

/// The times of `times` at which all three runs have a row and have had the same events:
/// where the perturbed runs have had different numbers of them, their difference measures the
/// event's shift, not a derivative.
std::vector<double> comparable(const std::vector<double>& times, const SimulationResult& s,
                               const SimulationResult& up, const SimulationResult& down) {
  std::vector<double> kept;
  for (const double t : times) {
    if (!row_at(s.table, t) || !row_at(up.table, t) || !row_at(down.table, t)) continue;
    const std::size_t n = events_before(s, t);
    if (events_before(up, t) == n && events_before(down, t) == n) kept.push_back(t);
  }
  return kept;
}

/// The sensitivity columns of the outcome's source against the central difference of up and
/// down (the source moved by +-delta) at the times given.
/// Errors are relative to the column's magnitude: the perturbed runs' own errors, of the order
/// of their rel_tol times the state, divided by the step leave that much noise on every row,
/// whatever the derivative's value there.
void compare(const SimulationResult& s, const SimulationResult& up, const SimulationResult& down,
             double delta, const Source& source, const std::vector<double>& times,
             const VariableTable& variables, SourceCheck& out) {
  const std::string suffix = ")/d(" + out.source + ")";
  for (const ColumnInfo& column : up.table.columns()) {
    const std::string name = "d(" + column.name + suffix;
    const auto& columns = s.table.columns();
    if (std::none_of(columns.begin(), columns.end(),
                     [&](const ColumnInfo& c) { return c.name == name; })) {
      continue;  // a derivative's column, which has no sensitivity
    }
    const std::size_t cs = s.table.column_index(name);
    const std::size_t cu = up.table.column_index(column.name);
    std::vector<double> sensitivity, difference;
    // The column's magnitude; for a variable at least its nominal value over the source's, as
    // for a column that stays at 0 (a velocity held by a drive).
    double size = nominal(variables, column.name) / source.scale;
    for (const double t : times) {
      const double u = up.table.value(*row_at(up.table, t), cu);
      const double d = down.table.value(*row_at(down.table, t), cu);
      sensitivity.push_back(s.table.value(*row_at(s.table, t), cs));
      difference.push_back((u - d) / (2.0 * delta));
      size = std::max({size, std::abs(difference.back()), std::abs(u) / source.scale});
    }
    for (std::size_t i = 0; i < times.size(); ++i) {
      const double e = std::abs(sensitivity[i] - difference[i]) /
                       std::max(size, std::numeric_limits<double>::min());
      if (e <= out.worst) continue;
      out.worst = std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
      out.worst_at = fmt::format("{} at t = {:g}: {:.6g}, difference {:.6g}", name, times[i],
                                 sensitivity[i], difference[i]);
    }
  }
}

/// The differences' step for the source called name, relative to its magnitude.
double relative_step(const Plan& plan, const std::string& name) {
  for (const auto& [source, step] : plan.source_steps) {
    if (source == name) return step;
  }
  return plan.relative_step;
}

std::vector<SourceCheck> outcomes_of(const Plan& plan, SourceCheck::Verdict verdict,
                                     const std::string& message) {
  std::vector<SourceCheck> out;
  for (const std::string& source : plan.sources) {
    out.push_back({.model = plan.model, .source = source, .verdict = verdict, .message = message});
  }
  return out;
}

}  // namespace

std::vector<SourceCheck> check(const Plan& plan, double tolerance) {
  const examples::Example* example = examples::find_example(plan.model);
  if (example == nullptr) throw std::out_of_range("no bundled model '" + plan.model + "'");
  SimulationOptions o = options_for(*example, plan, kSensitivityRelTol);
  o.sensitivities = plan.sources;
  std::optional<SimulationResult> s;
  try {
    const std::unique_ptr<SimulationModel> model = examples::make_reference_model(*example);
    s = run(*model, o);
  } catch (const std::exception& e) {
    return outcomes_of(plan, SourceCheck::Verdict::kFail, e.what());
  }
  const SimulationOptions q = options_for(*example, plan, examples::reference_rel_tol(*example));
  std::vector<SourceCheck> out = outcomes_of(plan, SourceCheck::Verdict::kFail, "");
  for (SourceCheck& outcome : out) {
    try {
      const std::unique_ptr<SimulationModel> fresh = examples::make_reference_model(*example);
      const Source source = resolve(*fresh, outcome.source);
      const double delta = relative_step(plan, source.name) * source.scale;
      const SimulationResult up = perturbed(*example, source, delta, q);
      const SimulationResult down = perturbed(*example, source, -delta, q);
      const std::vector<double> all = comparison_times(q);
      const std::vector<double> times = comparable(all, *s, up, down);
      outcome.rows = times.size();
      outcome.skipped = all.size() - times.size();
      compare(*s, up, down, delta, source, times, fresh->structure().variables, outcome);
      if (outcome.worst <= tolerance) outcome.verdict = SourceCheck::Verdict::kPass;
    } catch (const std::exception& e) {
      outcome.message = fmt::format("perturbed runs: {}", e.what());
    }
  }
  return out;
}

std::string format_table(const std::vector<SourceCheck>& outcomes, double tolerance) {
  std::string table = fmt::format("{:<26} {:<22} {:>10}  {:<8} {}\n", "model", "source", "worst",
                                  "verdict", "where / why");
  std::size_t failed = 0;
  for (const SourceCheck& o : outcomes) {
    const char* verdict = o.verdict == SourceCheck::Verdict::kPass ? "pass" : "FAIL";
    failed += o.verdict == SourceCheck::Verdict::kFail ? 1 : 0;
    const bool ran = o.message.empty();
    table += fmt::format(
        "{:<26} {:<22} {:>10}  {:<8} {}\n", o.model, o.source,
        ran ? fmt::format("{:.2e}", o.worst) : "-", verdict,
        ran ? fmt::format("{} ({} rows, {} skipped)", o.worst_at, o.rows, o.skipped) : o.message);
  }
  table += fmt::format("{} of {} checks failed (tolerance {:g} relative)\n", failed,
                       outcomes.size(), tolerance);
  return table;
}

}  // namespace hdae::sensitivity_check
